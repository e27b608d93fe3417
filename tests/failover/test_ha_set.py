"""The embedded set of `hexlog up --ha` (services/runtime/ha.py): a primary, a replica and three
Sentinels. Its users are on every node and Sentinel, and nothing opens without a password; a
primary killed is replaced by its replica, and started again it comes back as a replica with
every user, those made while it was down included; started again on its data dir, the set
keeps its data."""

from __future__ import annotations

import asyncio
import time

import pytest
import redis

from services.runtime import users
from services.runtime.ha import SERVICE, EmbeddedHA
from services.runtime.nodes import acl_lines
from services.store.connect import connect

pytestmark = pytest.mark.slow
LIVENESS_S = 60.0  # generous: a loaded machine; the benchmark measures the real figure


def user_names(client: redis.Redis) -> set[str]:
    return {line.split()[1] for line in acl_lines(client)}


def revive_until_whole(ha: EmbeddedHA) -> None:
    deadline = time.monotonic() + LIVENESS_S
    while not ha.healthy():
        assert time.monotonic() < deadline, "the set did not become whole again"
        ha.revive()
        time.sleep(0.2)


@pytest.fixture
def made(ha_set: EmbeddedHA) -> users.SentinelUsers:
    made = users.SentinelUsers("", ha_set.password, admin_url=ha_set.url)
    users.register(ha_set.url, made)
    yield made
    users.forget(ha_set.url)


async def test_every_node_and_sentinel_knows_the_users_and_lets_nobody_in_without_one(
        ha_set: EmbeddedHA, made: users.SentinelUsers) -> None:
    client = connect(users.role_url(ha_set.url, "rules"))
    try:
        await client.set("hexlog:probe", "1")
        assert await client.get("hexlog:probe") == b"1"
    finally:
        await client.aclose()
    for node in [*ha_set.nodes, *ha_set.sentinels]:
        admin = node.client(ha_set.password)
        assert "rules" in user_names(admin)
        admin.close()
        stranger = node.client("")
        with pytest.raises(redis.AuthenticationError):
            stranger.ping()
        stranger.close()
    rules_password = next(p for u, p in made.passwords if u == "rules")
    asker = redis.Redis(port=ha_set.sentinels[0].port, username="rules", password=rules_password)
    assert asker.sentinel_get_master_addr_by_name(SERVICE)[1] == ha_set.primary_port()
    with pytest.raises(redis.exceptions.NoPermissionError):  # asking, not steering
        asker.execute_command("SENTINEL", "FAILOVER", SERVICE)
    asker.close()


async def test_a_killed_primary_is_replaced_and_comes_back_a_replica_with_every_user(
        ha_set: EmbeddedHA, made: users.SentinelUsers) -> None:
    client = connect(users.role_url(ha_set.url, "rules"))
    try:
        await client.set("hexlog:before", "kept")
        killed = ha_set.kill_primary()
        # Followed through the Sentinels: the same client writes again on the new primary.
        await asyncio.wait_for(client.set("hexlog:after", "written"), LIVENESS_S)
        assert ha_set.primary_port() not in (None, killed)
        users.role_url(ha_set.url, "projections")  # made while the old primary is down
        await asyncio.to_thread(revive_until_whole, ha_set)
        assert await client.get("hexlog:before") == b"kept"
    finally:
        await client.aclose()
    back = ha_set.node(killed).client(ha_set.password)
    try:
        assert back.info("replication")["role"] == "slave"
        assert {"rules", "projections"} <= user_names(back)
        assert back.get("hexlog:after") == b"written"
    finally:
        back.close()


def test_the_set_started_again_keeps_its_data_and_its_primary(ha_set: EmbeddedHA) -> None:
    first = ha_set.kill_primary()
    revive_until_whole(ha_set)
    primary = ha_set.primary_port()
    assert primary != first
    admin = ha_set.node(primary).client(ha_set.password)  # type: ignore[arg-type]
    admin.set("hexlog:kept", "yes")
    admin.execute_command("WAIT", 1, 5000)
    admin.close()
    ha_set.stop()
    again = EmbeddedHA(ha_set.data_dir).start()
    try:
        assert again.primary_port() == primary  # the one the Sentinels last named
        client = again.node(primary).client(again.password)
        assert client.get("hexlog:kept") == b"yes"
        client.close()
    finally:
        again.stop()
    ha_set.nodes, ha_set.sentinels = [], []  # stopped already
