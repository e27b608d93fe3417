"""Gold (docs/rules/barbarian-attack.md §9.10): public counts in the scenario state, never a
resource card (so never stolen, discarded, counted for the 7 or monopolised). 2 gold buy a
resource (twice per turn, while the bank has it); resources sell for 1 gold at the seat's
maritime ratio (4:1, 3:1 at a generic harbor, 2:1 at the matching harbor; a conquered
building's harbor does not count). Gold also changes hands in domestic trades: it is the
game's currency, named in the base trade's offers (engine/currency.py, `gold.trade`)."""

from __future__ import annotations

from events.barbarian_attack import (
    BuyResourceWithGold,
    ResourceBoughtWithGold,
    ResourceSoldForGold,
    SellResourceForGold,
)
from events.commands import Command
from events.events import Event
from events.types import RESOURCE_INDEX, RESOURCES
from services.rules.engine.base.common import require_current
from services.rules.engine.chance import Dealer
from services.rules.engine.currency import install_gold
from services.rules.engine.rules import reject
from services.rules.engine.scenarios.barbarian_attack.common import (
    GOLD_BUYS,
    GOLD_PER_RESOURCE,
    attack,
)
from services.rules.engine.state import MAIN, Rules, State


def buy(state: State, cmd: BuyResourceWithGold, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    a = attack(state)
    if a.gold[cmd.seat] < GOLD_PER_RESOURCE:
        raise reject("barbarian_attack.gold.buy", "a resource costs 2 gold")
    if a.gold_buys >= GOLD_BUYS:
        raise reject("barbarian_attack.gold.buy", "gold buys 2 resources per turn at most")
    if state.bank[RESOURCE_INDEX[cmd.resource]] <= 0:
        raise reject("barbarian_attack.gold.buy", f"the bank has no {cmd.resource}")
    return [ResourceBoughtWithGold(seat=cmd.seat, resource=cmd.resource)]


def sell(state: State, cmd: SellResourceForGold, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    p = state.players[cmd.seat]
    r = RESOURCE_INDEX[cmd.resource]
    ratio = p.ratios[r]
    if p.hand[r] < ratio:
        raise reject("barbarian_attack.gold.sell", f"1 gold costs {ratio} {cmd.resource}")
    return [ResourceSoldForGold(seat=cmd.seat, resource=cmd.resource, count=ratio)]


def options(state: State, seat: int) -> list[Command]:
    a = attack(state)
    p = state.players[seat]
    out: list[Command] = []
    if a.gold[seat] >= GOLD_PER_RESOURCE and a.gold_buys < GOLD_BUYS:
        out += [BuyResourceWithGold(seat=seat, resource=r) for i, r in enumerate(RESOURCES)
                if state.bank[i] > 0]
    out += [SellResourceForGold(seat=seat, resource=r) for i, r in enumerate(RESOURCES)
            if p.hand[i] >= p.ratios[i]]
    return out


def evolve_bought(state: State, e: ResourceBoughtWithGold) -> None:
    a = attack(state)
    r = RESOURCE_INDEX[e.resource]
    a.gold[e.seat] -= GOLD_PER_RESOURCE
    a.gold_buys += 1
    state.bank[r] -= 1
    state.players[e.seat].hand[r] += 1


def evolve_sold(state: State, e: ResourceSoldForGold) -> None:
    r = RESOURCE_INDEX[e.resource]
    attack(state).gold[e.seat] += 1
    state.bank[r] += e.count
    state.players[e.seat].hand[r] -= e.count


def install(rules: Rules) -> None:
    rules.handle(BuyResourceWithGold, buy)
    rules.handle(SellResourceForGold, sell)
    rules.allow(MAIN, BuyResourceWithGold, SellResourceForGold)
    rules.evolve_with(ResourceBoughtWithGold, evolve_bought)
    rules.evolve_with(ResourceSoldForGold, evolve_sold)
    install_gold(rules, gold_of, "barbarian_attack.gold.trade")


def gold_of(state: State) -> list[int]:
    return attack(state).gold
