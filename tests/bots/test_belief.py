"""The belief tracker (bots/belief.py) is exact wherever the seat's log is exact, and a
distribution that public events narrow down otherwise. Events are fed as the seat's log gives
them (`engine.redact`): a steal the seat was not part of arrives without its resource."""

from __future__ import annotations

import pytest

from bots.belief import BeliefTracker
from events.events import (
    CardStolen,
    DevelopmentCardBought,
    Event,
    MonopolyPlayed,
    ResourcesDiscarded,
    ResourcesProduced,
    SettlementBuilt,
    TradeCompleted,
    YearOfPlentyPlayed,
)
from events.types import Bundle
from services.rules.engine import new_game
from services.rules.engine.state import MAIN

SEAT = 0  # the tracker's seat
# lumber, brick, wool, grain, ore (the engine's resource order)
START: tuple[Bundle, ...] = ({"ore": 2, "grain": 1}, {"brick": 2, "lumber": 1, "wool": 1, "grain": 1},
         {"brick": 1, "ore": 1}, {"wool": 3, "grain": 1, "ore": 2})


def tracker() -> BeliefTracker:
    t = BeliefTracker(new_game("belief", 4, b"belief-test"), SEAT, particles=24, seed=5)
    for s in t.particles:
        s.phase = MAIN  # builds are paid for (not set-up)
        s.current = 1
    t.observe(ResourcesProduced(gains=START))
    return t


def hand(**cards: int) -> tuple[int, ...]:
    return tuple(cards.get(r, 0) for r in ("lumber", "brick", "wool", "grain", "ore"))


def feed(t: BeliefTracker, *events: Event) -> None:
    t.observe_all(events)


def test_production_is_exact() -> None:
    t = tracker()
    assert t.exact_hand(1) == hand(brick=2, lumber=1, wool=1, grain=1)
    assert t.hand_distribution(3) == {hand(wool=3, grain=1, ore=2): 1.0}


def test_a_trade_is_exact() -> None:
    t = tracker()
    feed(t, TradeCompleted(seat=1, partner=3, give={"brick": 1}, get={"wool": 2}))
    assert t.exact_hand(1) == hand(brick=1, lumber=1, wool=3, grain=1)
    assert t.exact_hand(3) == hand(brick=1, wool=1, grain=1, ore=2)


def test_a_build_is_exact() -> None:
    t = tracker()
    v = next(v for v in range(t.particles[0].board.n_vertices) if t.particles[0].board.topo.vertex_is_land[v])
    feed(t, SettlementBuilt(seat=1, vertex=v))
    assert t.exact_hand(1) == hand(brick=1)


@pytest.mark.parametrize(("thief", "victim"), [(SEAT, 2), (2, SEAT)])
def test_a_steal_seen_by_the_victim_or_the_thief_is_exact(thief: int, victim: int) -> None:
    t = tracker()
    feed(t, CardStolen(thief=thief, victim=victim, resource="ore", n=0))
    assert t.exact_hand(SEAT) == (hand(ore=3, grain=1) if thief == SEAT else hand(ore=1, grain=1))
    assert t.exact_hand(2) == (hand(brick=1) if thief == SEAT else hand(brick=1, ore=2))


def test_a_steal_seen_by_neither_is_a_distribution_that_later_events_resolve() -> None:
    t = tracker()
    feed(t, CardStolen(thief=1, victim=2, resource=None, n=0))  # as seat 0's log shows it
    dist = t.hand_distribution(2)
    assert set(dist) == {hand(brick=1), hand(ore=1)}
    assert t.exact_hand(1) is None
    assert sum(t.expected_hand(1)) == pytest.approx(6)
    # Seat 2 now discards its ore: it still had it, so the thief took the brick.
    feed(t, ResourcesDiscarded(seat=2, resources={"ore": 1}))
    assert t.exact_hand(2) == hand()
    assert t.exact_hand(1) == hand(brick=3, lumber=1, wool=1, grain=1)


def test_a_discard_is_exact() -> None:
    t = tracker()
    feed(t, ResourcesDiscarded(seat=3, resources={"wool": 2, "ore": 1}))
    assert t.exact_hand(3) == hand(wool=1, grain=1, ore=1)


def test_a_monopoly_is_exact_and_resolves_an_unseen_steal() -> None:
    t = tracker()
    feed(t, DevelopmentCardBought(seat=3, card=None, n=0))  # a card seat 0 does not see
    feed(t, CardStolen(thief=1, victim=2, resource=None, n=0))
    assert t.exact_hand(2) is None
    # Seat 3 takes every ore: seat 2 gave up 1, so it still had its ore after the steal.
    feed(t, MonopolyPlayed(seat=3, resource="ore", taken=(2, 0, 1, 0)))
    assert t.exact_hand(2) == hand()
    assert t.exact_hand(1) == hand(brick=3, lumber=1, wool=1, grain=1)
    assert t.exact_hand(SEAT) == hand(grain=1)
    assert t.exact_hand(3) == hand(wool=2, ore=4)
    assert t.dev_distribution(3) == {(0, 0, 0, 0, 0): 1.0}  # the card it bought was played


def test_year_of_plenty_is_exact() -> None:
    t = tracker()
    feed(t, YearOfPlentyPlayed(seat=2, resources={"grain": 2}))
    assert t.exact_hand(2) == hand(brick=1, ore=1, grain=2)


def test_a_card_bought_by_another_seat_is_counted_not_known() -> None:
    t = tracker()
    feed(t, DevelopmentCardBought(seat=3, card=None, n=0))
    assert t.exact_hand(3) == hand(wool=2, ore=1)  # the price is public
    devs = t.dev_distribution(3)
    assert all(sum(d) == 1 for d in devs)
    assert len(devs) > 1  # which card: a spread over the deck
    assert all(sum(s.deck) == 24 for s in t.particles)
