"""Undo as events (services/rules/engine/undo.py): a proposal, the answers the table's policy
asks for, and `Reverted`, which brings the state back to what it was. Never across a chance
outcome or revealed hidden information; never at a table without the undo rule."""

from __future__ import annotations

from typing import Any

from engine_helpers import S, corner

from events.commands import BuildRoad, BuyDevelopmentCard, EndTurn, MoveRobber, RollDice
from events.disputes import (
    REFEREE,
    ApproveUndo,
    ProposeUndo,
    RejectUndo,
    Reverted,
    RevertTo,
    UndoApproved,
    UndoProposed,
    UndoRejected,
)
from events.events import ModuleSpec
from services.rules.engine import evolve, pending, snapshot
from services.rules.engine.state import MAIN
from services.rules.engine.testing import Table
from services.rules.engine.undo import VOTE, referee_decide

CONSENT = (ModuleSpec(name="undo", params={"policy": "consent"}),)
REFEREE_POLICY = (ModuleSpec(name="undo", params={"policy": "referee"}),)


def table(modules: tuple[ModuleSpec, ...] = CONSENT, seats: int = 3) -> Table:
    """Seat 0 has rolled a 6 and holds the cards for two roads."""
    t = Table(seats=seats, modules=modules)
    t.script("dice", (2, 4))
    t.when(RollDice(seat=0))
    t.give(0, brick=2, lumber=2)
    return t


def road(t: Table) -> BuildRoad:
    return next(o for o in pending(t.state)[0].options if isinstance(o, BuildRoad))


def game_state(d: dict[str, Any]) -> dict[str, Any]:
    """Everything but the version counter and the undo journal."""
    return {k: v for k, v in d.items() if k not in ("version", "ext")}


def test_undo_by_consent_brings_the_state_back() -> None:
    t = table()
    v = t.state.version
    before = t.state.to_dict()
    t.when(road(t))
    assert t.when(ProposeUndo(seat=1, to_version=v)) == [UndoProposed(seat=1, to_version=v, needs=(0, 2))]
    assert t.state.phase == VOTE
    assert {p.seat for p in pending(t.state)} == {0, 2}
    t.rejects(EndTurn(seat=0), "undo.vote.open")
    t.when(ApproveUndo(seat=0))
    events = t.when(ApproveUndo(seat=2))
    assert events == [UndoApproved(seat=2), Reverted(to_version=v, first=v + 1, last=v + 1, by=1)]
    assert game_state(t.state.to_dict()) == game_state(before)
    assert t.state.phase == MAIN
    assert t.state.version == v + 5


def test_a_rejected_undo_changes_nothing_but_the_phase_back() -> None:
    t = table()
    v = t.state.version
    t.when(road(t))
    after_road = t.state.to_dict()
    t.when(ProposeUndo(seat=0, to_version=v))
    assert t.when(RejectUndo(seat=2)) == [UndoRejected(seat=2)]
    assert game_state(t.state.to_dict()) == game_state(after_road)
    t.rejects(ApproveUndo(seat=1), "undo.vote.none")


def test_only_the_seats_asked_answer_once() -> None:
    t = table()
    v = t.state.version
    t.when(road(t))
    t.when(ProposeUndo(seat=0, to_version=v))
    t.rejects(ApproveUndo(seat=0), "undo.vote.not_asked")  # the proposer is not asked
    t.when(ApproveUndo(seat=1))
    t.rejects(ApproveUndo(seat=1), "undo.vote.not_asked")


def test_undo_is_refused_across_a_die_roll() -> None:
    t = table()
    t.when(road(t))
    t.when(EndTurn(seat=0))
    before_roll = t.state.version
    t.script("dice", (3, 3))
    t.when(RollDice(seat=1))
    t.rejects(ProposeUndo(seat=1, to_version=before_roll), "undo.target.chance")
    t.rejects(ProposeUndo(seat=0, to_version=before_roll - 1), "undo.target.chance")


def test_undo_is_refused_across_a_steal() -> None:
    t = Table(seats=3, modules=CONSENT)
    t.place(1, corner(t, (1, 0), S))
    t.give(1, ore=2)
    t.script("dice", (3, 4))
    t.when(RollDice(seat=0))
    v = t.state.version  # the 7 is rolled; the robber must move
    events = t.when(MoveRobber(seat=0, hex=t.hex("(1,0)"), victim=1))
    assert [type(e).__name__ for e in events] == ["RobberMoved", "CardStolen"]
    t.rejects(ProposeUndo(seat=0, to_version=v), "undo.target.chance")


def test_undo_is_refused_across_a_bought_development_card() -> None:
    t = table()
    t.give(0, ore=1, wool=1, grain=1)
    v = t.state.version
    t.when(BuyDevelopmentCard(seat=0))  # hidden information: the buyer saw the card
    t.rejects(ProposeUndo(seat=0, to_version=v), "undo.target.chance")


def test_undo_back_to_the_present_or_a_reverted_version_is_refused() -> None:
    t = table()
    v = t.state.version
    t.when(road(t))
    t.rejects(ProposeUndo(seat=0, to_version=t.state.version), "undo.target.nothing")
    reverted = t.state.version
    t.when(ProposeUndo(seat=0, to_version=v))
    t.when(ApproveUndo(seat=1))
    t.when(ApproveUndo(seat=2))
    t.rejects(ProposeUndo(seat=0, to_version=reverted), "undo.target.invalid")
    t.rejects(ProposeUndo(seat=0, to_version=v + 2), "undo.target.invalid")  # inside the vote


def test_an_undo_after_an_undo_rebuilds_from_the_same_checkpoint() -> None:
    t = table()
    v = t.state.version
    t.when(road(t))
    middle = t.state.to_dict()
    m = t.state.version
    t.when(road(t))
    t.when(ProposeUndo(seat=0, to_version=m))
    t.when(ApproveUndo(seat=1))
    t.when(ApproveUndo(seat=2))
    assert game_state(t.state.to_dict()) == game_state(middle)
    t.when(ProposeUndo(seat=2, to_version=v))
    t.when(ApproveUndo(seat=0))
    t.when(ApproveUndo(seat=1))
    assert len(t.state.players[0].roads) == 2  # set-up roads only


def test_a_table_without_the_undo_rule_never_undoes() -> None:
    t = table(modules=())
    t.rejects(ProposeUndo(seat=0, to_version=1), "base.command.unknown")
    never = table(modules=(ModuleSpec(name="undo", params={"policy": "never"}),))
    never.rejects(ProposeUndo(seat=0, to_version=never.state.version - 1), "undo.policy.never")


def test_under_the_referee_policy_only_the_referee_decides() -> None:
    t = table(modules=REFEREE_POLICY)
    v = t.state.version
    t.when(road(t))
    assert t.when(ProposeUndo(seat=0, to_version=v))[0] == UndoProposed(seat=0, to_version=v, needs=())
    assert pending(t.state) == []  # nobody is prompted: the referee answers
    t.rejects(ApproveUndo(seat=1), "undo.vote.not_asked")
    events = referee_decide(t.state, ApproveUndo(seat=REFEREE), t.dealer)
    assert events[0] == UndoApproved(seat=REFEREE)
    assert isinstance(events[1], Reverted)


def test_only_the_referee_reverts_without_a_vote() -> None:
    t = table()
    v = t.state.version
    t.when(road(t))
    t.rejects(RevertTo(seat=1, to_version=v), "undo.referee.only")
    events = referee_decide(t.state, RevertTo(seat=REFEREE, to_version=v), t.dealer)
    assert events == [Reverted(to_version=v, first=v + 1, last=v + 1, by=REFEREE)]


def test_a_revert_folds_the_same_after_a_snapshot_at_any_point() -> None:
    """The checkpoint and journal survive a snapshot (as plain data): fold(snapshot + tail)
    equals the live state, wherever the snapshot is cut."""
    t = Table(seats=3, modules=CONSENT)
    t.give(0, brick=2, lumber=2)
    start, at = t.state.copy(), len(t.log)
    t.script("dice", (2, 4))
    t.when(RollDice(seat=0))
    v = t.state.version
    t.when(road(t))
    t.when(road(t))
    t.when(ProposeUndo(seat=0, to_version=v))
    t.when(ApproveUndo(seat=1))
    t.when(ApproveUndo(seat=2))
    events = t.log[at:]
    for cut in range(len(events) + 1):
        s = start.copy()
        for e in events[:cut]:
            evolve(s, e)
        loaded = snapshot.load(snapshot.dump(s), t.created)
        for e in events[cut:]:
            evolve(loaded, e)
        assert loaded.to_dict() == t.state.to_dict(), cut
