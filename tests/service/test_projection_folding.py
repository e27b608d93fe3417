"""A busy feed is folded: the projector reads it at most every `fold_every_s` (unless a read
comes back full), so a game that moved several times meanwhile is summarized once, with one
write for the batch, and the summary still ends at the game's last version."""

from __future__ import annotations

import asyncio
from typing import Any

from redis.asyncio import Redis
from service_helpers import Script, create_game, create_request, pump, send, wait_for

from services.projections.projector import Projector, game_key
from services.rules.service import RulesService


class CountingProjector(Projector):
    """The projector, noting the size of each batch of feed entries it applies."""

    def __init__(self, redis: Redis) -> None:
        super().__init__(redis, {})
        self.batches: list[int] = []

    async def handle(self, stream: str, entries: list[tuple[bytes, Any]]) -> None:
        self.batches.append(len(entries))
        await super().handle(stream, entries)


async def test_moves_made_between_two_reads_of_the_feed_are_applied_as_one_batch(
    service: RulesService, redis_client: Redis
) -> None:
    projector = CountingProjector(redis_client)
    stop = asyncio.Event()
    task = asyncio.create_task(projector.run(stop, block_ms=50, fold_every_s=3.0))
    try:
        req = create_request("g-fold", controllers=("human",) * 3)
        script = Script.start(req, await create_game(service, req))

        async def summarized(version: int) -> bool:
            return int(await redis_client.hget(game_key("g-fold"), "version") or 0) == version

        await wait_for(lambda: summarized(script.state.version))
        read_before = len(projector.batches)
        for env, _ in script.moves(6):  # six appends, six feed entries, well within 3 s
            await send(redis_client, env)
            await pump(service)
        await wait_for(lambda: summarized(script.state.version))
        assert projector.batches[read_before:] == [6]
    finally:
        stop.set()
        await task
