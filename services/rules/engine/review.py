"""Reviewed rulings in the fold (docs/design.md "Undo, audit, contest").

Any seat of any game may contest a ruling; the rules service re-judges it (it needs the game's
log and rulings, so the judging lives in services/rules/disputes.py) and appends
`RulingReviewed`. The verdict changes nothing on the table by itself (a referee may then revert,
engine/undo.py), so the event folds to nothing but the version; it is public and reversible.
"""

from __future__ import annotations

from events.disputes import RulingReviewed
from services.rules.engine.state import Rules, State


def evolve_reviewed(state: State, e: RulingReviewed) -> None:
    """Nothing changes on the table: the verdict is on record in the log."""


def install(rules: Rules) -> None:
    rules.evolve_with(RulingReviewed, evolve_reviewed)
    rules.reversible_events(RulingReviewed)
