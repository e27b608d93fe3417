"""What every seat sees of Oil Springs: all of it is public (oil held included, §12.3)."""

from __future__ import annotations

from typing import TypedDict

from services.rules.engine.scenarios.oil_springs.common import oil_state, springs
from services.rules.engine.state import NO_ONE, State


class OfferOil(TypedDict):
    """The oil of an open offer."""

    give: int
    get: int


class OilView(TypedDict):
    """What every seat sees of Oil Springs (`view["ext"]["oil-springs"]`)."""

    oil: list[int]  # per seat
    supply: int
    marker: int
    sequestered: list[int]  # per seat
    removed: int
    champion: int | None
    destroyed: list[int]  # in track order
    metropolises: dict[str, int]  # vertex -> owner
    springs: list[int]
    mode: str
    used: bool
    sequestered_now: bool
    trade_oil: OfferOil | None


def view_ext(state: State, seat: int | None) -> OilView:
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
        "springs": list(springs(state)),
        "mode": ext.mode,
        "used": ext.used,
        "sequestered_now": ext.sequestered_now,
        # The oil of an open offer (the base's trade view shows its resources).
        "trade_oil": None if state.trade is None else {
            "give": state.trade.give[ext.oil], "get": state.trade.get[ext.oil]},
    }
