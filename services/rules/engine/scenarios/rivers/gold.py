"""Gold: earned by building along the rivers, spent on resources, got by selling them, and the
Wealthiest and Poor Settlers it decides (docs/rules/rivers.md §7.4, §7.5).

Gold is module state (`RiversState.gold`), not a resource card: so no steal, discard, 7-card
count or Monopoly ever sees it (`rivers.gold.not_resource`); the vocabulary knows it as the
game's currency, which trades between players carry (engine/currency.py). The supply is
unlimited (README.md §0.3). Gold for pieces comes from a deriver that pays every river piece
once (`paid_edges` / `paid_vertices`), whichever command built it: set-up placements, builds,
Road Building's free roads. The Settlers are no cards that move: they follow from the gold at
every moment (`wealth_vp`), which is "after every change of anybody's gold".
"""

from __future__ import annotations

from events.commands import Command
from events.events import Event, TurnEnded
from events.rivers import BuyWithGold, GoldEarned, GoldSpent, ResourcesSoldForGold, SellForGold
from events.types import RESOURCE_INDEX, RESOURCES
from services.rules.engine.base.common import require_current
from services.rules.engine.chance import Dealer
from services.rules.engine.registry import Evolver
from services.rules.engine.rules import reject
from services.rules.engine.scenarios.rivers.common import (
    BRIDGE,
    BUY_PRICE,
    BUYS_PER_TURN,
    GOLD_BRIDGE,
    GOLD_ROAD,
    GOLD_SETTLEMENT,
    places,
    rivers,
    wealth_vp,
)
from services.rules.engine.state import MAIN, State

# --- earning ----------------------------------------------------------------------------------


def derive_gold(state: State, dealer: Dealer) -> list[Event]:
    """Gold for every river piece of a seat not paid yet (neutral pieces earn nothing)."""
    r = rivers(state)
    at = places(state)
    out: list[Event] = []
    for seat in range(state.n):
        p = state.players[seat]
        bridges = p.pieces.get(BRIDGE, set())
        for e in sorted(bridges - r.paid_edges):
            out.append(GoldEarned(seat=seat, gold=GOLD_BRIDGE, reason="bridge", place=e))
        for e in sorted((p.roads & at.river_paths) - r.paid_edges - bridges):
            out.append(GoldEarned(seat=seat, gold=GOLD_ROAD, reason="road", place=e))
        for v in sorted((p.settlements & at.river_vertices) - r.paid_vertices):
            out.append(GoldEarned(seat=seat, gold=GOLD_SETTLEMENT, reason="settlement", place=v))
    return out


def evolve_earned(state: State, e: GoldEarned) -> None:
    r = rivers(state)
    r.gold[e.seat] += e.gold
    if e.reason == "settlement":
        r.paid_vertices.add(e.place)
    elif e.reason in ("road", "bridge"):
        r.paid_edges.add(e.place)


# --- buying and selling -----------------------------------------------------------------------


def buy_problem(state: State, seat: int, resource: int) -> str | None:
    r = rivers(state)
    if r.gold[seat] < BUY_PRICE:
        return f"a resource costs {BUY_PRICE} gold; you have {r.gold[seat]}"
    if r.bought >= BUYS_PER_TURN:
        return f"you bought {BUYS_PER_TURN} resources with gold this turn"
    if state.bank[resource] <= 0:
        return f"the bank has no {RESOURCES[resource]}"
    return None


def buy(state: State, cmd: BuyWithGold, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    problem = buy_problem(state, cmd.seat, RESOURCE_INDEX[cmd.resource])
    if problem is not None:
        raise reject("rivers.gold.buy", problem)
    return [GoldSpent(seat=cmd.seat, gold=BUY_PRICE, resource=cmd.resource)]


def evolve_spent(state: State, e: GoldSpent) -> None:
    r = rivers(state)
    r.gold[e.seat] -= e.gold
    r.bought += 1
    i = RESOURCE_INDEX[e.resource]
    state.bank[i] -= 1
    state.players[e.seat].hand[i] += 1


def sell(state: State, cmd: SellForGold, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    p = state.players[cmd.seat]
    i = RESOURCE_INDEX[cmd.resource]
    ratio = p.ratios[i]
    if p.hand[i] < ratio:
        raise reject("rivers.gold.sell", f"1 gold costs {ratio} {cmd.resource}; you have {p.hand[i]}")
    return [
        ResourcesSoldForGold(seat=cmd.seat, resource=cmd.resource, count=ratio),
        GoldEarned(seat=cmd.seat, gold=1, reason="sale", place=-1),
    ]


def evolve_sold(state: State, e: ResourcesSoldForGold) -> None:
    i = RESOURCE_INDEX[e.resource]
    state.players[e.seat].hand[i] -= e.count
    state.bank[i] += e.count


def gold_options(state: State, seat: int, phase: str) -> list[Command]:
    if phase != MAIN:
        return []
    out: list[Command] = []
    p = state.players[seat]
    for i, name in enumerate(RESOURCES):
        if buy_problem(state, seat, i) is None:
            out.append(BuyWithGold(seat=seat, resource=name))
        if p.hand[i] >= p.ratios[i]:
            out.append(SellForGold(seat=seat, resource=name))
    return out


def gold_of(state: State) -> list[int]:
    return rivers(state).gold


def new_turn(previous: Evolver[State]) -> Evolver[State]:
    def evolve(state: State, e: TurnEnded) -> None:
        previous(state, e)
        rivers(state).bought = 0

    return evolve


# --- the Wealthiest and Poor Settlers ---------------------------------------------------------


def settlers_vp(state: State, seat: int, public: bool) -> int:
    """`vp_bonus`: +1 for the sole richest, -2 for each of the poorest (public)."""
    if seat >= state.n:
        return 0
    return wealth_vp(rivers(state).gold, seat)
