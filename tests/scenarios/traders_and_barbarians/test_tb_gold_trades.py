"""Traders & Barbarians: gold in domestic trades (docs/rules/traders-and-barbarians.md §10.11,
`gold.trade`): gold is the game's currency, named in the base game's offer."""

from __future__ import annotations

from tb_helpers import table, tb

from events.commands import AcceptTrade, ConfirmTrade, CounterTrade, EndTurn, ProposeTrade
from events.events import TradeCompleted
from events.traders_and_barbarians import MoveWagon
from services.rules.engine import pending, view
from services.rules.engine.state import MAIN
from services.rules.engine.testing import Table

RULE = "traders_and_barbarians.gold.trade"


def offer(t: Table, give: dict[str, int], get: dict[str, int]) -> None:
    t.when(ProposeTrade(seat=0, give=give, get=get))


def test_traders_and_barbarians_gold_trade_gold_for_cards() -> None:
    t = table()
    t.turn_of(0)
    t.give(1, ore=2)
    offer(t, give={"gold": 3}, get={"ore": 1})
    assert view(t.state, 2).ext["traders-and-barbarians"]["trade_gold"] == [3, 0]
    t.when(AcceptTrade(seat=1))
    events = t.when(ConfirmTrade(seat=0, partner=1))
    assert events[0] == TradeCompleted(seat=0, partner=1, give={"gold": 3}, get={"ore": 1})
    assert tb(t).gold[:2] == [2, 8]
    assert t.hand(0) == {"ore": 1}
    assert t.hand(1) == {"ore": 1}
    assert t.state.phase == MAIN


def test_traders_and_barbarians_gold_trade_cards_for_gold() -> None:
    t = table()
    t.turn_of(0)
    t.give(0, wool=1)
    tb(t).gold[2] = 1
    offer(t, give={"wool": 1}, get={"gold": 2})
    seat2 = next(p for p in pending(t.state) if p.seat == 2)
    assert not any(isinstance(o, AcceptTrade) for o in seat2.options)  # 1 gold: cannot pay
    t.rejects(AcceptTrade(seat=2), RULE)
    t.when(AcceptTrade(seat=1))
    t.when(ConfirmTrade(seat=0, partner=1))
    assert tb(t).gold[:2] == [7, 3]
    assert t.hand(1) == {"wool": 1}


def test_traders_and_barbarians_gold_trade_terms() -> None:
    t = table()
    t.turn_of(0)
    t.give(0, wool=1)
    t.rejects(ProposeTrade(seat=0, give={"gold": 1}, get={"ore": 1, "gold": 1}), RULE)
    t.rejects(ProposeTrade(seat=0, give={"gold": 6}, get={"ore": 1}), RULE)  # holds 5
    t.rejects(ProposeTrade(seat=0, give={"gold": 1}, get={}), "base.trade.no_gift")
    t.rejects(ProposeTrade(seat=0, give={"ore": 1}, get={"gold": 1}), "base.trade.not_held")
    t.rejects(ProposeTrade(seat=0, give={"gold": -1}, get={"ore": 1}), "base.command.invalid")
    offer(t, give={"gold": 1}, get={"ore": 1})
    t.rejects(ProposeTrade(seat=0, give={"gold": 1}, get={"ore": 1}), "base.trade.already_open")


def test_traders_and_barbarians_gold_trade_a_counter_moves_only_its_own_terms() -> None:
    t = table()
    t.turn_of(0)
    t.give(0, wool=1)
    t.give(1, ore=1)
    offer(t, give={"gold": 2}, get={"ore": 1})
    t.when(CounterTrade(seat=1, give={"ore": 1}, get={"wool": 1}))
    events = t.when(ConfirmTrade(seat=0, partner=1))
    assert events[0] == TradeCompleted(seat=0, partner=1, give={"wool": 1}, get={"ore": 1})
    assert tb(t).gold[:2] == [5, 5]
    assert t.hand(0) == {"ore": 1}


def test_traders_and_barbarians_gold_trade_only_while_trading_and_building() -> None:
    t = table()
    t.turn_of(0)
    t.give(0, wool=1)
    t.when(ProposeTrade(seat=0, give={"wool": 1}, get={"ore": 1}))
    assert view(t.state, 1).ext["traders-and-barbarians"]["trade_gold"] == [0, 0]
    t2 = table()
    t2.turn_of(0)
    (city,) = t2.state.players[0].cities
    step = next(o for o in pending(t2.state)[0].options if isinstance(o, MoveWagon))
    t2.when(step)
    t2.rejects(ProposeTrade(seat=0, give={"gold": 1}, get={"ore": 1}),
               "traders_and_barbarians.wagon.phase")
    t2.when(EndTurn(seat=0))
    assert city in t2.state.players[0].cities
