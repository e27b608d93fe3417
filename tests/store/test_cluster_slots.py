"""Cluster mode: every multi-key call stays in one slot.

The keys each Lua script and each multi-key command is given are checked against the Cluster's
slot function here, with no server; the whole store/service/security/tournament suite then runs
on a 3-master cluster (`pytest --cluster 3`, CI's second pass), where any call across slots
fails (redis-py refuses it before sending, the server answers CROSSSLOT). The last tests show
that such a call does fail there, and that the consumers' per-partition reads see every
partition."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis
from redis.crc import key_slot
from redis.exceptions import RedisClusterException, ResponseError

from services.protocol import deadlines_key, prompts_key
from services.store.connect import is_cluster
from services.store.keys import PARTITIONS, commands_key, dlq_key, feed_key, game_keys, partition
from services.store.streams import GroupReader, by_slot, read_group

GAMES = [f"g-slot-{i}" for i in range(64)]


def slot(key: str) -> int:
    return int(key_slot(key.encode()))


@pytest.mark.parametrize("game_id", GAMES[:16])
def test_every_key_of_a_script_call_is_in_the_games_slot(game_id: str) -> None:
    k = game_keys(game_id)
    p = partition(game_id)
    # append.lua (with the next prompt), create_game.lua, record_outcome.lua, save_snapshot.lua
    append = [k.ev, k.meta, k.outcomes, k.feed, prompts_key(p, "bot:random"), deadlines_key(p)]
    create = [k.ev, k.meta, k.feed, k.secret, k.outcomes]
    others = [k.snap, k.rulings, k.prompts, prompts_key(p, "human")]
    assert {slot(key) for key in append + create + others} == {slot(k.ev)}


def test_a_partition_s_streams_share_a_slot_and_partitions_spread() -> None:
    for p in range(PARTITIONS):
        keys = [commands_key(p), commands_key(p, "bot:random"), dlq_key(p), feed_key(p),
                prompts_key(p, "bot:heuristic"), deadlines_key(p)]
        assert len({slot(key) for key in keys}) == 1
    assert len({slot(feed_key(p)) for p in range(PARTITIONS)}) == PARTITIONS


def test_reads_over_partitions_are_grouped_by_slot() -> None:
    streams = {commands_key(p, pool): ">" for p in range(PARTITIONS) for pool in ("", "bot:x")}
    groups = by_slot(streams)
    assert len(groups) == PARTITIONS
    for subset in groups.values():
        assert len({slot(s) for s in subset}) == 1


needs_cluster = pytest.mark.cluster_only  # collected by `pytest --cluster N` only


@needs_cluster
async def test_a_call_across_slots_fails_on_the_cluster(redis_client: Redis) -> None:
    assert is_cluster(redis_client)
    with pytest.raises((RedisClusterException, ResponseError)):
        await redis_client.xreadgroup("rules", "c", {feed_key(0): ">", feed_key(1): ">"})


@needs_cluster
async def test_one_reader_sees_every_partition_on_the_cluster(redis_client: Redis) -> None:
    streams = {feed_key(p): ">" for p in range(PARTITIONS)}
    for stream in streams:
        await redis_client.xgroup_create(stream, "g", id="0", mkstream=True)
        await redis_client.xadd(stream, {"n": stream})
    reader = GroupReader(redis_client, "g", "c")
    seen: set[str] = set()
    try:
        async with asyncio.timeout(10):
            while len(seen) < PARTITIONS:
                seen.update(s for s, entries in await reader.read(streams, 10, 100) if entries)
    finally:
        await reader.close()
    assert seen == set(streams)
    assert await read_group(redis_client, "g", "c", streams, 10) == []  # all delivered


@needs_cluster
async def test_a_closed_reader_takes_nothing_even_when_its_close_is_cut_short(
    redis_client: Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reader's calls in flight are cancelled to the end when it closes, even when a call
    swallows its first cancellation (Python 3.11's `wait_for` inside redis-py can) and the
    close itself is cancelled at once (a stop cancels again every 0.1 s). Before, one such call
    went on blocking and took the next entry for a consumer that was gone: it sat pending,
    and a rules replica stopped in a test stole the next test's first command."""
    streams = {feed_key(p): ">" for p in range(PARTITIONS)}
    for stream in streams:
        await redis_client.xgroup_create(stream, "g", id="0", mkstream=True)
    real = read_group

    async def stubborn(*args: object, **kwargs: object) -> object:
        try:
            return await real(*args, **kwargs)
        except asyncio.CancelledError:
            return await real(*args, **kwargs)

    monkeypatch.setattr("services.store.streams.read_group", stubborn)
    reader = GroupReader(redis_client, "g", "gone")
    reading = asyncio.create_task(reader.read(streams, 10, 3_000))
    await asyncio.sleep(0.2)  # every partition's call blocking on the server
    reading.cancel()  # (the reader's own wait, not its calls: those stay in flight)
    closing = asyncio.create_task(reader.close())
    await asyncio.sleep(0)
    closing.cancel()
    with pytest.raises(asyncio.CancelledError):
        await closing

    await asyncio.sleep(0.5)  # the calls cancelled a second time (cancel_and_wait's 0.1 s)
    await redis_client.xadd(feed_key(3), {"n": "after the close"})
    await asyncio.sleep(0.3)
    taken = await read_group(redis_client, "g", "alive", {feed_key(3): ">"}, 10)
    assert [fields for _, entries in taken for _, fields in entries] == [
        {b"n": b"after the close"}]
