"""What the heuristic bot should do in the Rivers of Catan (bots ask `Module.advice`).

The base bot never builds a bridge nor touches gold. Measured against the plain heuristic bot
(300 four-seat games, two seats each; benchmarks/scenarios/rivers.md), this advice wins 63% of
the games against 37%:
- first thing in the main stage, buy the resources that complete the build the bot saves for,
  when the gold spent costs fewer Settler points than the build brings (a Poor Settler is
  -2: the bot does not buy its way into one);
- sell a surplus card (one its goal does not need) for gold only when that 1 gold lifts it out
  of the Poor Settlers (+2 VP). Selling freely (4 cards for 1 gold, 2 gold for 1 card) lost
  most games in the same measurement;
- after its cities and settlements, build a bridge when one is offered (3 gold; built before
  them it cost more games than it won).
The neutral bridge (Catan for Two) takes the prompt's default.
"""

from __future__ import annotations

from events.commands import Command
from events.prompts import Prompt, View
from events.rivers import BuildBridge, BuyWithGold, SellForGold
from events.types import RESOURCE_INDEX, bundle_to_vector
from services.rules.engine.advice import Advice, BotSense, offered
from services.rules.engine.scenarios.rivers.common import (
    BUY_PRICE,
    BUYS_PER_TURN,
    EXT,
    POOR_VP,
    wealth_vp,
)
from services.rules.engine.scenarios.rivers.view import RiversView

BUILD_VP = 1  # what the build the bot saves for (a settlement or a city) brings


class RiversAdvice(Advice):
    def first(self, view: View, prompt: Prompt, sense: BotSense) -> Command | None:
        if EXT not in view.ext:
            return None
        seen: RiversView = view.ext[EXT]
        gold = list(seen["gold"])
        hand = bundle_to_vector(view.players[prompt.seat].hand or {})
        goal = sense.goal(hand)
        return buy(prompt, seen, gold, hand, goal) or sell(prompt, gold, hand, goal)

    def after_buildings(self, view: View, prompt: Prompt, sense: BotSense) -> Command | None:
        if EXT not in view.ext:
            return None
        return offered(prompt, BuildBridge)


def buy(prompt: Prompt, seen: RiversView, gold: list[int], hand: list[int],
        goal: tuple[int, ...]) -> Command | None:
    """A resource the goal misses, when gold completes the goal and the Settlers allow."""
    seat = prompt.seat
    missing = [max(0, goal[i] - hand[i]) for i in range(5)]
    need = sum(missing)
    left = BUYS_PER_TURN - seen["bought_this_turn"]
    if need == 0 or need > min(left, gold[seat] // BUY_PRICE):
        return None
    after = gold[:]
    after[seat] -= need * BUY_PRICE
    if wealth_vp(after, seat) - wealth_vp(gold, seat) + BUILD_VP <= 0:
        return None
    for option in prompt.options:
        if isinstance(option, BuyWithGold) and missing[RESOURCE_INDEX[option.resource]] > 0:
            return option
    return None


def sell(prompt: Prompt, gold: list[int], hand: list[int], goal: tuple[int, ...]) -> Command | None:
    """The most plentiful surplus card, when 1 gold lifts the bot out of the Poor Settlers."""
    seat = prompt.seat
    richer = gold[:]
    richer[seat] += 1
    if wealth_vp(richer, seat) - wealth_vp(gold, seat) < -POOR_VP:
        return None
    surplus = [o for o in prompt.options if isinstance(o, SellForGold)
               and hand[RESOURCE_INDEX[o.resource]] > goal[RESOURCE_INDEX[o.resource]]]
    if not surplus:
        return None
    return max(surplus, key=lambda o: hand[RESOURCE_INDEX[o.resource]] - goal[RESOURCE_INDEX[o.resource]])


ADVICE = RiversAdvice()
