"""Catan for Two with Event Cards (docs/rules/event-cards.md §3 DECISIONS, "Catan for Two";
`catan_for_two.event_cards.two_draws`): the turn draws 2 event cards instead of 2 rolls.

The first card is the turn's `roll` hook (Event Cards replaces the dice); the second is Catan
for Two's second-roll step, which here draws a second card instead of re-rolling the dice: a
card with the same number as the first is *not* replaced — no more cards are drawn and that
number is applied (produced, or a 7 resolved) twice. The events of both cards are resolved,
each before its own production ([khhhalin]; official wording not seen).
"""

from __future__ import annotations

from events.events import Event
from services.rules.engine.capabilities import DICE_DECK, SECOND_ROLL
from services.rules.engine.chance import Dealer
from services.rules.engine.combinations import Combination
from services.rules.engine.rules import register
from services.rules.engine.state import Rules, State

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
    deck = state.rules.capability(DICE_DECK)
    assert deck is not None, "installed only with Event Cards, which provides it"
    return deck.draw(state, seat, dealer)


def install(rules: Rules) -> None:
    rules.provide(SECOND_ROLL, second_card)


COMBINATION = Combination(pair=("catan-for-two", "event-cards"), install=install,
                          description="two event cards drawn per turn instead of two rolls")
