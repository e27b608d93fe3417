"""The heuristic bot in the variants' own stages (bots/heuristic_catan_for_two.py,
bots/heuristic_event_cards.py): the decisions a prompt's default would not take.

Catan for Two table (beginner board, 2 seats, desert (0,0)): seat 0 sits next to (-2,0) and
(-1,-1); tokens 5 each. Complete games of every variant and pair with heuristic bots are in
test_pairs.py and the per-variant files.
"""

from __future__ import annotations

from bots.heuristic import HeuristicBot
from bots.local import next_prompt
from events.catan_for_two import DiscardKnight, ForceTrade, GiveBackCards, SendRobberToDesert
from events.commands import Command, EndTurn
from events.event_cards import RepairRoad
from events.events import ModuleSpec
from services.rules.engine import pending, view
from services.rules.engine.testing import Table

C42 = ModuleSpec(name="catan-for-two")


def table() -> Table:
    t = Table(seats=2, modules=[C42])
    t.state.ext["catan-for-two"].tokens = [5, 5]
    t.state.ext["catan-for-two"].supply = 10
    t.turn_of(0)
    t.state.ext["catan-for-two"].step = 2  # both rolls done: the trade/build part of the turn
    return t


def heuristic(t: Table) -> Command:
    prompt = next_prompt(t.state, pending(t.state))
    command = HeuristicBot(0).choose(view(t.state, prompt.seat), prompt)
    assert command in prompt.options or not prompt.options
    return command


def test_heuristic_catan_for_two_sends_the_robber_to_the_desert_when_it_blocks_its_hex() -> None:
    t = table()
    t.state.robber = t.hex("(-1,-1)")
    t.give(1, ore=4)
    assert isinstance(heuristic(t), SendRobberToDesert)


def test_heuristic_catan_for_two_forces_a_trade_on_a_rich_opponent() -> None:
    t = table()
    t.give(1, ore=2, wool=1)
    assert isinstance(heuristic(t), ForceTrade)
    t.take_all(1)
    t.give(1, ore=2)  # too few cards to be worth a token
    assert isinstance(heuristic(t), EndTurn)


def test_heuristic_catan_for_two_gives_back_the_cards_its_next_build_needs_least() -> None:
    t = table()
    t.give(0, grain=2, ore=2, wool=2)
    t.give(1, ore=1, lumber=1)
    t.script("forcedtrade", "ore", "lumber")
    t.when(ForceTrade(seat=0))
    command = heuristic(t)  # hand: 2 grain, 3 ore (a city), 2 wool, 1 lumber
    assert isinstance(command, GiveBackCards)
    assert sum(command.resources.values()) == 2
    assert command.resources.get("grain", 0) == 0
    assert command.resources.get("ore", 0) == 0


def test_heuristic_catan_for_two_keeps_its_knights_unless_short_of_tokens_and_army_is_settled() -> None:
    t = table()
    t.state.players[0].knights = 5
    assert isinstance(heuristic(t), EndTurn)  # 5 tokens: no need to give up a knight
    t.state.ext["catan-for-two"].tokens = [0, 5]
    t.state.army_holder = 0
    assert isinstance(heuristic(t), DiscardKnight)  # short of tokens; 4 knights still hold it
    t.state.players[1].knights = 4
    assert isinstance(heuristic(t), EndTurn)  # the discard would put the army at risk


def test_heuristic_event_cards_repairs_a_damaged_road() -> None:
    t = Table(seats=4, modules=[ModuleSpec(name="event-cards")])
    t.turn_of(0)
    t.state.ext["event_cards"].damaged[0] = next(iter(t.state.players[0].roads))
    t.give(0, lumber=1, brick=1)
    assert isinstance(heuristic(t), RepairRoad)
