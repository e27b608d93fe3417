"""The rules service reads the command streams in lanes (`hexlog serve rules --read-lanes`,
services/rules/config.py READ_LANES), each over its own share of the partitions: every stream
is read by exactly one lane, and a read that takes long to judge in one lane holds up no game of
the other."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Sequence
from typing import Any

import pytest
from redis.asyncio import Redis
from service_helpers import (
    Script,
    create_request,
    created_outcome,
    outcome_of,
    send,
    send_create,
    wait_outcome,
)

from services.rules.batch import ReadJudge
from services.rules.config import READ_LANES
from services.rules.intake import stream_partition
from services.rules.service import RulesService
from services.store import EventStore
from services.store.keys import ORGANISER, PARTITIONS, partition


def game_in(parity: int, prefix: str) -> str:
    """A game id whose partition has this parity (so it is read by that lane of two)."""
    return next(g for i in itertools.count()
                if partition(g := f"{prefix}-{i}") % 2 == parity)


async def test_each_command_stream_is_read_by_exactly_one_lane(service: RulesService) -> None:
    service.pools.add("bot:random")
    every = service.command_streams()
    for lanes in (1, READ_LANES, 3, PARTITIONS):
        shares = [service.command_streams(lane, lanes) for lane in range(lanes)]
        assert sorted(itertools.chain(*shares)) == sorted(every), lanes
        for lane, share in enumerate(shares):
            # by partition: a partition's streams (so each of its games) in one lane
            assert all(stream_partition(s) % lanes == lane for s in share), (lane, lanes)


async def test_a_slow_read_in_one_lane_holds_up_no_game_of_the_other(
    rules_app: Any, store: EventStore, redis_client: Redis, monkeypatch: pytest.MonkeyPatch,
) -> None:
    held = asyncio.Event()  # while clear, reads of odd partitions wait in judging
    held.set()
    handle = ReadJudge.handle

    async def slow_for_odd(self: ReadJudge, reads: Sequence[tuple[str, Any]],
                           after: Any = None) -> Any:
        if any(stream_partition(stream) % 2 for stream, _ in reads):
            await held.wait()
        return await handle(self, reads, after)

    monkeypatch.setattr(ReadJudge, "handle", slow_for_odd)
    await rules_app(read_lanes=2)
    scripts = []
    for parity in (0, 1):
        req = create_request(game_in(parity, "g-lane"))
        await send_create(redis_client, req)
        await wait_outcome(store, req.command_id, req.game_id, scope=ORGANISER)
        scripts.append(Script.start(req, (await created_outcome(store, req) or {})["credentials"]))
    even, odd = (script.next()[0] for script in scripts)

    held.clear()
    await send(redis_client, odd)  # first: one reader would be stuck on it
    await send(redis_client, even)
    outcome = await wait_outcome(store, even.command_id, even.game_id, timeout=10,
                                 scope=even.scope)
    assert outcome["status"] == "accepted"
    assert await outcome_of(store, odd) is None  # still being judged in its lane

    held.set()
    outcome = await wait_outcome(store, odd.command_id, odd.game_id, timeout=10, scope=odd.scope)
    assert outcome["status"] == "accepted"
