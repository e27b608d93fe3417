"""A whole game of four bots played through Redis equals the same seed played in-process
(bots/local.play, which reseeds each bot per decision exactly as the bot worker does), event
for event: the service adds transport, never behaviour."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import pytest
from redis.asyncio import Redis
from service_helpers import (
    BOTS,
    Worker,
    assert_gap_free,
    create_request,
    log,
    reference_created,
    total_pending,
    wait_for,
    wait_started,
)

from bots.local import play
from bots.registry import make_bot
from events.events import GameCreated, GameFinished
from events.requests import CreateGame
from services.client import Client
from services.rules.engine.chance import SeededDealer
from services.store import EventStore

GAME_TIMEOUT = 60.0


def bot_request(game_id: str, bots: tuple[str, ...], seed: bytes) -> CreateGame:
    return create_request(game_id, seed=seed, controllers=tuple(f"bot:{b}" for b in bots),
                          names=tuple(f"{b}{i}" for i, b in enumerate(bots)))


async def play_through_redis(redis: Redis, store: EventStore, req: CreateGame,
                             workers: Sequence[Worker] = ()) -> None:
    """Create the game and wait until it is finished (failing fast if a worker dies)."""
    client = Client(redis)
    await client.create_game(req)

    async def finished() -> bool:
        for w in workers:
            assert w.proc.poll() is None, f"{w.proc.args} exited {w.proc.returncode}:\n{w.output()}"
        meta = await store.meta(req.game_id)
        return meta is not None and meta["status"] == "finished"

    await wait_for(finished, GAME_TIMEOUT, f"game {req.game_id} to finish")
    events = await client.events(req.game_id)
    assert isinstance(events[-1].event, GameFinished)


async def assert_equals_local_play(redis: Redis, store: EventStore, req: CreateGame,
                                   bots: tuple[str, ...]) -> None:
    assert req.seed is not None
    created = reference_created(req)
    local = play(created, [make_bot(b, 0) for b in bots], SeededDealer(bytes.fromhex(req.seed)))
    envelopes = await log(store, req.game_id)
    served = [e.event for e in envelopes]
    assert isinstance(served[0], GameCreated)
    assert served[0] == created  # same id, seed commitment, names, modules, board
    assert len(served) == len(local.log)
    for version, (mine, theirs) in enumerate(zip(served, local.log, strict=True), start=1):
        assert mine == theirs, f"event {version} differs"
    assert isinstance(served[-1], GameFinished)
    assert await assert_gap_free(redis, req.game_id) == len(local.log)
    # Every move came from a bot worker (none had to be played at a deadline).
    assert all(not e.command_id.startswith("deadline:") for e in envelopes)


async def test_bot_games_in_process_equal_local_play(
    rules_app: Any, bot_workers: Any, store: EventStore, redis_client: Redis
) -> None:
    """Two games at once through the FastStream app and a BotWorker task."""
    await rules_app()
    bot_workers(["random", "heuristic"])
    games = [
        (bot_request("g-full-a", BOTS, b"seed-a"), BOTS),
        (bot_request("g-full-b", ("heuristic",) * 4, b"seed-b"), ("heuristic",) * 4),
    ]
    await asyncio.gather(*(play_through_redis(redis_client, store, req) for req, _ in games))
    for req, bots in games:
        await assert_equals_local_play(redis_client, store, req, bots)
    assert await total_pending(redis_client) == 0


@pytest.mark.slow
async def test_bot_game_with_separate_processes_equals_local_play(
    processes: Any, store: EventStore, redis_client: Redis
) -> None:
    """`hexlog serve rules` and `hexlog serve bots` as real processes; two workers of the
    bot pools, so prompts of one game are answered by either."""
    rules = processes("rules")
    workers = [rules, processes("bots", "--bots", "random,heuristic"),
               processes("bots", "--bots", "heuristic,random")]
    await wait_started(redis_client, rules)
    bots = ("random", "heuristic", "heuristic", "random")
    games = [bot_request("g-proc-a", bots, b"seed-proc-a"),
             bot_request("g-proc-b", BOTS, b"seed-proc-b")]
    await asyncio.gather(*(play_through_redis(redis_client, store, req, workers)
                           for req in games))
    await assert_equals_local_play(redis_client, store, games[0], bots)
    await assert_equals_local_play(redis_client, store, games[1], BOTS)
    assert await total_pending(redis_client) == 0
    assert rules.proc.poll() is None
