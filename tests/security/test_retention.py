"""Attack 8: unbounded growth. Command streams, the feed and prompt streams used to keep every
entry for ever (prompt streams with every turn key of finished games); dead letters copied
whole hostile bodies; a create request had no size limit.

Now every stream is trimmed once its entries are handled (older than its retention and read and
acknowledged by every consumer group), finished games drop their snapshot and their secrets
expire, dead letters keep a few kilobytes of an entry, and requests are size-limited. What a
finished game leaves is its record: the log, meta, rulings, and for a day its outcomes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from redis.asyncio import Redis
from service_helpers import create_request, dead_letters, send_raw, wait_for, wait_no_pending

from bots.worker import BotWorker
from services.client import Client
from services.protocol import DATA, KIND, MAC, prompts_key
from services.rules.config import ServiceConfig
from services.rules.retention import trim
from services.store import EventStore
from services.store.keys import PARTITIONS, commands_key, feed_key, game_keys, partition

GAMES = 3
SHORT = ServiceConfig(command_retention_ms=0, prompt_retention_ms=0, feed_retention_ms=0,
                      finished_secret_ttl_s=60)


async def test_handled_entries_are_trimmed_and_a_finished_game_keeps_only_its_record(
    rules_app: Callable[..., Awaitable[Any]], redis_client: Redis, store: EventStore,
    user: Callable[..., Awaitable[Redis]],
) -> None:
    await rules_app(config=SHORT, trim_every_s=0.2)
    stop = asyncio.Event()
    worker = asyncio.create_task(BotWorker(await user("bot", "random"), ["random"]).run(stop))
    client = Client(redis_client)
    games = [f"g-keep-{i}" for i in range(GAMES)]
    for game in games:
        await client.create_game(create_request(game, controllers=["bot:random"] * 4,
                                                turn_limit=40, seed=game.encode()))

    async def all_finished() -> bool:
        metas = [await store.meta(g) or {} for g in games]
        return all(m.get("status") == "finished" for m in metas)

    await wait_for(all_finished, 120, "the games to finish")
    stop.set()
    await asyncio.wait_for(worker, 10)
    await wait_no_pending(redis_client)

    streams = [commands_key(p) for p in range(PARTITIONS)]
    streams += [commands_key(p, "bot:random") for p in range(PARTITIONS)]
    streams += [prompts_key(p, "bot:random") for p in range(PARTITIONS)]
    streams += [feed_key(p) for p in range(PARTITIONS)]

    async def trimmed() -> bool:
        lengths = [await redis_client.xlen(s) for s in streams]
        return sum(lengths) == 0

    await wait_for(trimmed, 20, "every handled entry to be trimmed")
    for game in games:
        k = game_keys(game)
        assert await redis_client.exists(k.ev, k.meta) == 2  # the record stays
        assert not await redis_client.exists(k.snap)
        assert 0 < await redis_client.ttl(k.secret) <= SHORT.finished_secret_ttl_s


async def test_a_dead_letter_keeps_a_few_kilobytes_of_a_megabyte_entry(
    rules_app: Callable[..., Awaitable[Any]], redis_client: Redis, store: EventStore
) -> None:
    await rules_app()
    game = "g-huge"
    huge = b'{"command_id": "x", "game_id": "g-huge", "padding": "' + b"x" * 1_000_000 + b'"}'
    await send_raw(redis_client, game, {DATA: huge, MAC: b"0" * 1_000_000, "junk": huge})
    await send_raw(redis_client, game, {DATA: huge, KIND: "create"})

    async def two() -> list[dict[bytes, bytes]] | None:
        letters = await dead_letters(redis_client, partition(game))
        return letters if len(letters) == 2 else None

    letters = await wait_for(two, 20, "two dead letters")
    for letter in letters:
        assert sum(len(k) + len(v) for k, v in letter.items()) < 10_000
    assert b"limit" in letters[1][b"reason"]
    assert await store.meta(game) is None


async def test_trimming_keeps_what_any_group_has_not_read_or_acknowledged(
    redis_client: Redis,
) -> None:
    """Past its retention an entry goes only once every group has read and acknowledged it: a
    consumer that is away loses nothing. Here entries 151-250 of two streams: never read by
    one group of the first, read and not acknowledged in the second. A missing stream or a
    key of another type among the streams stops no other stream's trim."""
    unread, unacked, lone, missing, wrong = (f"hexlog:{{003}}:trim-test:{n}" for n in "abcde")
    for stream in (unread, unacked, lone):
        pipe = redis_client.pipeline(transaction=False)
        for i in range(1, 251):
            pipe.xadd(stream, {"n": i}, id=f"1-{i}")
        await pipe.execute()
    await redis_client.set(wrong, "not a stream")
    for stream, group, reads, acks in ((unread, "slow", 150, 150), (unread, "fast", 250, 250),
                                       (unacked, "only", 250, 150)):
        await redis_client.xgroup_create(stream, group, id="0")
        read = await redis_client.xreadgroup(group, "c", {stream: ">"}, count=reads)
        await redis_client.xack(stream, group, *[e[0] for e in read[0][1][:acks]])

    removed = await trim(redis_client, [wrong, unread, missing, unacked, lone], retention_ms=0)
    left = {}
    for stream in (unread, unacked):
        left[stream] = [int(e[0].split(b"-")[1]) for e in await redis_client.xrange(stream)]
        # (XTRIM ~ removes whole nodes of a stream: some handled entries may stay a while)
        assert left[stream][-100:] == list(range(151, 251)), f"{stream}: unhandled entries lost"
        assert left[stream] == list(range(left[stream][0], 251)), stream
        assert left[stream][0] > 1, f"{stream}: nothing trimmed"
    assert await redis_client.xlen(lone) == 0  # no group: every entry is handled
    assert removed == 250 + sum(250 - len(entries) for entries in left.values())
    assert await redis_client.get(wrong) == b"not a stream"
