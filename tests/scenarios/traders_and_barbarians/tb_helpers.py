"""Tables for the Traders & Barbarians tests: the scenario's beginner layout, set-up done by
defaults (seat 0 to play), and short names for the quarry's places (docs/rules/
traders-and-barbarians.md §10.2)."""

from __future__ import annotations

from events.events import ModuleSpec
from services.rules.engine.scenarios.traders_and_barbarians.common import EXT
from services.rules.engine.scenarios.traders_and_barbarians.state import TradersState
from services.rules.engine.testing import Table

TB = ModuleSpec(name="traders-and-barbarians")

QUARRY = "(2,-2)"
QUARRY_PLAZA = "(2,-2)/(2,-2)/(2,-2)"
CASTLE_PLAZA = "(0,2)/(0,2)/(0,2)"
GLASS_PLAZA = "(-2,0)/(-2,0)/(-2,0)"
# A land corner of the quarry, its neighbours inland, and a sea-only corner.
CORNER = "(1,-1)/(2,-2)/(2,-1)"
INLAND = "(1,-1)/(1,0)/(2,-1)"  # next to CORNER along (1,-1)/(2,-1)
SEA_ONLY = "(2,-3)/(2,-2)/(3,-3)"
SPOKE = f"{CORNER}|{QUARRY_PLAZA}"
CORNER_TO_INLAND = "(1,-1)/(2,-1)"
SEA_SIDE = "(2,-2)/(2,-3)"


def table(seats: int = 4, modules: tuple[ModuleSpec, ...] = (), seed: bytes = b"tb") -> Table:
    return Table(seats=seats, modules=[TB, *modules], seed=seed)


def tb(t: Table) -> TradersState:
    ext: TradersState = t.state.ext[EXT]
    return ext


def put_wagon(t: Table, seat: int, vertex: str) -> int:
    v = t.vertex(vertex)
    tb(t).wagon[seat] = v
    return v


def path(t: Table, name: str) -> int:
    return t.edge(name)
