"""Appends issued together share one pipeline (what the rules service uses) and still keep
every guarantee of a lone append: each its own CAS, its own outcome, its own error."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import pytest
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from store_helpers import GAME, num, nums

from services.store import EventStore
from services.store.coalesce import CoalescingRunner
from services.store.connect import connect, is_cluster, on_every_node
from services.store.keys import game_keys


@pytest.fixture
def coalesced(redis_client: Redis) -> EventStore:
    return EventStore(redis_client, coalesce_appends=True)


class CountingWrites:
    """Counts the writes to the server's sockets (to see the calls were sent together): every
    path to the server, redis-py's and the lean pipeline's, writes through a StreamWriter."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.sent = 0
        writelines, write = asyncio.StreamWriter.writelines, asyncio.StreamWriter.write

        def counted_writelines(writer: asyncio.StreamWriter, data: Any) -> None:
            self.sent += 1
            writelines(writer, data)

        def counted_write(writer: asyncio.StreamWriter, data: Any) -> None:
            self.sent += 1
            write(writer, data)

        monkeypatch.setattr(asyncio.StreamWriter, "writelines", counted_writelines)
        monkeypatch.setattr(asyncio.StreamWriter, "write", counted_write)


async def test_appends_to_many_games_in_one_turn_each_get_their_own_result(
    coalesced: EventStore, redis_client: Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = [f"{GAME}-{i}" for i in range(20)]
    for game in games:
        await coalesced.create_game(game, num(0), {"status": "active"})
    await coalesced.create_game("warm", num(0), {"status": "active"})
    await coalesced.append("warm", 1, "c", nums(1), scope="s0")  # the script is loaded once
    counter = CountingWrites(monkeypatch)
    # Game 3 is asked at a version it is not at: only that append is a conflict.
    results = await asyncio.gather(*(
        coalesced.append(game, 5 if i == 3 else 1, f"c{i}", nums(i, i), scope="s0")
        for i, game in enumerate(games)))
    writes = counter.sent
    assert [r.status for r in results] == ["conflict" if i == 3 else "accepted"
                                           for i in range(len(games))]
    assert all(r.version == 3 for i, r in enumerate(results) if i != 3)
    assert results[3].version == 1
    for i, game in enumerate(games):
        assert await redis_client.xlen(game_keys(game).ev) == (1 if i == 3 else 3)
    if not is_cluster(redis_client):
        assert writes == 1  # twenty scripts, one write to the server


async def test_a_replayed_command_id_is_a_duplicate_inside_a_shared_pipeline(
    coalesced: EventStore,
) -> None:
    await coalesced.create_game(GAME, num(0), {"status": "active"})
    first, again = await asyncio.gather(
        coalesced.append(GAME, 1, "same", nums(1), scope="s0"),
        coalesced.append(GAME, 2, "same", nums(1), scope="s0"),
    )
    assert first.status == "accepted"
    assert again.status == "duplicate"


async def test_a_forgotten_script_is_loaded_again_for_every_call_of_the_turn(
    coalesced: EventStore, redis_client: Redis, valkey_server: Any
) -> None:
    games = [f"{GAME}-{i}" for i in range(5)]
    for game in games:
        await coalesced.create_game(game, num(0), {"status": "active"})
    admin = connect(valkey_server.url)
    try:
        await on_every_node(admin, "SCRIPT", "FLUSH")
    finally:
        await admin.aclose()
    results = await asyncio.gather(*(coalesced.append(g, 1, "c", nums(1), scope="s0")
                                     for g in games))
    assert {r.status for r in results} == {"accepted"}


async def test_a_server_error_reaches_only_its_own_caller(redis_client: Redis) -> None:
    runner = CoalescingRunner(redis_client)
    await redis_client.set("hexlog:test:plain", "1")
    good = await redis_client.script_load("return 7")
    bad = await redis_client.script_load("return redis.call('LPUSH', KEYS[1], 'x')")
    results = await asyncio.gather(
        runner.evalsha(good, 0),
        runner.evalsha(bad, 1, "hexlog:test:plain"),  # WRONGTYPE
        runner.evalsha(good, 0),
        return_exceptions=True,
    )
    assert results[0] == 7
    assert results[2] == 7
    assert isinstance(results[1], Exception)
    assert "WRONGTYPE" in str(results[1])


async def test_commands_are_packed_in_c_with_the_same_meaning(redis_client: Redis) -> None:
    if not is_cluster(redis_client):
        assert redis_client.connection_pool.connection_class.__name__.startswith("HiredisPacked")
    await redis_client.hset("hexlog:test:h", mapping={"é": "ü", "n": 3, "f": 2.5, "b": b"\x00\xff"})
    assert await redis_client.hgetall("hexlog:test:h") == {
        "é".encode(): "ü".encode(), b"n": b"3", b"f": b"2.5", b"b": b"\x00\xff"}
    assert (await redis_client.config_get("appendonly"))  # "CONFIG GET": two words, two args
    with pytest.raises(Exception, match="NoneType"):
        await redis_client.set("hexlog:test:none", None)  # type: ignore[arg-type]


async def test_a_failed_connection_fails_every_call_of_the_turn() -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    client = connect(f"redis://127.0.0.1:{port}/0", socket_connect_timeout=1)
    runner = CoalescingRunner(client)
    try:
        results = await asyncio.gather(*(runner.evalsha("0" * 40, 0) for _ in range(3)),
                                       return_exceptions=True)
    finally:
        await client.aclose()
    assert all(isinstance(r, ConnectionError | RedisConnectionError) for r in results), results
