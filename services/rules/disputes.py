"""Judging what needs the game's record: undo targets, contested rulings, the referee
(docs/design.md "Undo, audit, contest"). Called from `RulesService.judge`; `hexlog audit` re-runs
the same functions on an archive, so a dispute is settled the same way on both sides.

Pure: the caller loads the record (`record.load_record`) as it stands when the command is
judged. The engine decides the undo itself (services/rules/engine/undo.py); what it cannot see
is where one command's events end, so a proposal's `to_version` is checked here.

A contest re-judges one ruling on the state at the version it was made:
* a rejection (rulings stream): the rules are run again on the command; still refused → upheld
  (with the rule that refuses it now), accepted → overturned (the rule that was misapplied);
* an accepted command: run again; the same events → upheld (with the rule the seat named, or
  `contest.accepted`), refused → overturned by the rule that refuses it, other events →
  overturned (`contest.diverged`). A referee may then revert (`RevertTo`).
Service rulings are checked as far as the record allows: a stale version is recomputed from the
recorded `expected_version`; a credential was never recorded, so that ruling stands.
"""

from __future__ import annotations

from collections.abc import Sequence

from events.commands import Command
from events.disputes import (
    MAX_CLAIM,
    REFEREE,
    ContestRuling,
    ProposeUndo,
    RevertTo,
    RulingKind,
    RulingReviewed,
    Verdict,
)
from events.events import Event
from services.rules.engine import decide
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import RULES, Rejected, register, reject
from services.rules.engine.state import State
from services.rules.engine.undo import referee_decide
from services.rules.record import Batch, GameRecord, Ruling

MAX_CONTESTS = 5

register({
    "contest.unknown": "A contest names a command of this game that was rejected or accepted.",
    "contest.claim": f"A contest states its claim in 1 to {MAX_CLAIM} characters and names only known rules.",
    "contest.already": "A seat contests a ruling once.",
    "contest.limit": f"A seat contests at most {MAX_CONTESTS} rulings per game.",
    "contest.accepted": "A command the rules accept on the state it was decided on, with the events they give, stands.",
    "contest.diverged": "A command whose recorded events differ from what the rules give on its state is overturned.",
})


def needs_record(command: Command) -> bool:
    return command.seat == REFEREE or isinstance(command, (ProposeUndo, RevertTo, ContestRuling))


def judge(state: State, command: Command, dealer: Dealer, record: GameRecord) -> list[Event]:
    """The events `command` causes on `state` (the state at `record.version`), or Rejected."""
    if command.seat == REFEREE:
        events = referee_decide(state, command, dealer)
    elif isinstance(command, ContestRuling):
        return [review(state, command, dealer, record)]
    else:
        events = decide(state, command, dealer)
    if isinstance(command, (ProposeUndo, RevertTo)) and not record.ends_command(command.to_version):
        raise reject("undo.target.invalid",
                     f"version {command.to_version} is inside a command's events; name its last one")
    return events


# --- contests -------------------------------------------------------------------------------


def review(state: State, cmd: ContestRuling, dealer: Dealer, record: GameRecord) -> RulingReviewed:
    if state.finished:
        raise reject("base.game.over", "the game is over")
    if not 0 <= cmd.seat < state.n:
        raise reject("base.seat.unknown", f"there is no seat {cmd.seat} in this game")
    if not cmd.claim.strip() or len(cmd.claim) > MAX_CLAIM or (cmd.rule_id and cmd.rule_id not in RULES):
        raise reject("contest.claim", "state the claim in a few words and name a known rule id")
    earlier = [r.event for r in record.events if isinstance(r.event, RulingReviewed)]
    if any(e.seat == cmd.seat and e.command_id == cmd.command_id for e in earlier):
        raise reject("contest.already", f"you contested {cmd.command_id} already")
    if sum(e.seat == cmd.seat for e in earlier) >= MAX_CONTESTS:
        raise reject("contest.limit", f"you contested {MAX_CONTESTS} rulings already")
    ruling = record.ruling(cmd.command_id)
    if ruling is not None and ruling.command is not None:
        kind: RulingKind = "rejection"
        version = ruling.version
        verdict, rule_id, message = review_rejection(ruling, record, dealer)
    else:
        batch = record.batch(cmd.command_id)
        if batch is None or batch.command is None:
            raise reject("contest.unknown", f"no ruling on a command {cmd.command_id!r} to review")
        kind, version = "acceptance", batch.first - 1
        verdict, rule_id, message = review_acceptance(batch, cmd.rule_id, record, dealer)
    return RulingReviewed(seat=cmd.seat, command_id=cmd.command_id, version=version, kind=kind,
                          claim=cmd.claim, verdict=verdict, rule_id=rule_id,
                          rule=RULES.get(rule_id, ""), message=message)


def review_rejection(ruling: Ruling, record: GameRecord, dealer: Dealer) -> tuple[Verdict, str, str]:
    assert ruling.command is not None
    v = ruling.version
    if ruling.rule_id == "service.stale" and ruling.expected_version is not None:
        if ruling.expected_version == v:
            return "overturned", ruling.rule_id, f"the command was sent for version {v}, the game's version"
        return "upheld", ruling.rule_id, f"sent for version {ruling.expected_version}; the game was at {v}"
    if ruling.rule_id.startswith("service."):
        return "upheld", ruling.rule_id, "a service ruling (credential, version) stands as recorded"
    try:
        judge(record.state_at(v), ruling.command, dealer, record.upto(v))
    except Rejected as r:
        if r.rule_id == ruling.rule_id:
            return "upheld", r.rule_id, r.message
        return "upheld", r.rule_id, f"refused by {r.rule_id} (recorded: {ruling.rule_id}): {r.message}"
    return "overturned", ruling.rule_id, f"the rules accept this command at version {v}"


def review_acceptance(batch: Batch, claimed: str, record: GameRecord,
                      dealer: Dealer) -> tuple[Verdict, str, str]:
    assert batch.command is not None
    before = batch.first - 1
    try:
        given = judge(record.state_at(before), batch.command, dealer, record.upto(before))
    except Rejected as r:
        return "overturned", r.rule_id, f"at version {before}: {r.message}"
    if tuple(given) != batch.events:
        return "overturned", "contest.diverged", first_difference(batch.events, given)
    rule_id = claimed or "contest.accepted"
    return "upheld", rule_id, f"the rules give these events at version {before}"


def first_difference(recorded: Sequence[Event], given: Sequence[Event]) -> str:
    """Where two event lists part, field by field ("DiceRolled.d1: recorded 6, the rules give 3")."""
    for i, (a, b) in enumerate(zip(recorded, given, strict=False)):
        if a != b:
            return f"event {i + 1} of the command: " + field_difference(a, b)
    return f"the command gives {len(given)} events; {len(recorded)} are recorded"


def field_difference(a: object, b: object) -> str:
    if type(a) is not type(b) or not hasattr(a, "__struct_fields__"):
        return f"{type(a).__name__} recorded, the rules give {type(b).__name__}"
    names = [f for f in a.__struct_fields__ if getattr(a, f) != getattr(b, f)]
    return ", ".join(f"{type(a).__name__}.{n}: recorded {getattr(a, n)!r}, the rules give {getattr(b, n)!r}"
                     for n in names[:3])
