"""A Rivers table for the rule tests: the map's fixed layout, set-up skipped (the board empty,
every hand and all gold at 0), places by name.

Fixed layout (maps/rivers.toml): river A (1,-1) mountains 3, (0,0) hills 11, (-1,1) pasture 4,
(-2,2) swamp; river B (1,0) mountains 6, (0,1) hills 5, (0,2) swamp; (2,0) mountains 12+2.
"""

from __future__ import annotations

from collections.abc import Sequence

from events.events import ModuleSpec
from services.rules.engine.scenarios.rivers.common import RiversState, rivers
from services.rules.engine.testing import Table

RIVERS = ModuleSpec(name="rivers")
BRIDGE_SITE = "(0,0)/(1,-1)"
MOUTH_A = "(-3,3)/(-2,2)"
RIVER_PATH = "(0,-1)/(1,-1)"  # a side of river hex (1,-1), not crossing the river
DRY_EDGE = "(-1,-1)/(0,-1)"  # touches no river hex
RIVER_VERTEX = "(0,-1)/(0,0)/(1,-1)"
DRY_VERTEX = "(-1,-1)/(-1,0)/(0,-1)"
NEAR_SITE = "(0,0)/(1,-1)/(1,0)"  # an end of BRIDGE_SITE


def table(seats: int = 3, modules: Sequence[ModuleSpec] = (), setup: bool = False) -> Table:
    t = Table(seats=seats, modules=[RIVERS, *modules], setup=setup)
    if not setup:
        t.turn_of(0)
    return t


def gold(t: Table) -> RiversState:
    return rivers(t.state)


def paid_up(t: Table) -> None:
    """Pieces put down by hand count as paid: only the next build earns gold."""
    r = gold(t)
    for p in t.state.players:
        r.paid_edges |= p.roads
        r.paid_vertices |= p.settlements
