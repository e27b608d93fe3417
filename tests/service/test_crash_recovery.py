"""Crash recovery with real processes: a `hexlog serve rules` worker SIGKILLs itself in the
middle of a command (the HEXLOG_FAULT test hook in services/rules/service.py), a second worker
claims what it left pending (XAUTOCLAIM after --claim-idle-ms), and every command ends up
applied exactly once, with nothing pending and a gap-free log."""

from __future__ import annotations

import signal
from typing import Any

import pytest
from redis.asyncio import Redis
from service_helpers import (
    Script,
    Worker,
    assert_gap_free,
    command_ids,
    create_game,
    create_request,
    log,
    outcome_of,
    pending_count,
    send,
    total_pending,
    wait_for,
    wait_no_pending,
    wait_outcome,
    wait_started,
)

from services.protocol import deadlines_key, prompts_key
from services.rules.service import RulesService
from services.store import EventStore
from services.store.keys import partition

pytestmark = pytest.mark.slow


async def wait_killed(worker: Worker, timeout: float = 30.0) -> None:
    async def dead() -> bool:
        return worker.proc.poll() is not None

    await wait_for(dead, timeout, "the faulty worker to die")
    assert worker.proc.returncode == -signal.SIGKILL, worker.output()


@pytest.mark.parametrize("fault", ["after_append", "before_append"])
async def test_worker_killed_mid_command_then_each_command_applies_once(
    fault: str, processes: Any, service: RulesService, store: EventStore, redis_client: Redis
) -> None:
    req = create_request(f"g-crash-{fault.replace('_', '-')}")
    game = req.game_id
    script = Script.start(req, await create_game(service, req))
    moves = script.moves(4)
    for env, _ in moves:
        await send(redis_client, env)

    first = processes("rules", HEXLOG_FAULT=fault)
    await wait_killed(first)
    # What the crash left: all four delivered to the dead worker and pending there, and the
    # first command's events in the log or not, depending on where it died.
    assert await pending_count(redis_client, partition(game)) == len(moves)
    first_cmd, first_events = moves[0]
    if fault == "after_append":
        assert await store.version(game) == 1 + len(first_events)
        assert (await outcome_of(store, first_cmd) or {})["status"] == "accepted"
    else:
        assert await store.version(game) == 1
        assert await outcome_of(store, first_cmd) is None

    second = processes("rules")
    await wait_started(redis_client, second)
    for env, _ in moves:
        outcome = await wait_outcome(store, env.command_id, game, scope=env.scope)
        assert outcome["status"] == "accepted", outcome
    await wait_no_pending(redis_client)

    envelopes = await log(store, game)
    assert command_ids(envelopes) == [req.command_id] + [env.command_id for env, _ in moves]
    assert [e.event for e in envelopes[1:]] == script.events
    assert await assert_gap_free(redis_client, game) == script.state.version
    assert second.proc.poll() is None


async def test_crash_between_append_and_prompt_does_not_stall_the_game(
    processes: Any, service: RulesService, store: EventStore, redis_client: Redis
) -> None:
    """The worker dies after appending the only command in flight, before asking the next
    seat. The worker that claims the command must ask that seat (and arm its deadline), or a
    bot game would wait for ever."""
    req = create_request("g-crash-prompt")
    game = req.game_id
    script = Script.start(req, await create_game(service, req))
    move, _ = script.next()
    await send(redis_client, move)
    first = processes("rules", HEXLOG_FAULT="after_append")
    await wait_killed(first)
    assert await store.version(game) == script.state.version

    second = processes("rules")
    await wait_started(redis_client, second)
    await wait_no_pending(redis_client)
    seat, _ = script.current()
    member = f"{game}|{script.state.version}|{seat}"

    async def prompted() -> bool:
        return await redis_client.zscore(deadlines_key(partition(game)), member) is not None

    await wait_for(prompted, 10, "the next seat's deadline")
    asked = [
        (int(f[b"version"]), int(f[b"seat"]))
        for _, f in await redis_client.xrange(prompts_key(partition(game), "human"))
    ]
    assert asked[-1] == (script.state.version, seat)
    assert await total_pending(redis_client) == 0
