"""What the heuristic bot should do in Catan for Two's own places (bots ask `Module.advice`).

The neutral-building default is already sensible (the neutral piece goes away from our roads
and close to the opponent's, `default_neutral`). What the main stage's default (end the turn)
never does is use the trade tokens, and the give-back default keeps the most plentiful cards
rather than what the next build needs. So, once per turn (one token action is allowed):
- robber to the desert when the robber sits on one of our hexes;
- otherwise a forced trade when the opponent holds at least 3 cards (2 random cards in, the 2
  we need least out);
and discard a face-up knight for 2 tokens only when we are short of tokens and Largest Army
is settled either way (measured: discarding knights freely loses more games than it wins).
"""

from __future__ import annotations

from events.catan_for_two import DiscardKnight, ForceTrade, GiveBackCards, SendRobberToDesert
from events.commands import Command
from events.prompts import Prompt, View
from events.types import bundle_to_vector
from services.rules.engine.advice import Advice, BotSense, offered
from services.rules.engine.variants.catan_for_two.common import EXT, GIVE_BACK

FORCE_TRADE_MIN_CARDS = 3
ARMY_MIN = 3


class CatanForTwoAdvice(Advice):
    def stage(self, view: View, prompt: Prompt, sense: BotSense) -> Command | None:
        if prompt.stage != GIVE_BACK:
            return None
        hand = bundle_to_vector(view.players[prompt.seat].hand or {})
        return give_back(prompt, hand, sense.goal(hand))

    def first(self, view: View, prompt: Prompt, sense: BotSense) -> Command | None:
        return token_action(view, prompt, sense.robber_hurts_me(view, prompt.seat))


def token_action(view: View, prompt: Prompt, robber_hurts_me: bool) -> Command | None:
    """A token action or a knight discard worth taking now, if any is offered."""
    seat = prompt.seat
    desert = offered(prompt, SendRobberToDesert)
    if desert is not None and robber_hurts_me:
        return desert
    opponent = next(p for p in view.players if p.seat != seat)
    force = offered(prompt, ForceTrade)
    if force is not None and opponent.cards >= FORCE_TRADE_MIN_CARDS:
        return force
    knight = offered(prompt, DiscardKnight)
    if knight is not None and short_of_tokens(view, seat) and army_is_settled(view, seat):
        return knight
    return None


def short_of_tokens(view: View, seat: int) -> bool:
    two = view.ext.get(EXT, {})
    return bool(two) and two["tokens"][seat] < two["token_price"][seat]


def army_is_settled(view: View, seat: int) -> bool:
    """A knight is worth more face up (Largest Army) unless the army is decided either way:
    we keep it with one knight less, or the opponent is 2 or more knights ahead."""
    mine = view.players[seat].knights
    best_other = max(p.knights for p in view.players if p.seat != seat)
    if view.largest_army == seat:
        return mine - 1 >= ARMY_MIN and mine - 1 > best_other
    return view.largest_army is not None and best_other >= mine + 2


def give_back(prompt: Prompt, hand: list[int], goal: tuple[int, ...]) -> Command:
    """The 2 cards whose loss leaves the hand closest to `goal`; ties: the most plentiful."""
    options = [o for o in prompt.options if isinstance(o, GiveBackCards)]
    if not options:
        return prompt.default

    def cost(o: GiveBackCards) -> tuple[int, tuple[int, ...]]:
        rest = [h - g for h, g in zip(hand, bundle_to_vector(o.resources), strict=True)]
        missing = sum(max(0, goal[r] - rest[r]) for r in range(5))
        return missing, tuple(sorted(rest, reverse=True))

    return min(options, key=cost)


ADVICE = CatanForTwoAdvice()
