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
