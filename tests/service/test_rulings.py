"""Every rejection of an authenticated command for a game is recorded on the game's rulings
stream, with the rule id it applied, the seat, the version it was judged at and the command
itself; accepted commands leave no ruling, and neither does a command that is not signed by its
seat (that one only reaches the dead-letter stream: nobody can write into a game's record)."""

from __future__ import annotations

from redis.asyncio import Redis
from service_helpers import (
    Script,
    Signed,
    create_game,
    create_request,
    dead_letters,
    envelope,
    outcome_of,
    pump,
    rulings,
    send,
)

from events.codec import codec
from events.commands import Command, PlaceSettlement, RollDice
from services.rules.service import RulesService
from services.store import EventStore
from services.store.keys import partition


async def test_rejections_are_on_the_rulings_stream_with_their_rule_id(
    service: RulesService, store: EventStore, redis_client: Redis
) -> None:
    req = create_request("g-rulings")
    game = req.game_id
    script = Script.start(req, await create_game(service, req))
    (settle, _), (road, _) = script.moves(2)  # seat 0's first settlement and road
    assert isinstance(settle.command, PlaceSettlement)
    taken = settle.command.vertex
    creds = script.credentials

    def cmd(cid: str, seat: int, credential: str, version: int, command: Command) -> Signed:
        return envelope(game, cid, credential, version, command)

    v1 = 1
    v3 = script.state.version  # seat 1 to place its first settlement
    forged = cmd("r-cred", 0, "nope", v1, settle.command)
    await send(redis_client, forged)
    bad = [
        (cmd("r-turn", 1, creds[1], v1, PlaceSettlement(seat=1, vertex=taken + 1)),
         "base.turn.not_your_turn", v1),
        (cmd("r-phase", 0, creds[0], v1, RollDice(seat=0)), "base.turn.wrong_phase", v1),
    ]
    for env, _, _ in bad:
        await send(redis_client, env)
    await send(redis_client, settle)
    await send(redis_client, road)
    late = [
        (cmd("r-stale", 1, creds[1], v1, PlaceSettlement(seat=1, vertex=taken)), "service.stale",
         v3),
        (cmd("r-taken", 1, creds[1], v3, PlaceSettlement(seat=1, vertex=taken)),
         "base.build.occupied", v3),
    ]
    for env, _, _ in late:
        await send(redis_client, env)
    await pump(service)

    found = await rulings(redis_client, game)
    expected = bad + late
    assert [r["command_id"] for r in found] == [env.command_id for env, _, _ in expected]
    for ruling, (env, rule_id, version) in zip(found, expected, strict=True):
        assert ruling["rule_id"] == rule_id
        assert ruling["message"]
        assert int(ruling["seat"]) == env.command.seat
        assert int(ruling["version"]) == version
        assert codec().decode_command(ruling["command"]) == env.command
        outcome = await outcome_of(store, env)
        assert outcome is not None
        assert outcome["rule_id"] == rule_id
    for accepted in (settle, road):
        assert (await outcome_of(store, accepted) or {})["status"] == "accepted"
    assert await outcome_of(store, forged) is None
    letters = await dead_letters(redis_client, partition(game))
    assert [letter[b"reason"].split(b":")[0] for letter in letters] == [b"service.seat.credential"]
