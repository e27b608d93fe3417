"""The undo table rule's state (undo.py): Structs the engine copies, dumps and loads
(modstate.py). In a file of its own: a module defining a Struct stays Python in the compiled
build."""

from __future__ import annotations

import msgspec

# One journal entry: (version after the event, the event as JSON text, a valid undo target).
# The event is kept as its wire text, not as an Event: a module state's type is fixed when the
# engine is imported, while the event union grows with every module's wire file (events/codec.py
# builds it); only a revert reads the journal's events back.
Entry = tuple[int, str, bool]


class Vote(msgspec.Struct, kw_only=True):
    """The open undo proposal."""

    proposer: int
    to_version: int
    needs: tuple[int, ...]  # the seats that must approve
    approved: set[int] = msgspec.field(default_factory=set)
    resume: str  # the phase the game was in
    at: int  # version of the UndoProposed


class UndoLog(msgspec.Struct):
    """`ext["undo"]`: the floor, the checkpoint at it, the journal since, the open vote.

    `base` is the checkpoint: the state before the first journaled event, as the JSON text of
    its `to_dict` form, written once and read back only by a revert. As text, the state that
    holds it is copied (on every search step) at the cost of a string, not of a whole state.
    A checkpoint's own log is inert (`active=False`)."""

    policy: str
    active: bool
    floor: int = 1
    base: str | None = None
    journal: list[Entry] = msgspec.field(default_factory=list)
    vote: Vote | None = None
