"""What views show of the scenario: everything is public (chance-and-hidden-information.md
§14.10)."""

from __future__ import annotations

from typing import TypedDict

from services.rules.engine.currency import open_offer_gold
from services.rules.engine.scenarios.traders_and_barbarians.common import tb
from services.rules.engine.scenarios.traders_and_barbarians.data import COMMODITIES, TRADE_HEXES
from services.rules.engine.state import State


class TradersView(TypedDict):
    """What every seat sees of the scenario (`view["ext"]["traders-and-barbarians"]`)."""

    gold: list[int]
    wagons: list[int]
    levels: list[int]
    cargo: list[str]
    delivered: list[dict[str, int]]  # per seat, by commodity
    stacks: dict[str, dict[str, int]]  # by trade hex, by commodity
    barbarians: list[int]
    movement_points: int
    moving: bool
    grain_paid: bool
    gold_buys: int
    trade_gold: list[int] | None  # the open offer's gold (currency.open_offer_gold)


def view_ext(state: State, seat: int | None) -> TradersView:
    """Everything of the scenario is public (chance-and-hidden-information.md §14.10)."""
    t = tb(state)
    return {
        "gold": t.gold[:],
        "wagons": t.wagon[:],
        "levels": t.level[:],
        "cargo": t.cargo[:],
        "delivered": [dict(zip(COMMODITIES, d, strict=True)) for d in t.delivered],
        "stacks": {k: dict(zip(COMMODITIES, s, strict=True))
                   for k, s in zip(TRADE_HEXES, t.stacks, strict=True)},
        "barbarians": t.barbarians[:],
        "movement_points": t.mp if t.moving else 0,
        "moving": t.moving,
        "grain_paid": t.grain_paid,
        "gold_buys": t.buys,
        "trade_gold": open_offer_gold(state),
    }
