"""What every seat sees of the Rivers: all of it is public (gold, the Settlers, bridges)."""

from __future__ import annotations

from typing import TypedDict

from services.rules.engine.scenarios.rivers.common import BRIDGE, places, poor, rivers, wealthiest
from services.rules.engine.state import State


class RiversView(TypedDict):
    """What every seat sees of the rivers (`view["ext"]["rivers"]`)."""

    gold: list[int]  # per seat
    wealthiest: int | None  # the Wealthiest Settler's seat (None: no sole richest)
    poor: list[int]  # the Poor Settlers' seats
    bought_this_turn: int  # resources bought with gold this turn
    bridges: dict[int, list[int]]  # seat -> its bridges' paths
    bridge_sites: list[int]
    neutral_bridge_owed: bool  # with Catan for Two


def view_ext(state: State, seat: int | None) -> RiversView:
    """Everything here is public: gold, the Settlers, bridges and the bridge sites."""
    r = rivers(state)
    return {
        "gold": list(r.gold),
        "wealthiest": wealthiest(r.gold),
        "poor": poor(r.gold),
        "bought_this_turn": r.bought,
        "bridges": {p.seat: sorted(p.pieces.get(BRIDGE, ())) for p in state.players},
        "bridge_sites": sorted(places(state).bridge_sites),
        "neutral_bridge_owed": r.owed,
    }
