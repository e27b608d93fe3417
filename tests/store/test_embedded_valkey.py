"""The embedded Valkey: AOF survives a SIGKILL, one server per data dir, short socket paths."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
import redis
from redis.asyncio import Redis
from store_helpers import GAME, num, nums

from services.runtime.shared import redis_url_from_env_or_embedded
from services.runtime.valkey import DataDirInUseError, EmbeddedValkey
from services.store import EventStore
from services.store.keys import game_keys

pytestmark = [pytest.mark.slow, pytest.mark.single_server]


@pytest.mark.parametrize("fresh_valkey", ["always", "everysec"], indirect=True)
async def test_aof_survives_kill_and_restart(fresh_valkey: EmbeddedValkey) -> None:
    # One connection, so WAITAOF below covers every write of the test.
    client = Redis.from_url(fresh_valkey.url, single_connection_client=True)
    store = EventStore(client)
    await store.create_game(GAME, num(0), {"status": "active"})
    for i in range(50):
        result = await store.append(GAME, 1 + 2 * i, f"c{i}", nums(i, -i), scope="s0")
        assert result.accepted
    await store.save_snapshot(GAME, 40, 1, "r1", b"state")
    await store.ensure_group(game_keys(GAME).feed, "projections")
    # Under everysec Valkey may postpone even the write(2) of acknowledged commands for up to
    # 2 s while a background fsync runs (aof.c flushAppendOnlyFile), so a SIGKILL can lose them;
    # WAITAOF is the way to know they reached the disk. Under always it returns at once.
    assert await client.execute_command("WAITAOF", 1, 0, 1000) == [1, 0]
    await client.aclose()

    fresh_valkey.kill()
    assert not fresh_valkey.is_running()
    fresh_valkey.start()  # the stale pidfile left by the kill must not block a restart

    client = Redis.from_url(fresh_valkey.url)
    store = EventStore(client)
    try:
        assert (await client.config_get("appendonly"))["appendonly"] == "yes"
        assert await store.version(GAME) == 101
        events = await store.read(GAME)
        assert [v for v, _ in events] == list(range(1, 102))
        assert events[-1] == (101, num(-49))
        assert (await store.append(GAME, 99, "c49", nums(0), scope="s0")).status == "duplicate"
        snap = await store.load_snapshot(GAME)
        assert snap is not None
        assert snap.version == 40
        assert await store.ensure_group(game_keys(GAME).feed, "projections") is False
    finally:
        await client.aclose()


def test_second_server_on_the_same_data_dir_is_refused(
    fresh_valkey: EmbeddedValkey, valkey_dir: Path
) -> None:
    with pytest.raises(DataDirInUseError):
        EmbeddedValkey(valkey_dir).start()
    assert fresh_valkey.is_running()  # the refused start did not disturb the owner
    assert redis.Redis.from_url(fresh_valkey.url).ping()
    assert (valkey_dir / "valkey.url").read_text().strip() == fresh_valkey.url


def test_live_pidfile_is_refused_even_without_the_lock(
    fresh_valkey: EmbeddedValkey, tmp_path: Path
) -> None:
    # An orphaned server (its parent died, so no lock) is found through its pidfile.
    other = tmp_path / "other"
    other.mkdir()
    (other / "valkey.pid").write_text((fresh_valkey.data_dir / "valkey.pid").read_text())
    with pytest.raises(DataDirInUseError, match="live valkey"):
        EmbeddedValkey(other).start()


def test_pidfile_of_a_dead_or_foreign_process_is_ignored(tmp_path: Path) -> None:
    # Our own pid is alive but not a valkey: a pid reused after a crash.
    (tmp_path / "valkey.pid").write_text(f"{os.getpid()}\n")
    with EmbeddedValkey(tmp_path) as server:
        assert redis.Redis.from_url(server.url).ping()


def test_long_data_dir_gets_a_short_socket_path(tmp_path: Path) -> None:
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    server = EmbeddedValkey(deep).start()
    try:
        assert len(os.fsencode(server.socket_path)) < 100
        assert not server.socket_path.is_relative_to(deep)
        assert (deep / "valkey.url").read_text().strip() == server.url
        assert redis.Redis.from_url(server.url).ping()
        socket_dir = server.socket_path.parent
    finally:
        server.stop()
    assert not socket_dir.exists()
    assert not (deep / "valkey.url").exists()
    assert (deep / "appendonlydir").is_dir()


def test_server_config_is_durable_and_never_evicts(fresh_valkey: EmbeddedValkey) -> None:
    client = redis.Redis.from_url(fresh_valkey.url, decode_responses=True)
    config = client.config_get("*")
    assert config["appendonly"] == "yes"
    assert config["appendfsync"] == "everysec"
    assert config["save"] == ""
    assert config["maxmemory-policy"] == "noeviction"
    assert config["port"] == "0"  # no TCP listener at all
    client.close()


def test_url_from_env_wins_over_embedded(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("REDIS_URL", "redis://example.invalid:6379/0")
    with redis_url_from_env_or_embedded(tmp_path / "unused") as url:
        assert url == "redis://example.invalid:6379/0"
    assert not (tmp_path / "unused").exists()


def test_embedded_url_when_env_is_unset(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)
    with redis_url_from_env_or_embedded(tmp_path / "data") as url:
        assert url.startswith("unix://:")  # the default user's password, then the socket
        assert redis.Redis.from_url(url).ping()
        anonymous = redis.Redis(unix_socket_path=url.split("@", 1)[1])
        with pytest.raises(redis.AuthenticationError):
            anonymous.ping()
        url_file = tmp_path / "data" / "valkey.url"
        assert url_file.read_text().strip() == url
        assert url_file.stat().st_mode & 0o077 == 0  # the admin password: ours only
    with pytest.raises(redis.ConnectionError):
        redis.Redis.from_url(url).ping()


@pytest.mark.parametrize("fresh_valkey", ["always", "everysec"], indirect=True)
async def test_kill_during_concurrent_appends_keeps_the_log_consistent(
    fresh_valkey: EmbeddedValkey,
) -> None:
    """Every policy: each append survives whole or not at all (meta, log, outcome agree).
    `always`: no acknowledged append is lost. `everysec` may lose up to ~2 s of acknowledged
    appends even on a plain SIGKILL (write postponed behind a slow background fsync; seen here
    under disk load), so there only consistency is asserted."""
    setup = Redis.from_url(fresh_valkey.url)
    await EventStore(setup).create_game(GAME, num(0), {"status": "active"})
    await setup.aclose()
    acked: list[tuple[str, int]] = []  # (command id, last version) of every accepted append

    async def writer(w: int) -> None:
        client = Redis.from_url(fresh_valkey.url)
        store = EventStore(client)
        try:
            for i in range(10_000):
                version = await store.version(GAME)
                result = await store.append(GAME, version, f"w{w}-{i}", nums(w), scope="s0")
                if result.accepted:
                    acked.append((f"w{w}-{i}", result.last))
        except (redis.ConnectionError, OSError):
            return  # the server died under us: stop, like a crashed replica
        finally:
            await client.aclose()

    async def some_appends_acked() -> None:
        while len(acked) < 200:
            await asyncio.sleep(0.005)

    tasks = [asyncio.create_task(writer(w)) for w in range(4)]
    await asyncio.wait_for(some_appends_acked(), timeout=30)
    fresh_valkey.kill()
    await asyncio.gather(*tasks)

    fresh_valkey.start()
    client = Redis.from_url(fresh_valkey.url)
    store = EventStore(client)
    try:
        version = await store.version(GAME)
        events = await store.read(GAME)
        assert [v for v, _ in events] == list(range(1, version + 1))
        assert await client.xlen(game_keys(GAME).ev) == version
        for command_id, last in acked:
            outcome = await store.get_outcome(command_id, GAME, scope="s0")
            if outcome is None:  # lost whole: its events must be gone too
                assert fresh_valkey.appendfsync == "everysec"
                assert last > version
            else:
                assert outcome["to"] == last
                assert last <= version
    finally:
        await client.aclose()
