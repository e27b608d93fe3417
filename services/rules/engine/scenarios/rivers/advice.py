"""What the heuristic bot should do in the Rivers of Catan (bots ask `Module.advice`).

The base bot never builds a bridge nor touches gold. So, first thing in its main stage:
- build a bridge when one is offered (3 gold, and the bridge carries its road network on);
- buy the resources that complete the build it saves for, when the gold lost does not cost
  more Settler points than the build brings;
- sell a surplus card (one its goal does not need) for gold when that lifts its Settler
  points, or when it holds more than 7 cards (gold cannot be robbed nor discarded).
The neutral bridge (Catan for Two) takes the prompt's default.
"""

from __future__ import annotations

from events.commands import Command
from events.prompts import Prompt, View
from events.rivers import BuildBridge, BuyWithGold, SellForGold
from events.types import RESOURCE_INDEX, bundle_to_vector
from services.rules.engine.advice import Advice, BotSense, offered
from services.rules.engine.scenarios.rivers.common import BUY_PRICE, BUYS_PER_TURN, EXT, wealth_vp

HAND_LIMIT = 7


class RiversAdvice(Advice):
    def first(self, view: View, prompt: Prompt, sense: BotSense) -> Command | None:
        if EXT not in view.ext:
            return None
        bridge = offered(prompt, BuildBridge)
        if bridge is not None:
            return bridge
        seat = prompt.seat
        gold = list(view.ext[EXT]["gold"])
        hand = bundle_to_vector(view.players[seat].hand or {})
        goal = sense.goal(hand)
        return buy(prompt, view, gold, hand, goal) or sell(prompt, gold, hand, goal)


def buy(prompt: Prompt, view: View, gold: list[int], hand: list[int],
        goal: tuple[int, ...]) -> Command | None:
    seat = prompt.seat
    missing = [max(0, goal[i] - hand[i]) for i in range(5)]
    need = sum(missing)
    left = BUYS_PER_TURN - int(view.ext[EXT]["bought_this_turn"])
    if need == 0 or need > min(left, gold[seat] // BUY_PRICE):
        return None
    after = gold[:]
    after[seat] -= need * BUY_PRICE
    if wealth_vp(after, seat) - wealth_vp(gold, seat) + 1 <= 0:  # a build brings 1 VP
        return None
    for option in prompt.options:
        if isinstance(option, BuyWithGold) and missing[RESOURCE_INDEX[option.resource]] > 0:
            return option
    return None


def sell(prompt: Prompt, gold: list[int], hand: list[int], goal: tuple[int, ...]) -> Command | None:
    seat = prompt.seat
    richer = gold[:]
    richer[seat] += 1
    lifts = wealth_vp(richer, seat) > wealth_vp(gold, seat)
    if not lifts and sum(hand) <= HAND_LIMIT:
        return None
    sales = [o for o in prompt.options if isinstance(o, SellForGold)]
    # The most plentiful card beyond what the goal needs.
    surplus = [o for o in sales if hand[RESOURCE_INDEX[o.resource]] - goal[RESOURCE_INDEX[o.resource]] > 0]
    if not surplus:
        return None
    return max(surplus, key=lambda o: hand[RESOURCE_INDEX[o.resource]] - goal[RESOURCE_INDEX[o.resource]])


ADVICE = RiversAdvice()
