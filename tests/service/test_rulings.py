"""Every rejection of a command for a game is recorded on the game's rulings stream, with the
rule id it applied, the seat, the version it was judged at and the command itself; accepted
commands leave no ruling."""

from __future__ import annotations

from redis.asyncio import Redis
from service_helpers import Script, create_game, create_request, pump, rulings, send

from events.codec import codec
from events.commands import PlaceSettlement, RollDice
from events.envelope import CommandEnvelope
from services.rules.service import RulesService
from services.store import EventStore


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

    def cmd(cid: str, seat: int, credential: str, version: int, command: object) -> CommandEnvelope:
        return CommandEnvelope(command_id=cid, game_id=game, credential=credential,
                               expected_version=version, command=command)  # type: ignore[arg-type]

    v1 = 1
    v3 = script.state.version  # seat 1 to place its first settlement
    bad = [
        (cmd("r-cred", 0, "nope", v1, settle.command), "service.seat.credential", v1),
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
        outcome = await store.get_outcome(env.command_id, game)
        assert outcome is not None
        assert outcome["rule_id"] == rule_id
    for accepted in (settle, road):
        assert (await store.get_outcome(accepted.command_id, game) or {})["status"] == "accepted"
