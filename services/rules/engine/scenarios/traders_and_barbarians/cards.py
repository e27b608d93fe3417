"""The scenario's development deck (docs/rules/traders-and-barbarians.md §10.10): 16 Knights,
3 Road Building, 3 Swift Journey, and Toolmaking, Glassmaking and Quarry (1 VP each, kept
hidden like the base VP card). Swift Journey and the three are not base cards, so a purchase is
this scenario's own private event (`TraderCardBought`), redacted like the base one."""

from __future__ import annotations

import msgspec

from events.commands import BuyDevelopmentCard
from events.events import Event
from events.traders_and_barbarians import PlaySwiftJourney, SwiftJourneyPlayed, TraderCardBought
from services.rules.engine.base.common import pay, require_afford, require_current
from services.rules.engine.base.devcards import playable, require_playable, take_dev_card
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.scenarios.traders_and_barbarians.common import WAGON, tb
from services.rules.engine.scenarios.traders_and_barbarians.data import (
    DECK,
    POINT_CARDS,
    SWIFT_JOURNEY,
    card,
)
from services.rules.engine.state import State
from services.rules.engine.vocab import Vocabulary


def install_deck(vocab: Vocabulary, copies: int) -> None:
    for name, n in DECK.items():
        vocab.set_copies(name, n)
    vocab.add_dev_card(SWIFT_JOURNEY, copies)
    for name in POINT_CARDS:
        vocab.add_dev_card(name, 1, point=True)


def buy(state: State, cmd: BuyDevelopmentCard, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    if not any(state.deck):
        raise reject("base.dev.empty_deck", "the development deck is empty")
    require_afford(state, cmd.seat, "development_card", "base.dev.cost")
    drawn = dealer.pick(f"devcard:{state.dev_draws}", state.rules.vocab.dev_cards, state.deck)
    return [TraderCardBought(seat=cmd.seat, card=drawn, n=state.dev_draws)]


def swift_index(state: State) -> int:
    return state.rules.vocab.dev_index[SWIFT_JOURNEY]


def play_swift(state: State, cmd: PlaySwiftJourney, dealer: Dealer) -> list[Event]:
    require_playable(state, cmd.seat, swift_index(state))
    return [SwiftJourneyPlayed(seat=cmd.seat)]


def swift_playable(state: State, seat: int) -> bool:
    return playable(state, seat, swift_index(state))


def redact_bought(e: TraderCardBought, seat: int | None) -> Event:
    return e if seat == e.seat else msgspec.structs.replace(e, card=None)


def evolve_bought(state: State, e: TraderCardBought) -> None:
    pay(state, e.seat, state.rules.cache.costs["development_card"])
    take_dev_card(state, e.seat, e.card)


def evolve_swift(state: State, e: SwiftJourneyPlayed) -> None:
    """A second full movement: at once if the first already ended at a plaza, else when it
    ends (`dev.swift_journey`)."""
    c = swift_index(state)
    state.players[e.seat].dev[c] -= 1
    state.dev_played = True
    t = tb(state)
    if state.phase == WAGON and t.over:
        t.over = False
        t.mp = card(t.level[e.seat]).mp
    else:
        t.second = True
