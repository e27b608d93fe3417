"""Catan Event Cards' module state: a Struct the engine copies, dumps and loads (modstate.py).
In a file of its own: a module defining a Struct stays Python in the compiled build."""

from __future__ import annotations

import msgspec

from services.rules.engine.state import NO_ONE


class EventState(msgspec.Struct):
    """`state.ext["event_cards"]`: public facts only (event_cards_deck.py), except `choices`,
    the private answers of a simultaneous stage (like a hand: in the state, hidden by `view`)
    until the stage resolves. Made by `event_cards_deck.new_event_state`."""

    per_cycle: int  # cards drawn before the deck is rebuilt (31 with New Year)
    drawn: list[int]  # revealed copies of each kind of card (DECK.kinds), this deck
    damaged: list[int]  # per seat its damaged road (Earthquake), NO_ONE: none
    cycle: int = 0  # how many times the deck was built, minus one
    index: int = 0  # cards revealed from the current deck
    card: int = NO_ONE  # kind of the last card drawn (its event / production)
    event: str = ""  # the event whose choice stage is open ("" none)
    waiting: list[int] = msgspec.field(default_factory=list)  # seats asked to choose, in order
    choices: dict[int, int] = msgspec.field(default_factory=dict)  # seat -> resource index or edge
    # Set only on decide's scratch copy while an Epidemic's production is computed.
    epidemic: bool = False
