"""Traders & Barbarians: the 7, Knights, barbarians and driving them off (docs/rules/
traders-and-barbarians.md §10.5, §10.9, §10.10)."""

from __future__ import annotations

from tb_helpers import CORNER, CORNER_TO_INLAND, INLAND, put_wagon, table, tb

from events.commands import BuildRoad, DiscardResources, PlayKnight, RollDice
from events.events import CardStolen, DiscardRequired
from events.traders_and_barbarians import (
    BarbarianDriveOffTried,
    BarbarianMovedOnPath,
    MoveBarbarianOnPath,
    MoveWagon,
    TryDriveOff,
)
from services.rules.engine import pending
from services.rules.engine.scenarios.traders_and_barbarians.common import BARBARIAN, WAGON
from services.rules.engine.state import MAIN, ROLL
from services.rules.engine.testing import Table

FREE = "(1,0)/(2,-1)"  # a path without barbarian, road or wagon


def after_seven(t: Table) -> None:
    t.turn_of(0, rolled=False)
    t.script("dice", (3, 4))
    t.when(RollDice(seat=0))


def test_traders_and_barbarians_seven_move_barbarian() -> None:
    t = table()
    after_seven(t)
    assert t.state.phase == BARBARIAN
    prompt = pending(t.state)[0]
    assert all(isinstance(o, MoveBarbarianOnPath) for o in prompt.options)
    assert {o.barbarian for o in prompt.options if isinstance(o, MoveBarbarianOnPath)} == {0, 1, 2}
    t.rejects(MoveBarbarianOnPath(seat=0, barbarian=0, edge=tb(t).barbarians[0]),
              "traders_and_barbarians.seven.move_barbarian")
    t.rejects(MoveBarbarianOnPath(seat=0, barbarian=0, edge=t.edge("(2,-2)/(2,-3)")),
              "traders_and_barbarians.seven.move_barbarian")  # a sea side is no path
    t.when(MoveBarbarianOnPath(seat=0, barbarian=0, edge=t.edge(FREE)))
    assert tb(t).barbarians[0] == t.edge(FREE)
    assert t.state.phase == MAIN


def test_traders_and_barbarians_seven_move_barbarian_after_discards() -> None:
    t = table()
    t.give(1, lumber=8)
    t.turn_of(0, rolled=False)
    t.script("dice", (3, 4))
    events = t.when(RollDice(seat=0))
    assert any(isinstance(e, DiscardRequired) for e in events)
    tb(t).gold[1] = 50  # gold is no resource card: it never counts for the discard
    t.when(DiscardResources(seat=1, resources={"lumber": 4}))
    assert t.state.phase == BARBARIAN


def test_traders_and_barbarians_gold_not_resource() -> None:
    t = table()
    tb(t).gold[1] = 40
    t.give(1, lumber=7)
    after_seven(t)
    assert t.state.phase == BARBARIAN  # 7 cards and 40 gold: no discard
    t.road(1, t.edge(FREE))
    t.script("steal", "lumber")
    events = t.when(MoveBarbarianOnPath(seat=0, barbarian=0, edge=t.edge(FREE)))
    assert tb(t).gold[1] == 40  # a steal takes a card, never gold
    assert any(isinstance(e, CardStolen) and e.resource == "lumber" for e in events)


def test_traders_and_barbarians_seven_steal() -> None:
    t = table()
    t.road(1, t.edge(FREE))
    t.give(1, ore=2)
    after_seven(t)
    events = t.when(MoveBarbarianOnPath(seat=0, barbarian=1, edge=t.edge(FREE)))
    moved = events[0]
    assert isinstance(moved, BarbarianMovedOnPath)
    assert moved.victim == 1
    assert isinstance(events[1], CardStolen)
    assert events[1].victim == 1
    assert t.hand(0) == {"ore": 1}
    assert t.hand(1) == {"ore": 1}


def test_traders_and_barbarians_seven_steal_not_from_own_road_or_empty_path() -> None:
    t = table()
    t.road(0, t.edge(FREE))
    t.give(0, ore=2)
    after_seven(t)
    events = t.when(MoveBarbarianOnPath(seat=0, barbarian=1, edge=t.edge(FREE)))
    assert len(events) == 1
    assert isinstance(events[0], BarbarianMovedOnPath)
    assert events[0].victim is None


def test_traders_and_barbarians_barbarian_one_per_path() -> None:
    t = table()
    after_seven(t)
    t.rejects(MoveBarbarianOnPath(seat=0, barbarian=0, edge=tb(t).barbarians[1]),
              "traders_and_barbarians.barbarian.one_per_path")
    taken = set(tb(t).barbarians)
    assert not {o.edge for o in pending(t.state)[0].options} & taken  # type: ignore[attr-defined]


def test_traders_and_barbarians_road_barbarian_path() -> None:
    t = table()
    t.turn_of(0)
    (city,) = t.state.players[0].cities
    edge = t.state.board.topo.vertex_edges[city][0]
    if t.state.edge_owner[edge] != -1:
        edge = next(e for e in t.state.board.topo.vertex_edges[city] if t.state.edge_owner[e] == -1)
    tb(t).barbarians[0] = edge
    t.give(0, lumber=1, brick=1)
    t.when(BuildRoad(seat=0, edge=edge))
    assert t.state.edge_owner[edge] == 0


def test_traders_and_barbarians_dev_knight() -> None:
    t = table()
    t.turn_of(0, rolled=False)
    t.give_dev(0, "knight")
    t.road(2, t.edge(FREE))
    t.give(2, grain=1)
    t.when(PlayKnight(seat=0))  # before the roll
    assert t.state.phase == BARBARIAN
    events = t.when(MoveBarbarianOnPath(seat=0, barbarian=2, edge=t.edge(FREE)))
    assert any(isinstance(e, CardStolen) and e.victim == 2 for e in events)
    assert t.state.phase == ROLL
    assert t.state.players[0].knights == 1


def test_traders_and_barbarians_dev_knight_during_the_wagon_part() -> None:
    t = table()
    t.turn_of(0)
    put_wagon(t, 0, INLAND)
    t.give_dev(0, "knight")
    t.when(MoveWagon(seat=0, edge=t.edge(CORNER_TO_INLAND)))
    t.when(PlayKnight(seat=0))
    t.when(MoveBarbarianOnPath(seat=0, barbarian=0, edge=t.edge(FREE)))
    assert t.state.phase == WAGON


def drive_off_table(level: int = 2) -> Table:
    t = table()
    t.turn_of(0)
    put_wagon(t, 0, CORNER)
    tb(t).barbarians[0] = t.edge(CORNER_TO_INLAND)
    tb(t).level[0] = level
    return t


def test_traders_and_barbarians_drive_off_level() -> None:
    t = drive_off_table(level=1)
    t.rejects(TryDriveOff(seat=0, barbarian=0), "traders_and_barbarians.drive_off.level")
    assert not any(isinstance(o, TryDriveOff) for o in pending(t.state)[0].options)


def test_traders_and_barbarians_drive_off_position() -> None:
    t = drive_off_table()
    t.rejects(TryDriveOff(seat=0, barbarian=1), "traders_and_barbarians.drive_off.position")
    assert [o.barbarian for o in pending(t.state)[0].options if isinstance(o, TryDriveOff)] == [0]
    put_wagon(t, 0, INLAND)  # the other end of the path is an end too
    t.script("driveoff", 1)
    t.when(TryDriveOff(seat=0, barbarian=0))


def test_traders_and_barbarians_drive_off_once() -> None:
    t = drive_off_table()
    t.script("driveoff", 2)
    (started, tried) = t.when(TryDriveOff(seat=0, barbarian=0))
    assert isinstance(tried, BarbarianDriveOffTried)
    assert not tried.success
    assert t.state.phase == WAGON
    assert tb(t).mp == 5
    t.rejects(TryDriveOff(seat=0, barbarian=0), "traders_and_barbarians.drive_off.once")


def test_traders_and_barbarians_drive_off_roll() -> None:
    t = drive_off_table(level=2)  # card 2 drives off on a 6
    t.road(1, t.edge(FREE))
    t.give(1, ore=1)
    t.script("driveoff", 6)
    (_, tried) = t.when(TryDriveOff(seat=0, barbarian=0))
    assert isinstance(tried, BarbarianDriveOffTried)
    assert tried.success
    assert tried.die == 6
    assert t.state.phase == BARBARIAN
    t.rejects(MoveBarbarianOnPath(seat=0, barbarian=1, edge=t.edge(FREE)),
              "traders_and_barbarians.drive_off.roll")  # only the driven-off one moves
    events = t.when(MoveBarbarianOnPath(seat=0, barbarian=0, edge=t.edge(FREE)))
    assert len(events) == 1
    assert t.hand(0) == {}
    assert t.state.phase == WAGON
    t3 = drive_off_table(level=3)  # card 3 on 5 and 6
    t3.script("driveoff", 5)
    (_, tried) = t3.when(TryDriveOff(seat=0, barbarian=0))
    assert isinstance(tried, BarbarianDriveOffTried)
    assert tried.success
