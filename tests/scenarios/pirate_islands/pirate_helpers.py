"""Tables for The Pirate Islands' rule tests, and ways to sail a route quickly."""

from __future__ import annotations

from events.events import ModuleSpec
from events.pirate_islands import ShipBuilt
from services.rules.engine.scenarios.pirate_islands.common import (
    EXT,
    SlotPlaces,
    open_end,
    slot,
)
from services.rules.engine.scenarios.pirate_islands.ships import ship_edges
from services.rules.engine.scenarios.pirate_islands.state import PirateState
from services.rules.engine.testing import Table

PIRATES = ModuleSpec(name="pirate-islands")


def table(seats: int = 4, modules: tuple[ModuleSpec, ...] = (), seed: bytes = b"table") -> Table:
    """Set-up played by defaults, hands emptied, seat 0 to roll (see test_pirate_islands_rules)."""
    return Table(seats=seats, modules=[PIRATES, *modules], seed=seed)


def pirate(t: Table) -> PirateState:
    ps: PirateState = t.state.ext[EXT]
    return ps


def places(t: Table, seat: int) -> SlotPlaces:
    return slot(t.state, seat)


def sail(t: Table, seat: int, ships: int) -> list[int]:
    """Put `ships` more ships at the route's open end (first legal place each time), free and
    not counting as built this turn."""
    placed = []
    for _ in range(ships):
        edge = ship_edges(t.state, seat)[0]
        t.apply(ShipBuilt(seat=seat, edge=edge, free=True))
        placed.append(edge)
    pirate(t).built.clear()
    return placed


def sail_to_fortress(t: Table, seat: int) -> None:
    while open_end(t.state, seat) != places(t, seat).fortress:
        sail(t, seat, 1)
