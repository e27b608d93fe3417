"""Traders & Barbarians: the wagon, commodities and upgrades (docs/rules/
traders-and-barbarians.md §10.6–§10.8). Seat 0's wagon is put at the quarry (2,-2)."""

from __future__ import annotations

from tb_helpers import (
    CORNER,
    CORNER_TO_INLAND,
    INLAND,
    SPOKE,
    put_wagon,
    table,
    tb,
)

from events.commands import BuildRoad, EndTurn
from events.traders_and_barbarians import (
    CommodityDelivered,
    CommodityDrawn,
    EndWagonMovement,
    MoveWagon,
    PayGrainForMovement,
    PlaySwiftJourney,
    UpgradeWagon,
    WagonMoved,
    WagonMovementStarted,
    WagonUpgraded,
)
from services.rules.engine import pending, score
from services.rules.engine.scenarios.traders_and_barbarians.common import WAGON
from services.rules.engine.state import MAIN, ROLL
from services.rules.engine.testing import Table


def at_quarry(seats: int = 4) -> Table:
    t = table(seats)
    t.turn_of(0)
    put_wagon(t, 0, INLAND)
    return t


def move(t: Table, edge: str) -> list[object]:
    return list(t.when(MoveWagon(seat=0, edge=t.edge(edge))))


def test_traders_and_barbarians_wagon_movement_points() -> None:
    t = at_quarry()
    events = move(t, CORNER_TO_INLAND)
    assert isinstance(events[0], WagonMovementStarted)
    assert events[0].mp == 4
    assert tb(t).mp == 2
    t.give(0, grain=2)
    t.when(PayGrainForMovement(seat=0))
    assert tb(t).mp == 4
    assert t.hand(0) == {"grain": 1}
    t.rejects(PayGrainForMovement(seat=0), "traders_and_barbarians.wagon.movement_points")


def test_traders_and_barbarians_wagon_movement_points_grain_needed_and_before_moving() -> None:
    t = at_quarry()
    t.rejects(PayGrainForMovement(seat=0), "traders_and_barbarians.wagon.movement_points")
    t.give(0, grain=1)
    t.when(PayGrainForMovement(seat=0))  # in the main phase: the wagon part begins with 6 MP
    assert t.state.phase == WAGON
    assert tb(t).mp == 6


def test_traders_and_barbarians_wagon_path() -> None:
    t = at_quarry()
    t.rejects(MoveWagon(seat=0, edge=t.edge(SPOKE)), "traders_and_barbarians.wagon.path")
    t.rejects(MoveWagon(seat=0, edge=10_000), "traders_and_barbarians.wagon.path")


def test_traders_and_barbarians_wagon_path_cost() -> None:
    t = at_quarry()
    t.road(2, t.edge(CORNER_TO_INLAND))
    tb(t).gold[0] = 5
    (_, step) = move(t, CORNER_TO_INLAND)
    assert isinstance(step, WagonMoved)
    assert step.mp == 1
    t2 = at_quarry()
    (_, step) = move(t2, CORNER_TO_INLAND)
    assert isinstance(step, WagonMoved)
    assert step.mp == 2
    t3 = at_quarry()
    tb(t3).barbarians[0] = t3.edge(CORNER_TO_INLAND)
    (_, step) = move(t3, CORNER_TO_INLAND)
    assert isinstance(step, WagonMoved)
    assert step.mp == 4
    assert tb(t3).mp == 0


def test_traders_and_barbarians_wagon_toll() -> None:
    t = at_quarry()
    t.road(2, t.edge(CORNER_TO_INLAND))
    (_, step) = move(t, CORNER_TO_INLAND)
    assert isinstance(step, WagonMoved)
    assert (step.toll, step.toll_to) == (1, 2)
    assert tb(t).gold[0] == 4
    assert tb(t).gold[2] == 6
    t2 = at_quarry()
    t2.road(0, t2.edge(CORNER_TO_INLAND))
    (_, own) = move(t2, CORNER_TO_INLAND)
    assert isinstance(own, WagonMoved)
    assert own.toll == 0
    assert tb(t2).gold[0] == 5


def test_traders_and_barbarians_wagon_afford() -> None:
    t = at_quarry()
    t.road(2, t.edge(CORNER_TO_INLAND))
    tb(t).gold[0] = 0
    t.rejects(MoveWagon(seat=0, edge=t.edge(CORNER_TO_INLAND)), "traders_and_barbarians.wagon.afford")
    assert MoveWagon(seat=0, edge=t.edge(CORNER_TO_INLAND)) not in pending(t.state)[0].options
    tb(t).gold[0] = 1
    move(t, CORNER_TO_INLAND)
    assert tb(t).mp == 3
    tb(t).mp = 1
    t.rejects(MoveWagon(seat=0, edge=t.edge(SPOKE)), "traders_and_barbarians.wagon.afford")


def test_traders_and_barbarians_wagon_plaza_stop() -> None:
    t = table()
    t.turn_of(0)
    put_wagon(t, 0, CORNER)
    t.give(0, grain=1)
    events = move(t, SPOKE)
    assert any(isinstance(e, CommodityDrawn) for e in events)
    assert tb(t).mp == 0
    assert tb(t).over
    t.rejects(MoveWagon(seat=0, edge=t.edge(SPOKE)), "traders_and_barbarians.wagon.plaza_stop")
    t.rejects(PayGrainForMovement(seat=0), "traders_and_barbarians.wagon.plaza_stop")
    assert [type(o) for o in pending(t.state)[0].options] == [EndTurn]


def test_traders_and_barbarians_wagon_phase() -> None:
    t = at_quarry()
    t.give(0, lumber=1, brick=1)
    t.road(0, t.edge(CORNER_TO_INLAND))
    move(t, CORNER_TO_INLAND)
    assert t.state.phase == WAGON
    t.rejects(BuildRoad(seat=0, edge=t.edge("(1,-1)/(2,-2)")), "traders_and_barbarians.wagon.phase")
    t.when(EndTurn(seat=0))
    assert t.state.phase == ROLL
    assert not tb(t).moving
    # Ending the turn from the main phase skips the move.
    t2 = at_quarry()
    before = tb(t2).wagon[0]
    t2.when(EndTurn(seat=0))
    assert tb(t2).wagon[0] == before


def test_traders_and_barbarians_commodity_draw() -> None:
    t = table()
    t.turn_of(0)
    put_wagon(t, 0, CORNER)
    t.script("commodity", "marble")
    events = move(t, SPOKE)
    drawn = next(e for e in events if isinstance(e, CommodityDrawn))
    assert drawn.commodity == "marble"
    assert drawn.hex == t.hex("(2,-2)")
    assert tb(t).cargo[0] == "marble"
    assert tb(t).stacks[1] == [0, 5, 6, 0]
    # An empty stack: the wagon stays empty.
    t2 = table()
    t2.turn_of(0)
    put_wagon(t2, 0, CORNER)
    tb(t2).stacks[1] = [0, 0, 0, 0]
    events = move(t2, SPOKE)
    assert not any(isinstance(e, CommodityDrawn) for e in events)
    assert tb(t2).cargo[0] == ""


def test_traders_and_barbarians_commodity_deliver() -> None:
    t = table()
    t.turn_of(0)
    put_wagon(t, 0, CORNER)
    tb(t).cargo[0] = "tools"
    tb(t).level[0] = 2
    vp = score(t.state)[0]
    t.script("commodity", "sand")
    events = move(t, SPOKE)
    delivered = next(e for e in events if isinstance(e, CommodityDelivered))
    assert delivered.commodity == "tools"
    assert delivered.gold == 2
    assert tb(t).gold[0] == 7
    assert score(t.state)[0] == vp + 1
    assert tb(t).cargo[0] == "sand"  # then an empty wagon draws


def test_traders_and_barbarians_commodity_carry_one() -> None:
    t = table()
    t.turn_of(0)
    put_wagon(t, 0, CORNER)
    tb(t).cargo[0] = "glass"  # the quarry needs tools only
    events = move(t, SPOKE)
    assert not any(isinstance(e, CommodityDelivered | CommodityDrawn) for e in events)
    assert tb(t).cargo[0] == "glass"
    assert tb(t).stacks[1] == [0, 6, 6, 0]


def test_traders_and_barbarians_wagon_upgrade() -> None:
    t = table()
    t.turn_of(0)
    t.rejects(UpgradeWagon(seat=0), "traders_and_barbarians.wagon.upgrade")
    t.give(0, lumber=1, wool=1, ore=1)
    (e,) = t.when(UpgradeWagon(seat=0))
    assert isinstance(e, WagonUpgraded)
    assert e.level == 2
    assert t.hand(0) == {}
    tb(t).level[0] = 5
    t.give(0, lumber=2, wool=1, ore=1)
    t.rejects(UpgradeWagon(seat=0), "traders_and_barbarians.wagon.upgrade")
    tb(t).level[0] = 3
    put_wagon(t, 0, INLAND)
    move(t, CORNER_TO_INLAND)
    t.rejects(UpgradeWagon(seat=0), "traders_and_barbarians.wagon.phase")


def test_traders_and_barbarians_wagon_card_vp() -> None:
    t = table()
    t.turn_of(0)
    tb(t).level[0] = 4
    vp = score(t.state)[0]
    t.give(0, lumber=2, wool=1, ore=1)
    t.when(UpgradeWagon(seat=0))
    assert score(t.state)[0] == vp + 1


def test_traders_and_barbarians_dev_swift_journey() -> None:
    t = table()
    t.turn_of(0)
    put_wagon(t, 0, CORNER)
    t.give_dev(0, "swift_journey")
    move(t, SPOKE)  # the first movement ends at the plaza
    assert tb(t).over
    t.when(PlaySwiftJourney(seat=0))
    assert tb(t).mp == 4
    assert not tb(t).over
    move(t, SPOKE)
    assert tb(t).wagon[0] == t.vertex(CORNER)


def test_traders_and_barbarians_dev_swift_journey_before_moving_and_ending_early() -> None:
    t = at_quarry()
    t.give_dev(0, "swift_journey")
    t.when(PlaySwiftJourney(seat=0))
    assert t.state.phase == MAIN
    assert tb(t).second
    move(t, CORNER_TO_INLAND)
    t.when(EndWagonMovement(seat=0))
    assert tb(t).mp == 4
    assert not tb(t).second
    t.rejects(EndWagonMovement(seat=0), "traders_and_barbarians.dev.swift_journey")
    t2 = table()
    t2.turn_of(0)
    t2.give_dev(0, "swift_journey", new=True)
    t2.rejects(PlaySwiftJourney(seat=0), "base.dev.bought_this_turn")

