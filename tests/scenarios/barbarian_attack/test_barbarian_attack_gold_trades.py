"""Barbarian Attack: gold in domestic trades (docs/rules/barbarian-attack.md §9.10,
`gold.trade`): gold is the game's currency, named in the base game's offer (one side only, each
side holding what it gives), moved on confirmation in the deal's one `TradeCompleted`, never
once the knights march."""

from __future__ import annotations

from ba_helpers import ext, knight, table

from events.barbarian_attack import BeginMarch
from events.commands import AcceptTrade, ConfirmTrade, CounterTrade, ProposeTrade
from events.events import TradeAnswered, TradeCompleted
from services.rules.engine import pending, view
from services.rules.engine.scenarios.barbarian_attack.common import geometry
from services.rules.engine.state import MAIN
from services.rules.engine.testing import Table

RULE = "barbarian_attack.gold.trade"


def with_gold(*gold: int) -> Table:
    t = table()
    ext(t).gold[: len(gold)] = list(gold)
    return t


def test_barbarian_attack_gold_trade_gold_for_cards() -> None:
    t = with_gold(4, 0, 0)
    t.give(1, ore=2)
    t.when(ProposeTrade(seat=0, give={"gold": 3}, get={"ore": 1}))
    assert view(t.state, 2).ext["barbarian-attack"]["trade_gold"] == [3, 0]
    t.when(AcceptTrade(seat=1))
    events = t.when(ConfirmTrade(seat=0, partner=1))
    assert events[0] == TradeCompleted(seat=0, partner=1, give={"gold": 3}, get={"ore": 1})
    assert ext(t).gold == [1, 3, 0]
    assert t.hand(0) == {"ore": 1}
    assert t.hand(1) == {"ore": 1}
    assert t.state.phase == MAIN
    assert view(t.state, 2).ext["barbarian-attack"]["trade_gold"] is None


def test_barbarian_attack_gold_trade_cards_for_gold_only_from_a_seat_that_can_pay() -> None:
    t = with_gold(0, 5, 1)
    t.give(0, wool=1)
    t.when(ProposeTrade(seat=0, give={"wool": 1}, get={"gold": 2}))
    seat2 = next(p for p in pending(t.state) if p.seat == 2)
    assert not any(isinstance(o, AcceptTrade) for o in seat2.options)  # 1 gold: cannot pay
    t.rejects(AcceptTrade(seat=2), RULE)
    t.when(AcceptTrade(seat=1))
    t.when(ConfirmTrade(seat=0, partner=1))
    assert ext(t).gold == [2, 3, 1]
    assert t.hand(1) == {"wool": 1}


def test_barbarian_attack_gold_trade_terms_are_checked_and_change_nothing() -> None:
    t = with_gold(2, 2, 2)
    t.give(0, wool=1)
    t.rejects(ProposeTrade(seat=0, give={"gold": 1}, get={"ore": 1, "gold": 1}), RULE)
    t.rejects(ProposeTrade(seat=0, give={"gold": 3}, get={"ore": 1}), RULE)  # holds 2
    t.rejects(ProposeTrade(seat=0, give={"ore": 1}, get={"gold": 1}), "base.trade.not_held")
    t.rejects(ProposeTrade(seat=1, give={"gold": 1}, get={"ore": 1}), "base.turn.not_your_turn")
    assert ext(t).gold == [2, 2, 2]
    assert t.state.trade is None


def test_barbarian_attack_gold_trade_a_counter_states_its_own_terms() -> None:
    """A counter names what it gives and wants like an offer: cards only here, so the deal
    closed on it moves no gold (a counter may name gold too)."""
    t = with_gold(3, 3, 3)
    t.give(0, wool=1)
    t.give(1, ore=1)
    t.when(ProposeTrade(seat=0, give={"gold": 2}, get={"ore": 1}))
    t.when(CounterTrade(seat=1, give={"ore": 1}, get={"wool": 1}))
    events = t.when(ConfirmTrade(seat=0, partner=1))
    assert events[0] == TradeCompleted(seat=0, partner=1, give={"wool": 1}, get={"ore": 1})
    assert ext(t).gold == [3, 3, 3]
    assert t.hand(0) == {"ore": 1}
    t.give(0, wool=1)
    t.when(ProposeTrade(seat=0, give={"wool": 1}, get={"ore": 1}))
    t.rejects(CounterTrade(seat=1, give={"gold": 4}, get={"wool": 1}), RULE)
    assert t.when(CounterTrade(seat=1, give={"gold": 3}, get={"wool": 1})) == [
        TradeAnswered(seat=1, answer="counter", give={"gold": 3}, get={"wool": 1})]


def test_barbarian_attack_gold_trade_is_closed_once_the_knights_march() -> None:
    t = with_gold(3, 0, 0)
    castle = min(geometry(t.state.board).castle_edges)
    knight(t, 0, castle)
    offer = ProposeTrade(seat=0, give={"gold": 1}, get={"ore": 1})
    t.when(BeginMarch(seat=0))
    t.rejects(offer, "barbarian_attack.knight.move")
    assert not any(isinstance(o, ProposeTrade) for o in pending(t.state)[0].options)
