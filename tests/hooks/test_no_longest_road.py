"""A module may play without the Longest Road card (`rules.settings(longest_road=False)`): no
deriver awards it, whichever module registered one (Catan for Two's neutral builds too)."""

from __future__ import annotations

from toy import toy

from events.commands import BuildRoad
from events.events import LongestRoadChanged
from services.rules.engine.state import Rules
from services.rules.engine.testing import Table

SIDES = ["(0,0)/(1,-1)", "(0,0)/(1,0)", "(0,0)/(0,1)", "(-1,1)/(0,0)", "(-1,0)/(0,0)"]


def six_roads(t: Table) -> list[object]:
    t.turn_of(0)
    for side in SIDES:
        t.road(0, t.edge(side))
    t.give(0, lumber=1, brick=1)
    return list(t.when(BuildRoad(seat=0, edge=t.edge("(0,-1)/(0,0)"))))


def no_longest_road(rules: Rules) -> None:
    rules.settings(longest_road=False)


def test_without_the_card_no_road_is_longest() -> None:
    t = toy("toy-no-longest", no_longest_road)
    events = six_roads(t)
    assert t.state.players[0].road_length >= 5
    assert not any(isinstance(e, LongestRoadChanged) for e in events)
    assert t.state.longest_holder == -1


def test_with_the_card_six_roads_take_it() -> None:
    t = Table()
    events = six_roads(t)
    assert any(isinstance(e, LongestRoadChanged) and e.holder == 0 for e in events)
