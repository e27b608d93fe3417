"""Decision deadlines: a seat whose controller never answers gets the ruleset's default move
when its deadline passes, recorded as such (command id `deadline:…`), and the game goes on."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from redis.asyncio import Redis
from service_helpers import (
    assert_gap_free,
    create_request,
    log,
    send_create,
    wait_for,
    wait_outcome,
)

from bots.local import next_prompt
from events.envelope import EventEnvelope
from events.events import GameCreated
from services.rules.engine import decide, evolve, initial_state, pending
from services.rules.engine.chance import SeededDealer
from services.store import EventStore
from services.store.keys import ORGANISER

DEADLINE_MS = 200
SILENT = 1  # seat 1's pool has no worker


def by_command(envelopes: list[EventEnvelope]) -> list[tuple[str, list[EventEnvelope]]]:
    groups: list[tuple[str, list[EventEnvelope]]] = []
    for env in envelopes:
        if groups and groups[-1][0] == env.command_id:
            groups[-1][1].append(env)
        else:
            groups.append((env.command_id, [env]))
    return groups


async def test_a_silent_seat_gets_its_default_move_and_the_game_goes_on(
    rules_app: Any, bot_workers: Any, store: EventStore, redis_client: Redis
) -> None:
    await rules_app()
    bot_workers(["random"])
    controllers = ["bot:random"] * 4
    controllers[SILENT] = "bot:nobody-serves-this"
    req = create_request("g-deadline", controllers=controllers, deadline_ms=DEADLINE_MS)
    await send_create(redis_client, req)
    await wait_outcome(store, req.command_id, req.game_id, scope=ORGANISER)

    async def past_setup() -> bool:  # setup is 16 placements; then a few turns
        return await store.version(req.game_id) >= 60

    await wait_for(past_setup, 30, "the game to pass version 60")
    envelopes = await log(store, req.game_id)
    await assert_gap_free(redis_client, req.game_id)
    created = envelopes[0].event
    assert isinstance(created, GameCreated)
    assert req.seed is not None
    state, dealer = initial_state(created), SeededDealer(bytes.fromhex(req.seed))

    silent_moves = 0
    answered_by_bots = {seat: 0 for seat in range(4) if seat != SILENT}
    previous_at = envelopes[0].at
    for command_id, group in by_command(envelopes[1:]):
        if command_id.startswith("deadline:"):
            _, game, version, seat = command_id.split(":")
            assert (game, int(version)) == (req.game_id, state.version)
            # The ruleset's default for that seat's prompt, and only once its deadline passed.
            # (A bot seat may get one too if its worker was slower than 200 ms: allowed.)
            prompt = next(p for p in pending(state) if p.seat == int(seat))
            assert prompt.seat == next_prompt(state, pending(state)).seat
            assert [e.event for e in group] == decide(state, prompt.default, dealer)
            waited = datetime.fromisoformat(group[0].at) - datetime.fromisoformat(previous_at)
            assert waited.total_seconds() >= DEADLINE_MS / 1000 - 0.01
            silent_moves += int(seat) == SILENT
        else:
            seat = int(command_id.rsplit(":", 1)[1])
            assert seat != SILENT, f"{command_id}: the silent seat never answers"
            assert next_prompt(state, pending(state)).seat == seat
            answered_by_bots[seat] += 1
        for env in group:
            evolve(state, env.event)
        previous_at = group[-1].at
    # Every time the silent seat had to act, the deadline acted for it: two settlements and two
    # roads in setup, then its turns.
    assert silent_moves >= 4
    assert all(n > 0 for n in answered_by_bots.values()), answered_by_bots
    assert state.turn >= 2  # the game went on past setup


async def test_a_game_nobody_serves_is_played_by_deadlines(
    rules_app: Any, store: EventStore, redis_client: Redis
) -> None:
    await rules_app()
    req = create_request("g-deadline-all", controllers=["bot:nobody"] * 4, deadline_ms=100)
    await send_create(redis_client, req)

    async def moved() -> bool:
        return await store.version(req.game_id) >= 12

    await wait_for(moved, 20, "default moves")
    envelopes = await log(store, req.game_id)
    assert all(e.command_id.startswith(f"deadline:{req.game_id}:") for e in envelopes[1:])
