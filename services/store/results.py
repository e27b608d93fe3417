"""Plain result types and errors of the event store (no Redis here, so callers can import them
without pulling in a client)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

S = TypeVar("S")

AppendStatus = Literal["accepted", "duplicate", "conflict", "missing"]


@dataclass(slots=True)  # (not frozen: one per command, and frozen is 4x slower to make)
class AppendResult:
    """What one append did.

    accepted:  events `first..last` written; `version == last`; `outcome` is what was stored.
    duplicate: the command already had an outcome (accepted *or* rejected); nothing written;
               `outcome` is that original outcome, to be returned to the sender unchanged;
               version/first/last are its "to"/"from" (0 when the original was a rejection).
    conflict:  the game is at `version`, not the expected one; nothing written.
    missing:   the game does not exist; nothing written.
    """

    status: AppendStatus
    version: int = 0
    first: int = 0
    last: int = 0
    outcome: dict[str, Any] | None = None

    @property
    def accepted(self) -> bool:
        return self.status == "accepted"


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One stored event with its causing command id and, on the first event of a batch, the
    command's body (JSON bytes; None before commands were recorded, and for event 1)."""

    version: int
    data: bytes = field(repr=False)
    command_id: str
    command: bytes | None = field(default=None, repr=False)


@dataclass(slots=True)  # (not frozen: one per command, and frozen is 4x slower to make)
class PromptWrite:
    """The next prompt, written by the append script only if the events are: an entry on a
    prompt stream and a deadline member (replacing the previous one). Both keys must be in
    the game's partition slot."""

    stream: str
    fields: dict[str, bytes | str | int]
    deadlines: str
    member: str
    deadline_ms: int
    previous: str = ""


@dataclass(frozen=True, slots=True)
class Snapshot:
    version: int
    schema: int
    rules_version: str
    state: bytes = field(repr=False)


@dataclass(frozen=True, slots=True)
class Loaded(Generic[S]):
    """A folded game: its state at `version`, and the snapshot version it started from (0: none)."""

    state: S
    version: int
    snapshot_version: int


class StoreError(RuntimeError):
    """Base of the store's errors."""


class GameExistsError(StoreError):
    """create_game on a game id that already has a log or meta."""


class CorruptLogError(StoreError):
    """The log disagrees with itself (a gap, or meta.version != top id): never write past it."""
