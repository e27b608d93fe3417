"""Attack 3: one game wedging the rules service, and attack 4: command-id squatting.

A game whose seats have all forfeited used to be played out by default moves in one loop, with
no turn limit, while the service answered nobody else. Now every game has a turn limit (the
service's cap when it asks for none), forfeited seats' moves are played a few at a time and the
rest queued like passed deadlines, so other games' commands are answered in between.

Command ids are predictable (a pool's are `<pool>:<game>:<version>:<seat>`, the service's own
`deadline:<game>:<version>:<seat>`); outcomes are kept per sender scope and only for commands
that are signed, so nobody can occupy the id of another seat's next move.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from redis.asyncio import Redis
from service_helpers import (
    Script,
    Signed,
    create_request,
    created_outcome,
    dead_letters,
    log,
    outcome_of,
    pump,
    send,
    send_create,
    send_raw,
    wait_for,
    wait_outcome,
)

from events.codec import codec
from events.commands import RollDice
from events.events import GameFinished
from services.client import Client
from services.protocol import DATA
from services.rules.config import ServiceConfig
from services.rules.service import RulesService
from services.store import EventStore
from services.store.keys import partition

MAX_TURNS = 120


async def test_a_game_of_forfeited_seats_ends_and_never_holds_up_another(
    rules_app: Callable[..., Any], redis_client: Redis, store: EventStore
) -> None:
    """Game A: every seat forfeited, no turn limit asked for. While its default moves are
    played, game B's moves are answered one by one; A ends at the service's turn cap."""
    await rules_app(config=ServiceConfig(max_turns=MAX_TURNS, forfeit_burst=4))
    client = Client(redis_client)
    wedge = create_request("g-wedge", turn_limit=0)
    other = create_request("g-other", turn_limit=MAX_TURNS)
    wedge_creds = await client.create_game(wedge)
    script = Script.start(other, (await client.create_game(other)).seats)
    for seat in range(4):
        await client.forfeit("g-wedge", seat, wedge_creds.referee, "gone", command_id=f"f{seat}")

    answered_while_running = 0
    for _ in range(20):
        move, _ = script.next()
        await send(redis_client, move)
        outcome = await wait_outcome(store, move.command_id, "g-other", scope=move.scope)
        assert outcome["status"] == "accepted", outcome
        meta = await store.meta("g-wedge") or {}
        answered_while_running += meta.get("status") == "live"

    async def wedge_over() -> bool:
        return (await store.meta("g-wedge") or {}).get("status") == "finished"

    await wait_for(wedge_over, 60, "the forfeited game to end")
    events = await log(store, "g-wedge")
    final = events[-1].event
    assert isinstance(final, GameFinished)
    assert final.reason == "turn_limit"
    assert answered_while_running >= 5, "the other game waited for the forfeited one"


async def test_a_turn_limit_above_the_services_cap_is_refused(
    service: RulesService, redis_client: Redis, store: EventStore
) -> None:
    req = create_request("g-endless", turn_limit=10**9)
    await send_create(redis_client, req)
    await pump(service)
    outcome = await created_outcome(store, req) or {}
    assert outcome["rule_id"] == "service.create.invalid"
    assert "turn_limit" in outcome["message"]


async def started(service: RulesService, redis_client: Redis, game: str,
                  **extra: Any) -> Script:
    req = create_request(game, **extra)
    await send_create(redis_client, req)
    await pump(service)
    return Script.start(req, (await created_outcome(service.store, req) or {})["credentials"])


async def test_nobody_can_squat_the_id_of_a_seats_next_move(
    service: RulesService, redis_client: Redis, store: EventStore
) -> None:
    """Before seat 0 answers, the id its pool will use is sent by (a) nobody in particular,
    unsigned, and (b) seat 1, signed with its own key: neither touches seat 0's outcome."""
    script = await started(service, redis_client, "g-squat")
    good, _ = script.next("random:g-squat")
    await send_raw(redis_client, "g-squat", {DATA: codec().encode(good.plain())})
    squat = Signed(command_id=good.command_id, game_id="g-squat", credential=script.credentials[1],
                   expected_version=good.expected_version, command=RollDice(seat=1))
    await send(redis_client, squat)
    await pump(service)
    assert await outcome_of(store, good) is None  # the unsigned copy left nothing
    assert (await outcome_of(store, squat) or {})["rule_id"] == "base.turn.wrong_phase"
    await send(redis_client, good)
    await pump(service)
    assert (await outcome_of(store, good) or {})["status"] == "accepted"
    assert len(await dead_letters(redis_client, partition("g-squat"))) == 1


async def test_a_seat_cannot_squat_the_services_deadline_move(
    service: RulesService, redis_client: Redis, store: EventStore
) -> None:
    """A seat that sends a command under the id the deadline keeper will use for it only
    fills its own scope: when the deadline passes, the default move is still played."""
    script = await started(service, redis_client, "g-deadline-squat", deadline_ms=300)
    seat, credential = script.current()
    squat = Signed(command_id=f"deadline:g-deadline-squat:1:{seat}", game_id="g-deadline-squat",
                   credential=credential, expected_version=1, command=RollDice(seat=seat))
    await send(redis_client, squat)
    await pump(service)
    assert (await outcome_of(store, squat) or {})["rule_id"] == "base.turn.wrong_phase"
    await asyncio.sleep(0.4)
    assert await service.enforce_deadlines() == 1
    ids = [e.command_id for e in await log(store, "g-deadline-squat")]
    assert ids[1] == f"deadline:g-deadline-squat:1:{seat}"

