"""Traders & Barbarians with Event Cards (docs/rules/traders-and-barbarians.md §10.14,
event-cards.md §3.7): Robber Attacks is this scenario's 7, Robber Flees does nothing, a damaged
road costs a wagon 2 MP like a path without a road; whole games end and audit clean."""

from __future__ import annotations

import pytest
from recording import Recorder, bot_chooser
from tb_helpers import CORNER_TO_INLAND, INLAND, TB, put_wagon, table, tb

from events.commands import DiscardResources, RollDice
from events.event_cards import RobberFled
from events.events import CardStolen, DiscardRequired, ModuleSpec
from events.traders_and_barbarians import MoveBarbarianOnPath, MoveWagon, WagonMoved
from services.audit.archive import dump_lines, read_lines
from services.audit.audit import audit
from services.rules.engine.scenarios.traders_and_barbarians.common import BARBARIAN
from services.rules.engine.state import MAIN

EVENT_CARDS = ModuleSpec(name="event-cards")
FREE = "(1,0)/(2,-1)"


def test_traders_and_barbarians_event_cards_robber_attacks() -> None:
    t = table(modules=(EVENT_CARDS,))
    t.give(1, ore=9)
    t.road(1, t.edge(FREE))
    t.turn_of(0, rolled=False)
    t.script("eventdeck", (7, "robber_attacks"))
    events = t.when(RollDice(seat=0))
    assert any(isinstance(e, DiscardRequired) for e in events)  # the 7's discards
    t.when(DiscardResources(seat=1, resources={"ore": 4}))
    assert t.state.phase == BARBARIAN  # then a barbarian, not the robber
    events = t.when(MoveBarbarianOnPath(seat=0, barbarian=0, edge=t.edge(FREE)))
    assert any(isinstance(e, CardStolen) and e.victim == 1 for e in events)
    assert t.state.phase == MAIN


def test_traders_and_barbarians_event_cards_robber_flees() -> None:
    t = table(modules=(EVENT_CARDS,))
    t.turn_of(0, rolled=False)
    t.script("eventdeck", (4, "robber_flees"))
    events = t.when(RollDice(seat=0))
    assert not any(isinstance(e, RobberFled) for e in events)
    assert t.state.robber == -1
    assert t.state.phase == MAIN


def test_traders_and_barbarians_wagon_path_cost_of_a_damaged_road() -> None:
    t = table(modules=(EVENT_CARDS,))
    t.turn_of(0)
    put_wagon(t, 0, INLAND)
    edge = t.edge(CORNER_TO_INLAND)
    t.road(2, edge)
    t.state.ext["event_cards"].damaged[2] = edge
    (_, step) = t.when(MoveWagon(seat=0, edge=edge))
    assert isinstance(step, WagonMoved)
    assert step.mp == 2  # like a path without a road
    assert step.toll == 0  # Decision: nor a toll
    assert tb(t).gold[2] == 5


@pytest.mark.parametrize(("seed", "first"), [(b"ec-1", True), (b"ec-2", False)])
def test_games_with_event_cards_end_and_audit_clean(seed: bytes, first: bool) -> None:
    modules = [TB, EVENT_CARDS] if first else [EVENT_CARDS, TB]  # the order never matters
    rec = Recorder.new("g-tb-ec", seed, seats=4, modules=modules, turn_limit=150)
    rec.play(bot_chooser(["heuristic", "random", "heuristic", "random"]), max_decisions=50_000)
    assert rec.state.finished
    _, record = read_lines(list(dump_lines(rec.record(), "finished")))
    assert audit(record).exit_code == 0
    assert any(type(r.event).__name__ == "EventCardDrawn" for r in record.events)
    assert not any(type(r.event).__name__ == "DiceRolled" for r in record.events)
