"""Hidden information with the Traders & Barbarians variants, alone and in every pair that has
event-cards or catan-for-two (the two with secrets): the event deck's order is secret, the
revealed card is public, a forced trade's cards are private to the two players involved, and
every other private event of these modules is redacted for everyone it does not concern.

The redaction checks run on every event of complete random games, for the spectator (seat
None) and for every seat; the deck check plays two games that share their whole public history
but not the order of the cards still in the deck, and finds no trace of the difference.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import pytest
from test_pairs import PAIRS

from bots.local import next_prompt
from bots.random_bot import RandomBot
from events.catan_for_two import ForcedTradeDrawn, ForcedTradeReturned
from events.codec import Codec
from events.commands import RollDice
from events.event_cards import (
    AssistanceGiven,
    EventCardDrawn,
    EventChoiceMade,
    NeighborsGifted,
)
from events.events import CardStolen, DevelopmentCardBought, Event, ModuleSpec
from services.rules.engine import decide, evolve, initial_state, new_game, pending, redact, view
from services.rules.engine.chance import Dealer, SeededDealer
from services.rules.engine.state import ROLL, State

T = TypeVar("T")

COMBOS: list[tuple[str, ...]] = [("event-cards",), ("catan-for-two",)] + [
    p for p in PAIRS if "event-cards" in p or "catan-for-two" in p
]
IDS = ["+".join(c) for c in COMBOS]
DECK_COMBOS = [c for c in COMBOS if "event-cards" in c]

# Private event type -> (its private fields, the seats that may see them).
PRIVATE: dict[type[Event], tuple[tuple[str, ...], Callable[[Any], set[int]]]] = {
    CardStolen: (("resource",), lambda e: {e.thief, e.victim}),
    DevelopmentCardBought: (("card",), lambda e: {e.seat}),
    ForcedTradeDrawn: (("cards",), lambda e: {e.seat, e.victim}),
    ForcedTradeReturned: (("resources",), lambda e: {e.seat, e.victim}),
    EventChoiceMade: (("resource", "edge"), lambda e: {e.seat}),
    AssistanceGiven: (("resource",), lambda e: {e.giver, e.receiver}),
    NeighborsGifted: (("resources",), lambda e: set()),  # per gift: see check_gifts
}
# What the spectator view of the event deck may hold: public counts, the face-up card.
DECK_VIEW_KEYS = {"cycle", "revealed", "until_new_year", "last_card", "damaged_roads", "event",
                  "waiting"}


def seats_of(combo: Sequence[str]) -> int:
    return 2 if "catan-for-two" in combo else 4


def check_redactions(state: State, e: Event, counts: Counter[str]) -> None:
    kind = type(e)
    if kind not in PRIVATE:
        for seat in (None, *range(state.n)):
            assert redact(state, e, seat) == e, f"{kind.__name__} is public"
        return
    counts[kind.__name__] += 1
    if kind is NeighborsGifted:
        check_gifts(state, e)  # type: ignore[arg-type]
        return
    fields, involved = PRIVATE[kind]
    who = involved(e)
    for seat in (None, *range(state.n)):
        shown = redact(state, e, seat)
        if seat in who:
            assert shown == e, (seat, e)
        else:
            assert all(getattr(shown, f) is None for f in fields), (seat, shown)
            # Only the private fields are hidden; the fact of the event stays public.
            assert {k: getattr(shown, k) for k in shown.__struct_fields__ if k not in fields} == {
                k: getattr(e, k) for k in e.__struct_fields__ if k not in fields}


def check_gifts(state: State, e: NeighborsGifted) -> None:
    for seat in (None, *range(state.n)):
        shown = redact(state, e, seat)
        assert isinstance(shown, NeighborsGifted)
        for g, t, r, s in zip(e.givers, e.receivers, e.resources, shown.resources, strict=True):
            assert s == (r if seat in (g, t) else None), (seat, shown)


def deck_view_from_log(log: Sequence[Event], per_cycle: int) -> dict[str, Any]:
    """What the spectator may know of the deck: recounted from the public card events."""
    cycle, revealed, last = 0, Counter[tuple[int, str]](), None
    for e in log:
        if isinstance(e, EventCardDrawn):
            if e.event == "new_year" or e.cycle != cycle:
                cycle, revealed = (e.cycle + 1 if e.event == "new_year" else e.cycle), Counter()
            if e.event != "new_year":
                revealed[(e.number, e.event)] += 1
                last = {"number": e.number, "event": e.event}
    return {"cycle": cycle, "revealed": revealed, "until_new_year": per_cycle - sum(revealed.values()),
            "last_card": last}


def check_views(state: State, log: Sequence[Event], counts: Counter[str]) -> None:
    counts["views"] += 1
    spectator = view(state, None)
    assert all(p.hand is None and p.dev_hand is None and p.vp is None for p in spectator.players)
    if "event_cards" not in spectator.ext:
        return
    for seat in (None, *range(state.n)):
        deck = view(state, seat).ext["event_cards"]
        assert set(deck) - {"my_choice"} == DECK_VIEW_KEYS
        assert seat is not None or "my_choice" not in deck
    deck = spectator.ext["event_cards"]
    expected = deck_view_from_log(log, state.ext["event_cards"].per_cycle)
    assert deck["cycle"] == expected["cycle"]
    assert {(n, ev): c for n, ev, c in deck["revealed"]} == dict(expected["revealed"])
    assert deck["until_new_year"] == expected["until_new_year"]
    assert deck["last_card"] == expected["last_card"]


@pytest.mark.parametrize("combo", COMBOS, ids=IDS)
def test_every_private_event_of_these_modules_has_a_redactor(combo: tuple[str, ...]) -> None:
    created = new_game("r", seats_of(combo), b"r", modules=[ModuleSpec(name=n) for n in combo])
    rules = initial_state(created).rules
    private_here = {k for k in PRIVATE if k in rules.registry.evolvers}
    assert private_here <= set(rules.registry.redactors)
    # No other event of these modules is redacted: PRIVATE lists them all.
    mine = {"events.catan_for_two", "events.event_cards", "events.harbormaster"}
    assert {k for k in rules.registry.redactors if k.__module__ in mine} <= private_here
    assert EventCardDrawn not in rules.registry.redactors  # the revealed card is public


@pytest.mark.parametrize("combo", COMBOS, ids=IDS)
def test_private_draws_and_choices_are_redacted_for_everyone_not_involved(
        combo: tuple[str, ...]) -> None:
    counts: Counter[str] = Counter()
    seats = seats_of(combo)
    for g in range(12):
        seed = f"hidden:{'+'.join(combo)}:{g}".encode()
        created = new_game(f"h{g}", seats, seed, modules=[ModuleSpec(name=n) for n in combo],
                           turn_limit=600)
        dealer = SeededDealer(seed)
        state = initial_state(created)
        bots = [RandomBot(g * 10 + s) for s in range(seats)]
        log: list[Event] = []
        while not state.finished:
            prompt = next_prompt(state, pending(state))
            for e in decide(state, bots[prompt.seat].choose(None, prompt), dealer):
                evolve(state, e)
                log.append(e)
                check_redactions(state, e, counts)
            if state.version % 7 == 0:
                check_views(state, log, counts)
    assert counts["views"] > 100
    expected = {"CardStolen", "DevelopmentCardBought"}
    if "catan-for-two" in combo:
        expected |= {"ForcedTradeDrawn", "ForcedTradeReturned"}
    if "event-cards" in combo:
        expected |= {"EventChoiceMade", "NeighborsGifted"}
    assert expected <= set(counts), expected - set(counts)


# --- the deck order -------------------------------------------------------------------------


class SplitDealer:
    """Every chance point from `common`, except the event cards after the first `shared`
    reveals, which come from `deck`: two such dealers share a public history up to there."""

    def __init__(self, common: bytes, deck: bytes, shared: int) -> None:
        self.common, self.deck, self.shared = SeededDealer(common), SeededDealer(deck), shared

    def pick(self, key: str, outcomes: Sequence[T], weights: Sequence[int]) -> T:
        if key.startswith("eventdeck:"):
            _, cycle, index = key.split(":")
            if int(cycle) > 0 or int(index) >= self.shared:
                return self.deck.pick(key, outcomes, weights)
        return self.common.pick(key, outcomes, weights)

    def seed_hex(self) -> str:
        return ""


def play_until(state: State, dealer: Dealer, bots: Sequence[RandomBot], log: list[Event],
               done: Callable[[State], bool]) -> None:
    while not state.finished and not done(state):
        prompt = next_prompt(state, pending(state))
        for e in decide(state, bots[prompt.seat].choose(None, prompt), dealer):
            evolve(state, e)
            log.append(e)


@pytest.mark.parametrize("combo", DECK_COMBOS, ids=["+".join(c) for c in DECK_COMBOS])
def test_event_deck_order_is_secret_nothing_differs_until_a_card_is_revealed(
        combo: tuple[str, ...]) -> None:
    shared = 12  # cards revealed before the two decks part
    seats = seats_of(combo)
    created = new_game("deck", seats, b"deck", modules=[ModuleSpec(name=n) for n in combo])
    games = []
    for deck_seed in (b"deck-one", b"deck-two"):
        dealer = SplitDealer(b"common", deck_seed, shared)
        state = initial_state(created)
        bots = [RandomBot(s) for s in range(seats)]
        log: list[Event] = []
        play_until(state, dealer, bots, log,
                   lambda s: s.ext["event_cards"].index >= shared and s.phase == ROLL)
        games.append((state, dealer, bots, log))
    (a, _, _, log_a), (b, _, _, log_b) = games
    assert a.ext["event_cards"].index == shared
    assert a.to_dict() == b.to_dict()  # the state holds no order at all
    codec = Codec()
    for seat in (None, *range(seats)):
        assert codec.encoder.encode(view(a, seat)) == codec.encoder.encode(view(b, seat))
        assert [codec.encoder.encode(redact(a, e, seat)) for e in log_a] == [
            codec.encoder.encode(redact(b, e, seat)) for e in log_b]
    pending_a = [codec.encoder.encode(p) for p in pending(a)]
    assert pending_a == [codec.encoder.encode(p) for p in pending(b)]
    # ... and still the two decks differ: the next reveals are not the same cards.
    following = [
        [(e.number, e.event) for e in decide(s, RollDice(seat=s.current), d)
         if isinstance(e, EventCardDrawn)]
        for s, d, _, _ in games
    ]
    assert following[0] != following[1], following
