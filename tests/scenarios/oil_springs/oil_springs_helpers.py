"""A table for Oil Springs rule tests: the scenario's board, no set-up pieces, scripted chance.

Springs: (0,0) number 5 (inland corners), (2,-2) number 9 and (2,-1) number 10 (coastal and
inland corners). Corner ids come from the board (`corner`), so the tests read by hex name.
"""

from __future__ import annotations

from events.events import ModuleSpec
from services.rules.engine.scenarios.oil_springs.common import oil_state
from services.rules.engine.scenarios.oil_springs.state import OilState
from services.rules.engine.testing import Table

OIL = "oil-springs"


def table(seats: int = 4, mode: str = "", more: tuple[ModuleSpec, ...] = ()) -> Table:
    params = {"oil_mode": mode} if mode else {}
    t = Table(seats=seats, modules=[ModuleSpec(name=OIL, params=params), *more], setup=False)
    t.turn_of(0)
    return t


def ext(t: Table) -> OilState:
    return oil_state(t.state)


def corner(t: Table, hex_name: str, coastal: bool | None = None, k: int = 0) -> int:
    """The k-th corner of a hex (only coastal or only inland ones when asked)."""
    board = t.state.board
    corners = [v for v in board.topo.hex_vertices[t.hex(hex_name)]
               if coastal is None or board.topo.vertex_is_coastal[v] == coastal]
    return corners[k]


def oil(t: Table, seat: int) -> int:
    return t.hand(seat).get("oil", 0)


def conserved(t: Table) -> int:
    """Bank + hands + sequestered + removed oil (always 15)."""
    e = ext(t)
    s = t.state
    return s.bank[e.oil] + sum(p.hand[e.oil] for p in s.players) + sum(e.sequestered) + e.removed
