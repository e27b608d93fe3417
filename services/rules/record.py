"""A game's record: its log (each event as stored, with the command that caused each batch) and
its rulings (the rejections, with their rule ids). What disputes are judged on, what `hexlog
audit` checks, what an archive holds (services/audit/archive.py).

Built from the store (`load_record`) or from an archive; both give the same record. The state
at any version is the fold of events 1..v (undo included: `Reverted` is an event like any
other, see services/rules/engine/undo.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import msgspec

from events.codec import codec
from events.commands import Command
from events.envelope import EventEnvelope
from events.events import Event, GameCreated
from services.rules.engine import evolve, initial_state
from services.rules.engine.state import State
from services.store import EventStore
from services.store.results import LogEntry

DUPLICATE = "service.command.duplicate"


class RecordError(ValueError):
    """A stored event or command that does not decode: the record cannot be read past it."""

    def __init__(self, version: int, message: str) -> None:
        super().__init__(f"version {version}: {message}")
        self.version = version


@dataclass(frozen=True)
class Recorded:
    """One event as stored (`raw`), decoded, with the batch's command on its first event."""

    envelope: EventEnvelope
    raw: bytes = field(repr=False)
    command: Command | None = None
    command_raw: bytes | None = field(default=None, repr=False)

    @property
    def version(self) -> int:
        return self.envelope.version

    @property
    def event(self) -> Event:
        return self.envelope.event


@dataclass(frozen=True)
class Ruling:
    """A rejection from the rulings stream: judged at `version` (the game's version then)."""

    command_id: str
    seat: int | None
    version: int
    rule_id: str
    message: str
    command: Command | None
    expected_version: int | None = None
    fields: dict[str, str] = field(default_factory=dict, repr=False)  # as stored


@dataclass(frozen=True)
class Batch:
    """The events of one command: versions `first`..`last`."""

    first: int
    last: int
    command_id: str
    command: Command | None
    events: tuple[Event, ...]


@dataclass
class GameRecord:
    game_id: str
    events: list[Recorded]
    rulings: list[Ruling] = field(default_factory=list)

    @property
    def version(self) -> int:
        return len(self.events)

    @property
    def created(self) -> GameCreated:
        first = self.events[0].event
        if not isinstance(first, GameCreated):
            raise RecordError(1, f"the first event is {type(first).__name__}, not GameCreated")
        return first

    @cached_property
    def batches(self) -> list[Batch]:
        out: list[Batch] = []
        start = 0
        for i in range(1, len(self.events) + 1):
            if i == len(self.events) or self.events[i].envelope.command_id != self.events[start].envelope.command_id:
                head = self.events[start]
                out.append(Batch(head.version, self.events[i - 1].version, head.envelope.command_id,
                                 head.command, tuple(r.event for r in self.events[start:i])))
                start = i
        return out

    def batch(self, command_id: str) -> Batch | None:
        return next((b for b in self.batches if b.command_id == command_id), None)

    def ruling(self, command_id: str) -> Ruling | None:
        """The ruling a contest of `command_id` is about (a note that a replay of the command
        was answered by its first outcome is not a ruling of its own)."""
        return next((r for r in reversed(self.rulings)
                     if r.command_id == command_id and r.rule_id != DUPLICATE), None)

    def ends_command(self, version: int) -> bool:
        """Whether `version` is the last event of a command's batch."""
        return any(b.last == version for b in self.batches)

    def upto(self, version: int, rulings: int | None = None) -> GameRecord:
        """The record as it stood at `version` (and with the first `rulings` rulings)."""
        kept = self.rulings[:rulings] if rulings is not None else [
            r for r in self.rulings if r.version <= version
        ]
        return GameRecord(self.game_id, self.events[:version], kept)

    def state_at(self, version: int) -> State:
        """The fold of events 1..version."""
        state = initial_state(self.created)
        for r in self.events[1:version]:
            evolve(state, r.event)
        return state


def decode_entries(game_id: str, entries: Iterable[LogEntry]) -> list[Recorded]:
    c = codec()
    out: list[Recorded] = []
    for e in entries:
        try:
            env = c.decode_event_envelope(e.data)
            command = c.decode_command(e.command) if e.command else None
        except (msgspec.DecodeError, ValueError) as exc:
            raise RecordError(e.version, f"undecodable entry: {exc}") from exc
        out.append(Recorded(env, e.data, command, e.command or None))
    return out


def decode_rulings(entries: Sequence[dict[str, str]]) -> list[Ruling]:
    c = codec()
    out: list[Ruling] = []
    for f in entries:
        seat = f.get("seat", "")
        expected = f.get("expected_version", "")
        body = f.get("command", "")
        out.append(Ruling(
            command_id=f.get("command_id", ""),
            seat=int(seat) if seat.lstrip("-").isdigit() else None,
            version=int(f.get("version", "0")),
            rule_id=f.get("rule_id", ""),
            message=f.get("message", ""),
            command=c.decode_command(body) if body else None,
            expected_version=int(expected) if expected.lstrip("-").isdigit() else None,
            fields=dict(f),
        ))
    return out


async def load_record(store: EventStore, game_id: str) -> GameRecord:
    entries = await store.read_entries(game_id)
    return GameRecord(game_id, decode_entries(game_id, entries),
                      decode_rulings(await store.rulings(game_id)))
