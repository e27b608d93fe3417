"""Table events: things that happen around the game rather than in it (a seat forfeiting).
They are in the log for the record; the rules keep no state for them."""

from __future__ import annotations

from events.events import SeatForfeited
from services.rules.engine.state import Rules, State


def evolve_forfeit(state: State, e: SeatForfeited) -> None:
    """Nothing to fold: the rules service plays the seat's defaults from now on."""


def install(rules: Rules) -> None:
    rules.evolve_with(SeatForfeited, evolve_forfeit)
