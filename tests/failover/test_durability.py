"""`replica` durability (services/store/durability.py, replicated.py) on a real primary and
replica: nothing about a command is told to anybody (its outcome to a client, its prompt, its
feed entry) before the replica holds it; a write its primary took down with it is written again
under the same command id; an outcome left waiting by a writer that died is published by the
next writer that meets it."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager

import pytest
from redis.asyncio import Redis

from services.protocol import deadlines_key, prompts_key
from services.runtime.ha import EmbeddedHA
from services.store import EventStore
from services.store.connect import connect
from services.store.durability import Durability
from services.store.keys import game_keys
from services.store.results import PromptWrite

pytestmark = pytest.mark.slow
LIVENESS_S = 60.0
GAME = "g-durable"
PROMPTS = prompts_key(game_keys(GAME).partition, "bot:x")
DEADLINES = deadlines_key(game_keys(GAME).partition)


@pytest.fixture
async def admin(ha_set: EmbeddedHA) -> AsyncIterator[Redis]:
    client = connect(ha_set.url)
    yield client
    await client.aclose()


@contextmanager
def replica_frozen(ha: EmbeddedHA, cut: bool = False) -> Iterator[int]:
    """The replica stopped (SIGSTOP: connected, silent), given back on leaving. With `cut`,
    its link dropped by the primary too: what the primary writes meanwhile stays there (a
    stopped replica still receives into its socket what the primary sends)."""
    port = next(n.port for n in ha.nodes if n.port != ha.primary_port())
    pid = ha.node(port).proc.pid  # type: ignore[union-attr]
    os.kill(pid, signal.SIGSTOP)
    try:
        if cut:
            primary = ha.node(ha.primary_port()).client(ha.password)  # type: ignore[arg-type]
            primary.client_kill_filter(_type="replica")
            primary.close()
        yield port
    finally:
        os.kill(pid, signal.SIGCONT)


async def until(check: object, what: str) -> None:
    for _ in range(int(LIVENESS_S * 20)):
        if await check():  # type: ignore[operator]
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never: {what}")


def prompt() -> PromptWrite:
    return PromptWrite(stream=PROMPTS, fields={"game": GAME, "version": 2}, deadlines=DEADLINES,
                       member=f"{GAME}|2|0", deadline_ms=10**13)


async def test_nothing_is_told_before_the_replica_holds_it(ha_set: EmbeddedHA,
                                                           admin: Redis) -> None:
    writer = EventStore(admin, durability=Durability("replica"))
    reader = EventStore(admin, durability=Durability("local"))  # a client, whatever its setting
    await writer.create_game(GAME, b'{"v":1}', {"status": "live"}, command_id="create")
    feed = game_keys(GAME).feed
    fed = await admin.xlen(feed)
    with replica_frozen(ha_set):
        move = asyncio.create_task(writer.append(GAME, 1, "m1", [b'{"v":2}'], scope="s0",
                                                 prompt=prompt()))
        rejection = asyncio.create_task(writer.record_outcome(
            "m0", GAME, {"status": "rejected", "rule_id": "r"}, scope="s1"))

        async def written() -> bool:
            return await admin.hget(game_keys(GAME).outcomes, "s0:m1") is not None

        await until(written, "the move's outcome written on the primary")
        await asyncio.sleep(1.0)  # several WAITs run out meanwhile
        assert not move.done()
        assert not rejection.done()
        assert await reader.get_outcome("m1", GAME, scope="s0") is None
        assert await reader.get_outcome("m0", GAME, scope="s1") is None
        assert await admin.xlen(PROMPTS) == 0
        assert await admin.zscore(DEADLINES, f"{GAME}|2|0") is None
        assert await admin.xlen(feed) == fed
        assert "waiting" in writer.durability.status()
    result = await asyncio.wait_for(move, LIVENESS_S)
    assert result.status == "accepted"
    await asyncio.wait_for(rejection, LIVENESS_S)
    assert await reader.get_outcome("m1", GAME, scope="s0") == {
        "status": "accepted", "game": GAME, "from": 2, "to": 2}
    assert (await reader.get_outcome("m0", GAME, scope="s1") or {})["rule_id"] == "r"
    assert await admin.xlen(PROMPTS) == 1
    assert await admin.zscore(DEADLINES, f"{GAME}|2|0") is not None
    assert await admin.xlen(feed) == fed + 1
    assert writer.durability.status() == ""


async def test_a_write_lost_with_its_primary_is_written_again_once(ha_set: EmbeddedHA,
                                                                  admin: Redis) -> None:
    writer = EventStore(admin, durability=Durability("replica"))
    await writer.create_game(GAME, b'{"v":1}', {"status": "live"}, command_id="create")
    with replica_frozen(ha_set, cut=True):
        move = asyncio.create_task(writer.append(GAME, 1, "m1", [b'{"v":2}'], scope="s0"))

        async def written() -> bool:
            return await admin.hget(game_keys(GAME).outcomes, "s0:m1") is not None

        await until(written, "the move written on the primary alone")
        await asyncio.sleep(1.0)  # its writer now waits for the replica
        killed = ha_set.kill_primary()  # it takes the move with it
    # The replica takes over without the move; the dead primary comes back as its replica.

    def whole() -> None:
        while not ha_set.healthy():
            ha_set.revive()
            asyncio.run(asyncio.sleep(0.2))

    await asyncio.wait_for(asyncio.to_thread(whole), LIVENESS_S)
    assert ha_set.primary_port() != killed
    result = await asyncio.wait_for(move, LIVENESS_S)
    assert result.status == "accepted"  # written anew: the first write was gone
    assert writer.durability.rewritten == 1
    entries = await writer.read_entries(GAME)
    assert [(e.version, e.command_id) for e in entries] == [(1, "create"), (2, "m1")]
    reader = EventStore(admin, durability=Durability("local"))
    assert (await reader.get_outcome("m1", GAME, scope="s0") or {}).get("to") == 2


async def test_an_outcome_left_waiting_by_a_dead_writer_is_published_by_the_next(
        ha_set: EmbeddedHA, admin: Redis) -> None:
    writer = EventStore(admin, durability=Durability("replica"))
    await writer.create_game(GAME, b'{"v":1}', {"status": "live"}, command_id="create")
    feed = game_keys(GAME).feed
    fed = await admin.xlen(feed)
    with replica_frozen(ha_set):
        dying = asyncio.create_task(writer.append(GAME, 1, "m1", [b'{"v":2}'], scope="s0"))

        async def written() -> bool:
            return await admin.hget(game_keys(GAME).outcomes, "s0:m1") is not None

        await until(written, "the move written, unpublished")
        dying.cancel()  # its writer is gone before the replica answered
    reader = EventStore(admin, durability=Durability("local"))
    await asyncio.sleep(0.5)
    assert await reader.get_outcome("m1", GAME, scope="s0") is None  # nobody published it
    nxt = EventStore(admin, durability=Durability("replica"))
    settled = await asyncio.wait_for(nxt.get_outcome("m1", GAME, scope="s0", settle=True),
                                     LIVENESS_S)
    assert settled == {"status": "accepted", "game": GAME, "from": 2, "to": 2}
    assert await reader.get_outcome("m1", GAME, scope="s0") == settled
    assert await admin.xlen(feed) == fed + 1  # the batch's feed entry, once
