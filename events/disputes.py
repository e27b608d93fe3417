"""Commands and events of undo and contested rulings (docs/design.md "Undo, audit, contest").

Undo is an event, never a deletion: a seat proposes to go back to `to_version`, the seats the
table's policy names answer, and `Reverted` brings the state back to what it was at
`to_version`; the undone events stay in the log (`first`..`last`), marked as reverted by
replays. The engine module is `services.rules.engine.undo`; the policy is that module's
parameter (`undo:policy=consent` or `referee`; without the module a table never undoes).

A contest names a ruling by the id of the command it concerns: a rejection (on the game's
rulings stream) or an accepted command (its events in the log). The rules service re-judges it
on the state at that version and appends `RulingReviewed` (services/rules/disputes.py).

The referee is not a seat: its commands carry `seat=REFEREE` and are signed with the referee's turn key.
"""

from __future__ import annotations

from typing import Literal

from events.commands import Command
from events.events import Event
from events.registry import register_module

REFEREE = -1
MAX_CLAIM = 280

Verdict = Literal["upheld", "overturned"]
RulingKind = Literal["rejection", "acceptance"]

# --- commands -------------------------------------------------------------------------------


class ProposeUndo(Command, frozen=True, kw_only=True):
    """Go back to the state after event `to_version` (the end of an earlier command)."""

    to_version: int


class ApproveUndo(Command, frozen=True, kw_only=True):
    pass


class RejectUndo(Command, frozen=True, kw_only=True):
    pass


class RevertTo(Command, frozen=True, kw_only=True):
    """The referee brings the game back to `to_version` (e.g. after an overturned ruling)."""

    to_version: int


class ContestRuling(Command, frozen=True, kw_only=True):
    """Contest the ruling on command `command_id`, with a short claim and optionally the rule
    the seat says was broken (for an accepted command) or misapplied (for a rejection)."""

    command_id: str
    claim: str
    rule_id: str = ""


# --- events ---------------------------------------------------------------------------------


class UndoProposed(Event, frozen=True, kw_only=True):
    """`needs`: the seats that must approve (empty: the referee decides)."""

    seat: int
    to_version: int
    needs: tuple[int, ...]


class UndoApproved(Event, frozen=True, kw_only=True):
    seat: int  # REFEREE for the referee


class UndoRejected(Event, frozen=True, kw_only=True):
    seat: int


class Reverted(Event, frozen=True, kw_only=True):
    """The state is again what it was after event `to_version`; events `first`..`last` are
    undone (they stay in the log). `by` proposed it (a seat, or REFEREE)."""

    to_version: int
    first: int
    last: int
    by: int


class RulingReviewed(Event, frozen=True, kw_only=True):
    """The re-judged ruling on command `command_id`, judged at `version` (the state it was
    decided on). `rule_id`/`rule` name the rule the review applied."""

    seat: int
    command_id: str
    version: int
    kind: RulingKind
    claim: str
    verdict: Verdict
    rule_id: str
    rule: str
    message: str


register_module(__name__, Command, Event)
