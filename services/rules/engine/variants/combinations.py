"""Rules that exist only when two variants are played together (docs/rules/event-cards.md §3 DECISIONS,
"Catan for Two"; §13 row 5).

A combination rule belongs to neither module alone, and the base must not know of either, so
it lives here. The module that owns the step being changed asks this file, *when it decides*,
whether a combination rule replaces its step; the answer reads whether the other module is
installed through the ruleset, by the marker every module sets: the name of its extension
state in `rules.init_ext`. Deciding at decide time (not at install time) makes the rule the
same whatever order the modules were listed in (`--variant a --variant b` or the reverse).

This file has no `MODULE`: it is not selectable, `modules.py` skips it.

Catan for Two + Event Cards (`catan_for_two.event_cards.two_draws`): the turn draws 2 event
cards instead of 2 rolls. The first card is the turn's `roll` hook (Event Cards replaces the
dice); the second is Catan for Two's second-roll step, which here draws a second card instead
of re-rolling the dice: a card with the same number as the first is *not* replaced — no more
cards are drawn and that number is applied (produced, or a 7 resolved) twice. The events of both
cards are resolved, each before its own production ([khhhalin]; official wording not seen).
"""

from __future__ import annotations

from collections.abc import Callable

from events.events import Event
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import register
from services.rules.engine.state import Rules, State
from services.rules.engine.variants import event_cards_deck
from services.rules.engine.variants.event_cards import draw_and_resolve

SecondRoll = Callable[[State, int, Dealer, int], list[Event]]

register({
    "catan_for_two.event_cards.two_draws": (
        "Catan for Two with Event Cards: two event cards are drawn per turn instead of two "
        "rolls; a second card with the first card's number is kept (that number is applied "
        "twice, no card is drawn again); the events of both cards are resolved."
    ),
})


def second_card(state: State, seat: int, dealer: Dealer, first: int) -> list[Event]:
    """The second draw of a Catan-for-Two turn with event cards: one card, whatever its
    number (`first` is deliberately not compared: a repeated number is applied twice)."""
    return draw_and_resolve(state, seat, dealer)


# Second rolls of other modules played with Catan for Two (a scenario whose dice skip some
# totals), registered by the module under the name of its extension state and looked up, like
# the rule above, when deciding. Event Cards' card draw comes first: it replaces the dice.
SECOND_ROLLS: dict[str, SecondRoll] = {}


def second_roll(rules: Rules) -> SecondRoll | None:
    """The combination rule that replaces Catan for Two's second roll, if any applies."""
    if event_cards_deck.NAME in rules.init_ext:  # event-cards is installed
        return second_card
    for name, roll in SECOND_ROLLS.items():
        if name in rules.init_ext:
            return roll
    return None
