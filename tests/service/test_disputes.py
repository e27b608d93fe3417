"""Undo and contested rulings through the rules service (services/rules/disputes.py): an undo by
consent goes into the log and audits clean; an undo into the middle of a command or across a
die is refused; a contested rejection or acceptance is re-judged and `RulingReviewed` says
upheld or overturned with the rule; after an overturned (forged) acceptance the referee, and
only the referee, reverts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from service_helpers import (
    Script,
    create_game,
    create_request,
    created_outcome,
    dead_letters,
    envelope,
    log,
    outcome_of,
    pump,
    rulings,
    send,
)

from events.codec import codec
from events.commands import BuildSettlement, Command, EndTurn
from events.disputes import (
    REFEREE,
    ApproveUndo,
    ContestRuling,
    ProposeUndo,
    Reverted,
    RevertTo,
    RulingReviewed,
    UndoApproved,
    UndoProposed,
)
from events.envelope import EventEnvelope
from events.events import DiceRolled, GameCreated, ModuleSpec, ResourcesProduced, SettlementBuilt
from services.audit.audit import audit
from services.render.replay import Viewer, render
from services.rules.engine import RULES, RULES_VERSION
from services.rules.engine.state import MAIN, ROLL, State
from services.rules.record import load_record
from services.rules.service import RulesService
from services.store.keys import partition, seat_scope

UNDO = (ModuleSpec(name="undo", params={"policy": "consent"}),)


class Game:
    """A 3-seat game on the in-process service, with the reference script kept in step."""

    def __init__(self, service: RulesService, script: Script, referee: str) -> None:
        self.service = service
        self.script = script
        self.referee = referee
        self.n = 0

    @property
    def id(self) -> str:
        return self.script.state.game_id

    @property
    def state(self) -> State:
        return self.service.slots[self.id].state

    async def play_until(self, done: Callable[[State], bool], limit: int = 2000) -> None:
        for _ in range(limit):
            if done(self.script.state):
                return
            env, _ = self.script.next()
            await send(self.service.redis, env)
            await pump(self.service)
        raise AssertionError("the condition never held")

    async def command(self, cmd: Command, credential: str | None = None) -> dict[str, Any]:
        """Send `cmd` on the current version; its outcome (the script follows the service)."""
        self.n += 1
        cid = f"x{self.n}-{type(cmd).__name__}"
        cred = credential if credential is not None else (
            self.referee if cmd.seat == REFEREE else self.script.credentials[cmd.seat])
        version = await self.service.store.version(self.id)
        await send(self.service.redis, envelope(self.id, cid, cred, version, cmd))
        await pump(self.service)
        outcome = await self.service.store.get_outcome(cid, self.id, scope=seat_scope(cmd.seat))
        assert outcome is not None
        self.script.state = self.state.copy()
        return {"command_id": cid, **outcome}

    async def tail(self, n: int) -> list[Any]:
        return [e.event for e in (await log(self.service.store, self.id))[-n:]]


async def start(service: RulesService, game_id: str, modules: tuple[ModuleSpec, ...] = UNDO) -> Game:
    req = create_request(game_id, controllers=("human",) * 3, modules=modules)
    creds = await create_game(service, req)
    created = await created_outcome(service.store, req)
    assert created is not None
    assert created["referee"] not in creds
    return Game(service, Script.start(req, creds), created["referee"])


def game_state(state: State) -> dict[str, Any]:
    return {k: v for k, v in state.to_dict().items() if k not in ("version", "ext")}


async def test_an_undo_by_consent_goes_into_the_log_and_audits_clean(service: RulesService) -> None:
    g = await start(service, "g-undo")
    await g.play_until(lambda s: s.phase == ROLL and s.turn >= 3)  # a turn just ended
    to = g.state.version - 1  # before the TurnEnded
    undone = g.state.version
    proposer = g.state.current
    others = [s for s in range(3) if s != proposer]
    assert (await g.command(ProposeUndo(seat=proposer, to_version=to)))["status"] == "accepted"
    await g.command(ApproveUndo(seat=others[0]))
    await g.command(ApproveUndo(seat=others[1]))
    proposed, _, approved, reverted = await g.tail(4)
    assert proposed == UndoProposed(seat=proposer, to_version=to, needs=tuple(others))
    assert approved == UndoApproved(seat=others[1])
    assert reverted == Reverted(to_version=to, first=undone, last=undone, by=proposer)

    record = await load_record(service.store, g.id)
    assert game_state(g.state) == game_state(record.state_at(to))
    assert g.state.phase == MAIN
    assert g.state.current == record.state_at(to).current
    text = render(record, None, Viewer())
    assert any(line.startswith(f"v{undone} ") and line.endswith("[reverted]") for line in text.splitlines())
    report = audit(record, seed=bytes.fromhex(g.script.dealer.seed_hex()))
    assert report.exit_code == 0, report.to_dict()
    assert report.commands == len(record.batches) - 1

    # The game goes on from the restored state: the seat ends its turn again.
    assert (await g.command(EndTurn(seat=g.state.current)))["status"] == "accepted"


async def test_undo_into_a_command_or_across_the_dice_is_refused(service: RulesService) -> None:
    g = await start(service, "g-undo-refused")
    await g.play_until(lambda s: s.phase == MAIN and isinstance(g.script.events[-1], ResourcesProduced))
    roll = g.state.version - 1
    assert isinstance((await g.tail(2))[0], DiceRolled)
    seat = g.state.current
    mid = await g.command(ProposeUndo(seat=seat, to_version=roll))  # between the die and production
    across = await g.command(ProposeUndo(seat=seat, to_version=roll - 1))  # before the die
    assert (mid["status"], mid["rule_id"]) == ("rejected", "undo.target.invalid")
    assert (across["status"], across["rule_id"]) == ("rejected", "undo.target.chance")
    found = {r["command_id"]: r["rule_id"] for r in await rulings(service.redis, g.id)}
    assert found[mid["command_id"]] == "undo.target.invalid"


async def test_a_contested_rejection_is_upheld_with_its_rule(service: RulesService) -> None:
    g = await start(service, "g-contest-upheld", modules=())
    await g.play_until(lambda s: s.phase == ROLL and s.turn >= 2)
    seat = g.state.current
    refused = await g.command(EndTurn(seat=seat))
    assert refused["rule_id"] == "base.roll.required"
    claim = "I may end my turn without rolling"
    assert (await g.command(ContestRuling(seat=seat, command_id=refused["command_id"], claim=claim)))[
        "status"] == "accepted"
    (review,) = await g.tail(1)
    assert review == RulingReviewed(
        seat=seat, command_id=refused["command_id"], version=g.state.version - 1, kind="rejection",
        claim=claim, verdict="upheld", rule_id="base.roll.required",
        rule=RULES["base.roll.required"], message=review.message)
    again = await g.command(ContestRuling(seat=seat, command_id=refused["command_id"], claim=claim))
    assert again["rule_id"] == "contest.already"
    unknown = await g.command(ContestRuling(seat=seat, command_id="no-such-command", claim="?"))
    assert unknown["rule_id"] == "contest.unknown"


async def test_a_contested_acceptance_is_upheld(service: RulesService) -> None:
    g = await start(service, "g-contest-accepted", modules=())
    await g.play_until(lambda s: s.turn >= 1)
    first = next(b for b in (await load_record(service.store, g.id)).batches
                 if b.command is not None)  # seat 0's first settlement
    outcome = await g.command(ContestRuling(seat=1, command_id=first.command_id,
                                            claim="too close to mine", rule_id="base.build.distance"))
    assert outcome["status"] == "accepted"
    (review,) = await g.tail(1)
    assert (review.kind, review.verdict, review.rule_id) == ("acceptance", "upheld", "base.build.distance")
    assert review.version == first.first - 1


async def test_a_forged_rejection_is_overturned(service: RulesService) -> None:
    g = await start(service, "g-contest-overturned", modules=())
    await g.play_until(lambda s: s.phase == MAIN and s.turn >= 2)
    legal, _ = g.script.next()  # a legal move, never sent: a forged ruling says it was refused
    g.script.state = g.state.copy()
    await service.store.append_ruling(g.id, {
        "command_id": "forged-ruling", "seat": legal.command.seat, "version": g.state.version,
        "rule_id": "base.build.distance", "message": "too close",
        "command": codec().encode(legal.command), "expected_version": g.state.version})
    await g.command(ContestRuling(seat=legal.command.seat, command_id="forged-ruling", claim="that was legal"))
    (review,) = await g.tail(1)
    assert (review.kind, review.verdict, review.rule_id) == ("rejection", "overturned", "base.build.distance")
    assert review.rule == RULES["base.build.distance"]
    report = audit(await load_record(service.store, g.id), seed=bytes.fromhex(g.script.dealer.seed_hex()))
    assert [(d.kind, d.recorded) for d in report.divergences] == [("ruling", "base.build.distance")]


async def test_a_forged_acceptance_is_overturned_and_the_referee_reverts(service: RulesService) -> None:
    g = await start(service, "g-forged")
    await g.play_until(lambda s: s.phase == MAIN and s.turn >= 3)
    state = g.state
    seat = state.current
    own = next(iter(state.players[seat].settlements))
    near = state.board.topo.vertex_neighbours[own][0]  # breaks the distance rule
    v = state.version
    forged = SettlementBuilt(seat=seat, vertex=near, free=True)
    body = codec().encode(EventEnvelope(game_id=g.id, version=v + 1, at="2026-01-01T00:00:00+00:00",
                                        command_id="forged-cmd", event=forged,
                                        rules_version=RULES_VERSION))
    result = await service.store.append(g.id, v, "forged-cmd", [body],
                                        command=codec().encode(BuildSettlement(seat=seat, vertex=near)), scope="svc")
    assert result.accepted
    contest = await g.command(ContestRuling(seat=(seat + 1) % 3, command_id="forged-cmd",
                                            claim="next to their own settlement"))
    assert contest["status"] == "accepted"
    (review,) = await g.tail(1)
    assert (review.kind, review.verdict, review.rule_id) == ("acceptance", "overturned", "base.build.distance")

    # A seat's credential does not sign for the referee: set aside, no outcome, nothing logged.
    forged_revert = envelope(g.id, "not-referee", g.script.credentials[0],
                             await service.store.version(g.id), RevertTo(seat=REFEREE, to_version=v))
    await send(service.redis, forged_revert)
    await pump(service)
    assert await outcome_of(service.store, forged_revert) is None
    letters = await dead_letters(service.redis, partition(g.id))
    assert letters[-1][b"reason"].startswith(b"service.seat.credential")
    by_seat = await g.command(RevertTo(seat=seat, to_version=v))
    assert by_seat["rule_id"] == "undo.referee.only"
    assert (await g.command(RevertTo(seat=REFEREE, to_version=v)))["status"] == "accepted"
    (reverted,) = await g.tail(1)
    assert reverted == Reverted(to_version=v, first=v + 1, last=v + 2, by=REFEREE)
    assert g.state.vertex_owner[near] == -1
    assert near not in g.state.players[seat].settlements

    record = await load_record(service.store, g.id)
    assert isinstance(record.created, GameCreated)
    report = audit(record, seed=bytes.fromhex(g.script.dealer.seed_hex()))
    # The forged event stays in the log (reverted): the audit names it, and only it.
    assert [(d.version, d.kind, d.expected) for d in report.divergences] == [
        (v + 1, "rejected", "base.build.distance")]
