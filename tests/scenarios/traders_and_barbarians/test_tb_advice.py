"""The heuristic bot in Traders & Barbarians (the scenario's advice): it drives its wagon to the
plaza that needs its commodity and delivers, and moves barbarians onto a leader's road."""

from __future__ import annotations

from tb_helpers import CORNER_TO_INLAND, INLAND, SPOKE, put_wagon, table, tb

from bots.heuristic import HeuristicBot
from events.commands import RollDice
from events.traders_and_barbarians import CommodityDelivered, MoveBarbarianOnPath, MoveWagon
from services.rules.engine import next_prompt, pending, view
from services.rules.engine.testing import Table


def choose(t: Table, bot: HeuristicBot) -> object:
    prompt = next_prompt(t.state, pending(t.state))
    return bot.choose(view(t.state, prompt.seat), prompt)


def test_the_heuristic_bot_drives_to_the_plaza_that_needs_its_commodity_and_delivers() -> None:
    t = table()
    t.turn_of(0)
    put_wagon(t, 0, INLAND)
    tb(t).cargo[0] = "tools"  # the quarry needs tools
    bot = HeuristicBot(1)
    first = choose(t, bot)
    assert first == MoveWagon(seat=0, edge=t.edge(CORNER_TO_INLAND))
    t.when(first)  # type: ignore[arg-type]
    second = choose(t, bot)
    assert second == MoveWagon(seat=0, edge=t.edge(SPOKE))
    events = t.when(second)  # type: ignore[arg-type]
    assert any(isinstance(e, CommodityDelivered) for e in events)


def test_the_heuristic_bot_sends_a_barbarian_onto_the_leaders_road() -> None:
    t = table()
    t.give(1, ore=2)
    t.state.players[1].cities.add(t.vertex("(1,-1)/(1,0)/(2,-1)"))  # seat 1 leads
    t.turn_of(0, rolled=False)
    t.script("dice", (3, 4))
    t.when(RollDice(seat=0))
    move = choose(t, HeuristicBot(2))
    assert isinstance(move, MoveBarbarianOnPath)
    assert move.edge in t.state.players[1].roads
