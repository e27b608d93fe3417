"""Gold (docs/rules/traders-and-barbarians.md §10.11): 2 gold buy 1 resource, twice per turn;
resources sell for 1 gold at the seat's maritime ratio. Gold is not a resource card: it is
counted in the scenario state, never stolen, discarded or traded with the bank's cards (the
supply is unlimited, README.md §0.3)."""

from __future__ import annotations

from events.events import Event
from events.traders_and_barbarians import (
    TraderBoughtResource,
    TraderBuyResource,
    TraderSellResource,
    TraderSoldResource,
)
from events.types import RESOURCE_INDEX, RESOURCES
from services.rules.engine.base.common import require_current
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.scenarios.traders_and_barbarians.common import tb
from services.rules.engine.scenarios.traders_and_barbarians.data import (
    GOLD_BUYS_PER_TURN,
    GOLD_PER_RESOURCE,
    P,
)
from services.rules.engine.state import State


def buy(state: State, cmd: TraderBuyResource, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    t = tb(state)
    if t.buys >= GOLD_BUYS_PER_TURN:
        raise reject(P + "gold.buy", "gold buys resources at most twice per turn")
    if t.gold[cmd.seat] < GOLD_PER_RESOURCE:
        raise reject(P + "gold.buy", "a resource costs 2 gold")
    if state.bank[RESOURCE_INDEX[cmd.resource]] < 1:
        raise reject(P + "gold.buy", f"the bank has no {cmd.resource} left")
    return [TraderBoughtResource(seat=cmd.seat, resource=cmd.resource, gold=GOLD_PER_RESOURCE)]


def sell(state: State, cmd: TraderSellResource, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    p = state.players[cmd.seat]
    r = RESOURCE_INDEX[cmd.resource]
    if p.hand[r] < p.ratios[r]:
        raise reject(P + "gold.sell", f"1 gold costs {p.ratios[r]} {cmd.resource}")
    return [TraderSoldResource(seat=cmd.seat, resource=cmd.resource, count=p.ratios[r], gold=1)]


def options(state: State, seat: int) -> list[TraderBuyResource | TraderSellResource]:
    t = tb(state)
    p = state.players[seat]
    out: list[TraderBuyResource | TraderSellResource] = []
    if t.buys < GOLD_BUYS_PER_TURN and t.gold[seat] >= GOLD_PER_RESOURCE:
        out.extend(TraderBuyResource(seat=seat, resource=name)
                   for r, name in enumerate(RESOURCES) if state.bank[r] > 0)
    out.extend(TraderSellResource(seat=seat, resource=name)
               for r, name in enumerate(RESOURCES) if p.hand[r] >= p.ratios[r])
    return out


def evolve_bought(state: State, e: TraderBoughtResource) -> None:
    t = tb(state)
    r = RESOURCE_INDEX[e.resource]
    t.gold[e.seat] -= e.gold
    t.buys += 1
    state.players[e.seat].hand[r] += 1
    state.bank[r] -= 1


def evolve_sold(state: State, e: TraderSoldResource) -> None:
    r = RESOURCE_INDEX[e.resource]
    tb(state).gold[e.seat] += e.gold
    state.players[e.seat].hand[r] -= e.count
    state.bank[r] += e.count
