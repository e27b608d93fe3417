"""What every seat sees of Oil Springs: all of it is public (oil held included, §12.3)."""

from __future__ import annotations

from typing import Any

from services.rules.engine.scenarios.oil_springs.common import oil_state
from services.rules.engine.state import NO_ONE, State


def view_ext(state: State, seat: int | None) -> dict[str, Any]:
    ext = oil_state(state)
    return {
        "oil": [p.hand[ext.oil] for p in state.players[: state.n]],
        "supply": state.bank[ext.oil],
        "marker": ext.marker,
        "sequestered": list(ext.sequestered),
        "removed": ext.removed,
        "champion": None if ext.champion == NO_ONE else ext.champion,
        "destroyed": list(ext.destroyed),
        "metropolises": {str(v): s for v, s in sorted(ext.metropolises.items())},
        "springs": list(ext.springs),
        "mode": ext.mode,
        "used": ext.used,
        "sequestered_now": ext.sequestered_now,
        # The oil of an open offer (the base's trade view shows its resources).
        "trade_oil": None if state.trade is None else {
            "give": state.trade.give[ext.oil], "get": state.trade.get[ext.oil]},
    }
