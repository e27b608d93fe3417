"""Traders & Barbarians: gold, the development deck, no Longest Road and the target (docs/rules/
traders-and-barbarians.md §10.10–§10.12)."""

from __future__ import annotations

from tb_helpers import table, tb

from events.commands import BuildRoad, BuyDevelopmentCard, EndTurn
from events.events import GameFinished, LongestRoadChanged, ModuleSpec
from events.traders_and_barbarians import (
    TraderBuyResource,
    TraderCardBought,
    TraderSellResource,
    UpgradeWagon,
)
from services.rules.engine import pending, redact, score, view
from services.rules.engine.scenarios.traders_and_barbarians.data import DECK

HARBORMASTER = ModuleSpec(name="harbormaster")


def test_traders_and_barbarians_gold_buy() -> None:
    t = table()
    t.turn_of(0)
    t.when(TraderBuyResource(seat=0, resource="ore"))
    assert t.hand(0) == {"ore": 1}
    assert tb(t).gold[0] == 3
    t.when(TraderBuyResource(seat=0, resource="wool"))
    tb(t).gold[0] = 10
    t.rejects(TraderBuyResource(seat=0, resource="ore"), "traders_and_barbarians.gold.buy")
    assert not any(isinstance(o, TraderBuyResource) for o in pending(t.state)[0].options)
    t.when(EndTurn(seat=0))
    t.turn_of(0)
    t.set_bank(grain=0)
    t.rejects(TraderBuyResource(seat=0, resource="grain"), "traders_and_barbarians.gold.buy")
    tb(t).gold[0] = 1
    t.rejects(TraderBuyResource(seat=0, resource="ore"), "traders_and_barbarians.gold.buy")


def test_traders_and_barbarians_gold_sell() -> None:
    t = table()
    t.turn_of(0)
    t.give(0, ore=4, brick=3)
    t.rejects(TraderSellResource(seat=0, resource="brick"), "traders_and_barbarians.gold.sell")
    t.when(TraderSellResource(seat=0, resource="ore"))
    assert t.hand(0) == {"brick": 3}
    assert tb(t).gold[0] == 6
    # At a generic harbor 3:1, at the matching 2:1 harbor 2:1.
    t.state.players[0].ratios = [3, 2, 3, 3, 3]
    t.when(TraderSellResource(seat=0, resource="brick"))
    assert t.hand(0) == {"brick": 1}
    assert tb(t).gold[0] == 7


def test_traders_and_barbarians_dev_deck() -> None:
    t = table()
    vocab = t.state.rules.vocab
    deck = dict(zip(vocab.dev_cards, t.state.deck, strict=True))
    assert deck == {**DECK, "swift_journey": 3, "toolmaking": 1, "glassmaking": 1, "quarry": 1}
    assert deck["knight"] == 16
    assert deck["victory_point"] == 0  # the scenario's three one-point cards instead
    assert sum(deck.values()) == 25


def test_traders_and_barbarians_dev_deck_one_point_cards_are_told_apart_and_score() -> None:
    t = table()
    t.turn_of(0)
    before = score(t.state)[0]
    for name in ("glassmaking", "quarry"):
        t.give(0, wool=1, grain=1, ore=1)
        t.script("devcard", name)
        (bought,) = t.when(BuyDevelopmentCard(seat=0))
        assert isinstance(bought, TraderCardBought)
        assert bought.card == name
        assert redact(t.state, bought, 1).card is None  # type: ignore[attr-defined]
    assert view(t.state, 0).players[0].dev_hand == {"glassmaking": 1, "quarry": 1}
    assert score(t.state)[0] == before + 2
    seen_by_1 = view(t.state, 1).players[0]
    assert seen_by_1.dev_hand is None
    assert seen_by_1.dev_cards == 2
    assert seen_by_1.public_vp == before  # hidden points


def test_traders_and_barbarians_dev_deck_purchase_is_private() -> None:
    t = table()
    t.turn_of(0)
    t.give(0, wool=1, grain=1, ore=1)
    t.script("devcard", "swift_journey")
    (bought,) = t.when(BuyDevelopmentCard(seat=0))
    assert isinstance(bought, TraderCardBought)
    assert bought.card == "swift_journey"
    for seat in (1, 2, 3, None):
        assert redact(t.state, bought, seat).card is None  # type: ignore[attr-defined]
    assert redact(t.state, bought, 0) == bought


def test_traders_and_barbarians_road_no_longest() -> None:
    t = table()
    t.turn_of(0)
    # Five roads around the hex (1,-1), then the sixth closes a trail of six.
    sides = ["(1,-1)/(2,-2)", "(1,-1)/(2,-1)", "(1,-1)/(1,0)", "(0,0)/(1,-1)", "(0,-1)/(1,-1)"]
    for side in sides:
        t.road(0, t.edge(side))
    t.give(0, lumber=1, brick=1)
    events = t.when(BuildRoad(seat=0, edge=t.edge("(1,-2)/(1,-1)")))
    assert t.state.players[0].road_length >= 5
    assert not any(isinstance(e, LongestRoadChanged) for e in events)
    assert t.state.longest_holder == -1


def test_traders_and_barbarians_win_target() -> None:
    t = table()
    assert t.state.rules.hooks.win_target(t.state, 0) == 13
    t.turn_of(0)
    tb(t).delivered[0] = [3, 3, 3, 1]  # 10 commodities + the settlement and the city: 13
    tb(t).level[0] = 4
    assert score(t.state)[0] == 13
    tb(t).delivered[0] = [3, 3, 3, 0]
    t.give(0, lumber=2, wool=1, ore=1)
    events = t.when(UpgradeWagon(seat=0))  # card 5: the 13th point
    assert isinstance(events[-1], GameFinished)
    assert events[-1].winner == 0


def test_traders_and_barbarians_win_target_with_harbormaster_is_14() -> None:
    t = table(modules=(HARBORMASTER,))
    assert t.state.rules.hooks.win_target(t.state, 0) == 14
