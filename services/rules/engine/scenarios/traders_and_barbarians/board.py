"""Where pieces may not go on a trade hex (docs/rules/traders-and-barbarians.md §10.2,
`board.trade_hex`): no settlement on a plaza or a sea-only corner, no road on a sea side.
Spokes take roads; a barbarian never stops a road (`road.barbarian_path`)."""

from __future__ import annotations

from services.rules.engine.scenarios.traders_and_barbarians.common import places
from services.rules.engine.scenarios.traders_and_barbarians.data import P
from services.rules.engine.state import State

TRADE_HEX = P + "board.trade_hex"


def settlement_blocked(state: State, seat: int, v: int) -> str | None:
    at = places(state.board)
    return TRADE_HEX if v in at.plaza_of or v in at.sea_only else None


def road_blocked(state: State, seat: int, e: int) -> str | None:
    return TRADE_HEX if e in places(state.board).sea_sides else None
