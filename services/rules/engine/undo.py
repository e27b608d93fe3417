"""Table rule: undo, by consent of the other seats or by the referee (docs/design.md "Undo, audit,
contest"). Chosen like a variant: `ModuleSpec("undo", {"policy": "consent"})`; `referee` lets
only the referee approve; without the module (tournaments) a table never undoes.

    ProposeUndo(to_version) -> UndoProposed(needs)      the game pauses in phase `undo.vote`
    ApproveUndo / RejectUndo -> UndoApproved / UndoRejected; the last approval adds
    Reverted(to_version, first, last)                   the state is again the one at to_version
    RevertTo(to_version) by the referee -> Reverted     (after an overturned ruling, say)

Undo never crosses a chance outcome or revealed hidden information: an event type is undoable
only if the ruleset lists it in `rules.registry.reversible` (public, deterministic: building, trading,
playing a knight…). Every other event — a roll, a steal, a bought card, a monopoly (it shows
hands), the end of the game, and any module event its module did not declare — sets a *floor*
no undo goes below. Default-deny: a new module's events are safe before anyone thinks of undo.

How `Reverted` rebuilds in a pure fold. The state keeps, in `ext["undo"]`, a checkpoint (the
state's dump, taken lazily before the first undoable event after the floor) and the journal of
events since then (undo_state.py). `evolve(Reverted)` restores the checkpoint, refolds the
journal up to `to_version` and moves the result into the state it was given (evolve works in
place). So the log alone rebuilds any version, every fold site (service, replay, projections,
bots) needs no special case, and "the state at version v" is simply the fold of events 1..v.
The costs: one state dump per roll/steal (only in games with this rule; tournaments and the
benchmark never pay), and a journal no longer than the events since the last chance outcome. Rejected
alternatives: a fold driver that drops reverted events (every consumer of the log would have to
know), and a state snapshot inside `Reverted` (ties the log to the state's in-memory shape).

What the engine cannot see is where one command's events end: a proposal must name the end of a
command (not a version between a roll and its production). The rules service checks that with
the log (services/rules/disputes.py), and so does `hexlog audit`.
"""

from __future__ import annotations

from typing import Final, Literal

import msgspec

from events.commands import Command
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
from events.events import (
    CityBuilt,
    DiscardRequired,
    Event,
    GameCreated,
    KnightPlayed,
    LargestArmyChanged,
    LongestRoadChanged,
    MaritimeTraded,
    ResourcesDiscarded,
    ResourcesProduced,
    RoadBuildingPlayed,
    RoadBuilt,
    RobberMoved,
    SettlementBuilt,
    StartingResourcesTaken,
    TradeAnswered,
    TradeCancelled,
    TradeCompleted,
    TradeProposed,
    TurnEnded,
    YearOfPlentyPlayed,
)
from events.prompts import Prompt
from services.rules.engine import hook_keys as hk
from services.rules.engine.chance import Dealer
from services.rules.engine.modstate import StateKey, plain
from services.rules.engine.registry import Evolver
from services.rules.engine.restore import restore
from services.rules.engine.rules import register, reject
from services.rules.engine.ruleset import Module
from services.rules.engine.state import STATE_FIELDS, Rules, State
from services.rules.engine.undo_state import UndoLog, Vote

NAME = "undo"
VOTE = "undo.vote"

# Base events an undo may cross: public, and decided without chance.
BASE_REVERSIBLE: frozenset[type[Event]] = frozenset({
    SettlementBuilt, RoadBuilt, CityBuilt, StartingResourcesTaken, ResourcesProduced,
    DiscardRequired, ResourcesDiscarded, RobberMoved, TurnEnded, KnightPlayed,
    RoadBuildingPlayed, YearOfPlentyPlayed, LongestRoadChanged, LargestArmyChanged,
    MaritimeTraded, TradeProposed, TradeAnswered, TradeCompleted, TradeCancelled,
    UndoProposed, UndoApproved, UndoRejected,
})

register({
    "undo.policy.never": "This table does not take moves back.",
    "undo.vote.open": "While an undo proposal is open, only its answers are accepted.",
    "undo.vote.none": "There is no undo proposal to answer.",
    "undo.vote.not_asked": "An undo proposal is answered once by each seat the table's policy names (or by the referee).",
    "undo.target.nothing": "An undo goes back to an earlier version of the game.",
    "undo.target.chance": "Undo never crosses a chance outcome or revealed hidden information (a roll, a steal, a bought card, a monopoly).",
    "undo.target.invalid": "An undo returns to the state after a whole command, not one already reverted or inside a vote.",
    "undo.referee.only": "Only the referee reverts the game without a vote.",
})


class UndoParams(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    policy: Literal["never", "consent", "referee"] = "consent"


UNDO: Final = StateKey(NAME, UndoLog)  # the table rule's state (modstate.py)


def undo_log(state: State) -> UndoLog:
    return UNDO.of(state)


def targets(log: UndoLog) -> set[int]:
    return {v for v, _, ok in log.journal if ok}


# --- deciding -------------------------------------------------------------------------------


def check_target(state: State, log: UndoLog, to: int) -> None:
    if log.policy == "never" or not log.active:
        raise reject("undo.policy.never", "this table does not take moves back")
    if to >= state.version:
        raise reject("undo.target.nothing", f"the game is at version {state.version}")
    if to < log.floor:
        raise reject("undo.target.chance",
                     f"version {log.floor} is the earliest an undo may return to")
    if to != log.floor and to not in targets(log):
        raise reject("undo.target.invalid", f"version {to} is not a state an undo can return to")


def propose(state: State, cmd: ProposeUndo, dealer: Dealer) -> list[Event]:
    log = undo_log(state)
    check_target(state, log, cmd.to_version)
    needs = () if log.policy == "referee" else tuple(s for s in range(state.n) if s != cmd.seat)
    return [UndoProposed(seat=cmd.seat, to_version=cmd.to_version, needs=needs)]


def _voter(state: State, seat: int) -> Vote:
    vote = undo_log(state).vote
    assert vote is not None  # the phase is VOTE
    if seat != REFEREE and (seat not in vote.needs or seat in vote.approved):
        raise reject("undo.vote.not_asked", f"seat {seat} does not answer this proposal")
    return vote


def approve(state: State, cmd: ApproveUndo, dealer: Dealer) -> list[Event]:
    vote = _voter(state, cmd.seat)
    events: list[Event] = [UndoApproved(seat=cmd.seat)]
    if cmd.seat == REFEREE or set(vote.needs) <= vote.approved | {cmd.seat}:
        events.append(Reverted(to_version=vote.to_version, first=vote.to_version + 1,
                               last=vote.at - 1, by=vote.proposer))
    return events


def refuse(state: State, cmd: RejectUndo, dealer: Dealer) -> list[Event]:
    _voter(state, cmd.seat)
    return [UndoRejected(seat=cmd.seat)]


def revert_by_seat(state: State, cmd: RevertTo, dealer: Dealer) -> list[Event]:
    raise reject("undo.referee.only", "seats propose an undo; only the referee reverts")


def referee_decide(state: State, cmd: Command, dealer: Dealer) -> list[Event]:
    """The referee's commands (seat REFEREE): answer a proposal, or revert without one."""
    if state.finished:
        raise reject("base.game.over", "the game is over")
    log: UndoLog | None = state.ext.get(NAME)
    if log is None or not isinstance(cmd, (ApproveUndo, RejectUndo, RevertTo)):
        raise reject("base.command.unknown",
                     f"the referee cannot give {type(cmd).__name__} at this table")
    if isinstance(cmd, RevertTo):
        if log.vote is not None:
            raise reject("undo.vote.open", "answer the open undo proposal first")
        check_target(state, log, cmd.to_version)
        return [Reverted(to_version=cmd.to_version, first=cmd.to_version + 1,
                         last=state.version, by=REFEREE)]
    if log.vote is None:
        raise reject("undo.vote.none", "there is no undo proposal to answer")
    return approve(state, cmd, dealer) if isinstance(cmd, ApproveUndo) else refuse(state, cmd, dealer)


def prompt_vote(state: State) -> list[Prompt]:
    vote = undo_log(state).vote
    assert vote is not None
    return [
        Prompt(seat=s, stage=VOTE, options=[ApproveUndo(seat=s), RejectUndo(seat=s)],
               default=RejectUndo(seat=s))  # silence is no consent
        for s in vote.needs if s not in vote.approved
    ]


def refusal(state: State, cmd: Command) -> str | None:
    if state.phase == VOTE:
        return "undo.vote.open"
    if isinstance(cmd, (ApproveUndo, RejectUndo)):
        return "undo.vote.none"
    return None


# --- folding --------------------------------------------------------------------------------


def evolve_proposed(state: State, e: UndoProposed) -> None:
    undo_log(state).vote = Vote(proposer=e.seat, to_version=e.to_version, needs=e.needs,
                                resume=state.phase, at=state.version + 1)
    state.phase = VOTE


def evolve_approved(state: State, e: UndoApproved) -> None:
    vote = undo_log(state).vote
    if vote is not None:
        vote.approved.add(e.seat)


def evolve_rejected(state: State, e: UndoRejected) -> None:
    log = undo_log(state)
    if log.vote is not None:
        state.phase = log.vote.resume
    log.vote = None


def checkpoint(state: State, log: UndoLog) -> str:
    """The state as a revert rebuilds it: its `to_dict` form as JSON text, its own undo log
    inert. Taken once per chance outcome, so encoded by msgspec in one pass (module states
    that are Structs as they are), sets in their own order: sorting them all would cost as
    much again, and the text is only ever read back."""
    keys = state.rules.states.keys
    ext: dict[str, object] = {
        k: v if isinstance(v, msgspec.Struct) else keys[k].dump(v) for k, v in state.ext.items()
    }
    ext[NAME] = UndoLog(log.policy, False, log.floor)
    data = state.fields_dict()
    data["ext"] = ext
    return msgspec.json.encode(data).decode()


def journaled(fn: Evolver[State]) -> Evolver[State]:
    def evolve_undoable(state: State, e: Event) -> None:
        log = undo_log(state)
        if log.active and log.base is None:
            log.base = checkpoint(state, log)
        fn(state, e)
        if log.active:
            log.journal.append((state.version + 1, _text(e), log.vote is None))

    return evolve_undoable


def floor_raising(fn: Evolver[State]) -> Evolver[State]:
    def evolve_final(state: State, e: Event) -> None:
        fn(state, e)
        log = undo_log(state)
        if log.active:
            log.floor = state.version + 1
            log.base = None
            log.journal = []

    return evolve_final


def _text(e: Event) -> str:
    return msgspec.json.encode(e).decode()


def rebuild(state: State, log: UndoLog, to: int) -> State:
    """The state at version `to`: the checkpoint plus the journal up to `to`."""
    from events.codec import codec  # the event union: every wire module, loaded once

    assert log.base is not None
    s = restore(state.copy(), msgspec.json.decode(log.base))
    evolvers = s.rules.registry.evolvers
    decode = codec().decode_event
    for v, text, _ in log.journal:
        if v > to:
            break
        e = decode(text)
        if not isinstance(e, Reverted):  # an earlier revert: its result is this very prefix
            s.version = v - 1
            evolvers[type(e)](s, e)
        s.version = v
    return s


def evolve_reverted(state: State, e: Reverted) -> None:
    log = undo_log(state)
    version = state.version
    rebuilt = rebuild(state, log, e.to_version)
    for name in STATE_FIELDS:
        if name not in ("rules", "board"):
            setattr(state, name, getattr(rebuilt, name))
    log.journal = [j for j in log.journal if j[0] <= e.to_version]
    log.journal.append((version + 1, _text(e), True))
    log.vote = None
    state.ext[NAME] = log
    state.version = version  # evolve counts this event


def view_undo(state: State, seat: int | None) -> dict[str, object]:
    log = undo_log(state)
    return {"policy": log.policy, "floor": log.floor,
            "vote": plain(log.vote)}


# --- the module -----------------------------------------------------------------------------


class Undo(Module[State, UndoParams]):
    name = NAME
    kind = "table"
    title = "Undo"
    doc = "table.md"
    description = "players take moves back (policy=consent: the other seats approve; referee: the referee does; never)"
    Params = UndoParams
    stages = {VOTE: "an undo proposal this seat must approve or reject (silence rejects)"}

    def install(self, rules: Rules, params: UndoParams) -> None:
        policy = params.policy

        def init(state: State, created: GameCreated) -> UndoLog:
            return UndoLog(policy, policy != "never")

        rules.module_state(UNDO, init, view=view_undo)
        rules.handle(ProposeUndo, propose)
        rules.handle(ApproveUndo, approve)
        rules.handle(RejectUndo, refuse)
        rules.handle(RevertTo, revert_by_seat)
        for phase in set(rules.registry.phase_commands) | set(rules.registry.prompters):
            rules.allow(phase, ProposeUndo, RevertTo)
        rules.allow(VOTE, ApproveUndo, RejectUndo)
        rules.prompt(VOTE, prompt_vote)
        rules.add_hook(hk.PHASE_REFUSAL, refusal, first=True)
        rules.reversible_events(*BASE_REVERSIBLE)
        rules.evolve_with(UndoProposed, evolve_proposed)
        rules.evolve_with(UndoApproved, evolve_approved)
        rules.evolve_with(UndoRejected, evolve_rejected)
        for t in list(rules.registry.evolvers):
            rules.wrap_evolver(t, journaled if t in rules.registry.reversible else floor_raising)
        rules.evolve_with(Reverted, evolve_reverted)


MODULE = Undo()
