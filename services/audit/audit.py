"""`hexlog audit`: check a game's record against the rules and the seed (docs/design.md "Undo,
audit, contest").

From the first event on, the audit
1. checks the log holds together: versions 1..N without a gap, one game, the envelope versions;
2. checks the seed revealed in `GameFinished` against the commitment in `GameCreated`, and
   re-derives `GameCreated` (layout, harbors, module set-up) from that seed;
3. re-runs every recorded command through the rules (`decide`, or services/rules/disputes.py
   for undo targets, contests and the referee) on the state folded so far, with a dealer drawn
   from the seed, and compares the events with the recorded ones — so every die, steal and card
   is checked against the seed;
4. re-judges every recorded rejection on the state at its version: same rule id, or divergence;
5. folds every recorded event (a fold must never fail).
Each divergence names the version, the command, what was recorded and what the rules give.
The record is always folded as recorded, so one tampered event does not hide the next.

Without the seed (a live game, no referee credential) the commands that draw chance cannot be
re-run: they are counted as skipped and the audit is *incomplete* (exit 3), never "ok".
The engine judges with its own rules version; a log pinned to another version is noted.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import msgspec

from events.codec import codec
from events.commands import Command
from events.events import Event, GameCreated, GameFinished, SeatForfeited
from services.rules import disputes
from services.rules.engine import RULES_VERSION, Rejected, evolve, initial_state, new_game, snapshot
from services.rules.engine.chance import Dealer, SeededDealer
from services.rules.engine.state import State
from services.rules.engine.undo import BASE_REVERSIBLE as DETERMINISTIC
from services.rules.record import Batch, GameRecord, Ruling

T = TypeVar("T")

# Events the rules service writes without a command (an organiser's forfeit): folded, not re-run.
SERVICE_EVENTS: frozenset[type[Event]] = frozenset({SeatForfeited})


class ChanceNeeded(Exception):
    """The command draws chance and the audit has no seed."""


class CountingDealer:
    """The game's dealer (or none, without the seed), counting the outcomes it gives."""

    def __init__(self, seed: bytes | None) -> None:
        self.inner = SeededDealer(seed) if seed else None
        self.picks = 0

    def pick(self, key: str, outcomes: Sequence[T], weights: Sequence[int]) -> T:
        if self.inner is None:
            raise ChanceNeeded(key)
        self.picks += 1
        return self.inner.pick(key, outcomes, weights)

    def seed_hex(self) -> str:
        return self.inner.seed_hex() if self.inner is not None else ""


@dataclass
class Divergence:
    version: int
    kind: str  # structure commitment created events chance rejected missing_command ruling state fold
    message: str
    command: str = ""
    recorded: str = ""
    expected: str = ""  # what the rules give

    def to_dict(self) -> dict[str, Any]:
        return {"version": self.version, "kind": self.kind, "message": self.message,
                "command": self.command, "recorded": self.recorded, "rules_give": self.expected}


@dataclass
class AuditReport:
    game_id: str
    events: int = 0
    finished: bool = False
    seed: str = "none"  # "revealed" | "referee" | "none"
    commands: int = 0  # re-run and identical
    translated: int = 0  # of those, stored in a retired shape: the same state, other events
    chance: int = 0  # chance outcomes re-drawn from the seed
    rulings: int = 0  # rejections re-judged and identical
    skipped: list[str] = field(default_factory=list)  # checks impossible without the seed
    notes: list[str] = field(default_factory=list)
    divergences: list[Divergence] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        if self.divergences:
            return 1
        return 3 if self.skipped else 0

    def diverge(self, version: int, kind: str, message: str, **detail: str) -> None:
        self.divergences.append(Divergence(version, kind, message, **detail))

    def to_dict(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "ok": self.exit_code == 0, "exit_code": self.exit_code,
                "events": self.events, "finished": self.finished, "seed": self.seed,
                "commands_checked": self.commands, "commands_translated": self.translated,
                "chance_outcomes_checked": self.chance,
                "rulings_checked": self.rulings, "skipped": self.skipped, "notes": self.notes,
                "divergences": [d.to_dict() for d in self.divergences]}


def _json(obj: object) -> str:
    return codec().encode(obj).decode()


def audit(record: GameRecord, seed: bytes | None = None) -> AuditReport:
    """Audit `record`; `seed` is the referee's (the revealed one is found in the log)."""
    report = AuditReport(record.game_id, events=record.version)
    if not check_structure(record, report):
        return report
    created = record.created
    seed = check_seed(record, created, seed, report)
    if seed is not None:
        check_created(created, seed, report)
    else:
        report.skipped.append("the layout (GameCreated) is drawn from the seed, which is not revealed")
    try:
        state = initial_state(created)
    except Exception as exc:  # a log whose first event cannot start a game
        report.diverge(1, "fold", f"GameCreated does not fold: {exc!r}")
        return report
    rulings = _by_version(record.rulings)
    dealer = CountingDealer(seed)
    check_rulings(record, state, rulings.get(1, []), dealer, report)
    for batch in record.batches[1:]:
        check_batch(record, state, batch, dealer, report)
        for e in batch.events:
            try:
                evolve(state, e)
            except Exception as exc:
                report.diverge(state.version + 1, "fold", f"{type(e).__name__} does not fold: {exc!r}",
                               recorded=_json(e))
                return report
        check_rulings(record, state, rulings.get(batch.last, []), dealer, report)
    report.chance = dealer.picks
    ends = {b.last for b in record.batches}
    for r in record.rulings:
        if r.version not in ends:
            report.diverge(r.version, "ruling",
                           f"a ruling on {r.command_id} at version {r.version}, where no command ended")
    if report.translated:
        report.notes.append(f"{report.translated} command(s) stored in shapes since retired: the "
                            "rules record their effect in other events now; checked by the state "
                            "they leave")
    versions = {r.envelope.rules_version for r in record.events} - {RULES_VERSION, ""}
    if versions:
        report.notes.append(f"the log was judged under rules {', '.join(sorted(versions))}; "
                            f"audited under {RULES_VERSION}")
    return report


def check_structure(record: GameRecord, report: AuditReport) -> bool:
    if not record.events:
        report.diverge(0, "structure", "the log is empty")
        return False
    for i, r in enumerate(record.events, 1):
        if r.version != i:
            what = "missing" if r.version > i else "out of order or duplicated"
            report.diverge(i, "structure", f"event {i} is {what}: the next entry is version {r.version}")
            return False
        if r.envelope.game_id != record.game_id:
            report.diverge(i, "structure", f"event {i} belongs to game {r.envelope.game_id!r}")
            return False
    if not isinstance(record.events[0].event, GameCreated):
        report.diverge(1, "structure", "the log does not start with GameCreated")
        return False
    for r in record.events[:-1]:
        if isinstance(r.event, GameFinished):
            report.diverge(r.version, "structure", "events follow GameFinished")
    return True


def check_seed(record: GameRecord, created: GameCreated, seed: bytes | None,
               report: AuditReport) -> bytes | None:
    last = record.events[-1].event
    report.finished = isinstance(last, GameFinished)
    if isinstance(last, GameFinished):
        try:
            revealed = bytes.fromhex(last.seed)
        except ValueError:
            report.diverge(record.version, "commitment", f"the revealed seed {last.seed!r} is not hex")
            return None
        if seed is not None and seed != revealed:
            report.notes.append("the referee's seed differs from the revealed one; auditing the revealed seed")
        seed, report.seed = revealed, "revealed"
    elif seed is not None:
        report.seed = "referee"
    if seed is not None and hashlib.sha256(seed).hexdigest() != created.seed_sha256:
        report.diverge(record.version if report.seed == "revealed" else 1, "commitment",
                       "sha256 of the seed is not the commitment in GameCreated",
                       recorded=created.seed_sha256, expected=hashlib.sha256(seed).hexdigest())
    return seed


def check_created(created: GameCreated, seed: bytes, report: AuditReport) -> None:
    """The creation event must be what `new_game` gives for this seed and its own parameters
    (the variable layout, or the fixed beginner one)."""
    again: GameCreated | None = None
    for beginner in (False, True):
        try:
            again = new_game(created.game_id, created.seats, seed, modules=created.modules,
                             names=created.names, ruleset=created.ruleset, beginner=beginner,
                             turn_limit=created.turn_limit)
        except Exception as exc:
            report.diverge(1, "created", f"GameCreated cannot be re-created: {exc!r}")
            return
        if again == created:
            return
    report.diverge(1, "created", "GameCreated is not what the seed gives: " + disputes.field_difference(created, again),
                   recorded=_json(created), expected=_json(again))


def check_batch(record: GameRecord, state: State, batch: Batch, dealer: CountingDealer,
                report: AuditReport) -> None:
    first, command = batch.first, batch.command
    if command is None:
        if all(type(e) in SERVICE_EVENTS for e in batch.events):
            return
        report.diverge(first, "missing_command", f"events {first}..{batch.last} have no recorded command",
                       recorded=_json(list(batch.events)))
        return
    picks = dealer.picks
    try:
        given = _judge(record, state, command, dealer, first - 1)
    except ChanceNeeded:
        report.skipped.append(f"v{first} {type(command).__name__}: draws chance, the seed is not revealed")
        return
    except Rejected as r:
        report.diverge(first, "rejected", f"recorded as accepted; the rules refuse it: {r.rule_id}: {r.message}",
                       command=_json(command), recorded=_json(list(batch.events)), expected=r.rule_id)
        return
    except Exception as exc:  # a state no honest log leads to (e.g. a negative hand)
        report.diverge(first, "state", f"the rules cannot judge this command on the recorded state: {exc!r}",
                       command=_json(command), recorded=_json(list(batch.events)))
        return
    if tuple(given) != batch.events and (retired := translated(record, batch)):
        # A command or event of a shape since retired (events/schema.py) is read in today's
        # shape; today's rules may record its effect in other events (an oil discard as one
        # event, not two). What the log holds must leave the game as the rules do: the state.
        if same_fold(state, batch, given):
            report.commands += 1
            report.translated += 1
        else:  # a retired rule (a gold offer completed on acceptance): not checkable today
            report.skipped.append(f"v{first} {retired}: a retired command whose rule today's "
                                  "rules no longer have; not re-checked")
        return
    if tuple(given) != batch.events:
        i = next((i for i, (a, b) in enumerate(zip(batch.events, given, strict=False)) if a != b),
                 min(len(given), len(batch.events)))
        recorded = batch.events[i] if i < len(batch.events) else None
        # A differing outcome the dealer drew (a die, a steal, a card) is a chance divergence.
        chance = dealer.picks > picks and recorded is not None and type(recorded) not in DETERMINISTIC
        report.diverge(first + i, "chance" if chance else "events", disputes.first_difference(batch.events, given),
                       command=_json(command), recorded=_json(list(batch.events)),
                       expected=_json(given))
        return
    report.commands += 1


def translated(record: GameRecord, batch: Batch) -> str:
    """The retired tag the batch's command or one of its events was stored under ('' when it
    holds only today's shapes: its stored tags are the tags it is read as)."""
    for r in record.events[batch.first - 1:batch.last]:
        if r.command_raw and r.command is not None:
            stored = msgspec.json.decode(r.command_raw).get("type")
            if stored != type(r.command).__name__:
                return str(stored)
        stored = msgspec.json.decode(r.raw).get("event", {}).get("type")
        if stored != type(r.event).__name__:
            return str(stored)
    return ""


def same_fold(state: State, batch: Batch, given: Sequence[Event]) -> bool:
    """Whether the recorded events and the rules' events leave the game in the same state."""
    recorded, expected = state.copy(), state.copy()
    try:
        for e in batch.events:
            evolve(recorded, e)
        for e in given:
            evolve(expected, e)
    except Exception:  # one of them does not even fold: not the same
        return False
    expected.version = recorded.version  # the log's count of events, not the game's state
    return snapshot.dump(recorded) == snapshot.dump(expected)


def check_rulings(record: GameRecord, state: State, rulings: list[tuple[int, Ruling]],
                  dealer: CountingDealer, report: AuditReport) -> None:
    for index, ruling in rulings:
        check_ruling(record, state, index, ruling, dealer, report)


def check_ruling(record: GameRecord, state: State, index: int, ruling: Ruling,
                 dealer: CountingDealer, report: AuditReport) -> None:
    v = ruling.version
    if ruling.rule_id == "service.stale" and ruling.expected_version is not None:
        if ruling.expected_version == v:
            report.diverge(v, "ruling", f"{ruling.command_id}: refused as stale, but it was sent for version {v}",
                           command=_json(ruling.command), recorded=ruling.rule_id, expected="(accepted)")
        else:
            report.rulings += 1
        return
    if ruling.rule_id.startswith("service.") or ruling.command is None:
        report.notes.append(f"v{v} {ruling.command_id}: {ruling.rule_id} is a service ruling the record cannot re-check")
        return
    try:
        _judge(record, state, ruling.command, dealer, v, rulings=index)
    except ChanceNeeded:
        report.skipped.append(f"v{v} ruling {ruling.command_id}: would draw chance, the seed is not revealed")
        return
    except Rejected as r:
        if r.rule_id == ruling.rule_id:
            report.rulings += 1
        else:
            report.diverge(v, "ruling", f"{ruling.command_id}: recorded {ruling.rule_id}, the rules give {r.rule_id}",
                           command=_json(ruling.command), recorded=ruling.rule_id, expected=r.rule_id)
        return
    except Exception as exc:  # a state no honest log leads to
        report.diverge(v, "state", f"{ruling.command_id}: the rules cannot judge it on the recorded state: {exc!r}",
                       command=_json(ruling.command), recorded=ruling.rule_id)
        return
    report.diverge(v, "ruling", f"{ruling.command_id}: recorded as refused by {ruling.rule_id}; the rules accept it",
                   command=_json(ruling.command), recorded=ruling.rule_id, expected="(accepted)")


def _judge(record: GameRecord, state: State, command: Command, dealer: Dealer, version: int,
           rulings: int | None = None) -> list[Event]:
    """As the rules service judged it: `decide`, or disputes with the record as it stood."""
    from services.rules.engine import decide

    if not disputes.needs_record(command):
        return decide(state, command, dealer)
    return disputes.judge(state, command, dealer, record.upto(version, rulings))


def _by_version(rulings: list[Ruling]) -> dict[int, list[tuple[int, Ruling]]]:
    out: dict[int, list[tuple[int, Ruling]]] = {}
    for i, r in enumerate(rulings):
        out.setdefault(r.version, []).append((i, r))
    return out
