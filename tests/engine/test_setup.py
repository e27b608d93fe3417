"""Set-up in snake order (docs/rules/base.md §1.3): settlement then an adjacent road, twice; the second
settlement brings one resource per adjacent producing hex; seat 0 then takes the first turn."""

from __future__ import annotations

import pytest
from engine_helpers import (
    NE,
    NW,
    SE,
    SIDE_E,
    SIDE_NE,
    SIDE_NW,
    SIDE_SE,
    SIDE_SW,
    SW,
    N,
    S,
    corner,
    side,
)

from events.commands import BuildSettlement, PlaceRoad, PlaceSettlement, RollDice
from events.events import SettlementBuilt, StartingResourcesTaken
from services.rules.engine import pending
from services.rules.engine.state import ROLL, SETUP
from services.rules.engine.testing import Table


def setup_table(seats: int = 4) -> Table:
    return Table(seats=seats, setup=False)


def place(t: Table, seat: int, vertex: int, edge: int) -> None:
    t.when(PlaceSettlement(seat=seat, vertex=vertex))
    t.when(PlaceRoad(seat=seat, edge=edge))


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_set_up_runs_in_snake_order_and_seat_0_takes_the_first_turn(seats: int) -> None:
    t = setup_table(seats)
    order = []
    while t.state.phase == SETUP:
        prompt = pending(t.state)[0]
        if prompt.stage == "setup_settlement":
            order.append(prompt.seat)
        t.when(prompt.default)
    assert order == list(range(seats)) + list(reversed(range(seats)))
    assert t.state.phase == ROLL
    assert t.state.current == 0
    assert t.state.turn == 1
    for p in t.state.players:
        assert len(p.settlements) == 2
        assert len(p.roads) == 2


def test_rejects_base_setup_settlement_first_for_a_road_before_the_settlement() -> None:
    t = setup_table()
    v, e = corner(t, (1, 0), N), side(t, (1, 0), SIDE_NE)
    t.rejects(PlaceRoad(seat=0, edge=e), "base.setup.settlement_first")
    t.when(PlaceSettlement(seat=0, vertex=v))
    t.rejects(PlaceSettlement(seat=0, vertex=corner(t, (1, 1), S)), "base.setup.settlement_first")
    t.when(PlaceRoad(seat=0, edge=e))
    assert t.state.current == 1


def test_rejects_base_setup_road_adjacent_for_a_road_away_from_the_settlement_just_placed() -> None:
    t = setup_table(seats=2)
    first = corner(t, (1, 0), N)
    place(t, 0, first, side(t, (1, 0), SIDE_NE))
    place(t, 1, corner(t, (-1, 0), S), side(t, (-1, 0), SIDE_SE))
    second = corner(t, (0, 1), S)
    place(t, 1, second, side(t, (0, 1), SIDE_SE))
    t.when(PlaceSettlement(seat=0, vertex=corner(t, (1, -2), N)))
    # Touching the first settlement (not the one just placed) is not enough in set-up.
    t.rejects(PlaceRoad(seat=0, edge=side(t, (1, 0), SIDE_NW)), "base.setup.road_adjacent")
    # Nor is a road far away, nor one already taken.
    t.rejects(PlaceRoad(seat=0, edge=side(t, (2, 0), SIDE_E)), "base.setup.road_adjacent")
    t.when(PlaceRoad(seat=0, edge=side(t, (1, -2), SIDE_NE)))
    assert t.state.phase == ROLL



def test_the_second_settlement_brings_one_resource_per_adjacent_producing_hex() -> None:
    t = setup_table(seats=2)
    first = corner(t, (1, 0), SW)  # (0,0) desert, (0,1) fields, (1,0) forest
    events = t.when(PlaceSettlement(seat=0, vertex=first))
    assert [type(e) for e in events] == [SettlementBuilt]  # the first one brings nothing
    t.when(PlaceRoad(seat=0, edge=side(t, (1, 0), SIDE_SW)))
    place(t, 1, corner(t, (-1, 0), S), side(t, (-1, 0), SIDE_SE))
    place(t, 1, corner(t, (0, -1), N), side(t, (0, -1), SIDE_NE))
    events = t.when(PlaceSettlement(seat=0, vertex=corner(t, (1, -1), SE)))
    assert events[1] == StartingResourcesTaken(seat=0, resources={"wool": 1, "lumber": 1, "brick": 1})
    assert t.hand(0) == {"wool": 1, "lumber": 1, "brick": 1}
    # Seat 1's second settlement touches (0,-1) hills, (0,-2) mountains and (1,-2) pasture.
    assert t.hand(1) == {"brick": 1, "ore": 1, "wool": 1}
    assert sum(t.state.bank) == 95 - 6



def test_a_second_settlement_next_to_the_desert_gets_nothing_for_it() -> None:
    t = setup_table(seats=2)
    place(t, 0, corner(t, (1, -1), N), side(t, (1, -1), SIDE_NE))
    place(t, 1, corner(t, (-1, 1), S), side(t, (-1, 1), SIDE_SE))
    # (0,0) desert, (-1,0) forest, (0,-1) hills.
    events = t.when(PlaceSettlement(seat=1, vertex=corner(t, (0, 0), NW)))
    assert events[1] == StartingResourcesTaken(seat=1, resources={"lumber": 1, "brick": 1})


def test_set_up_settlements_need_no_road_but_keep_the_distance_rule_base_build_distance() -> None:
    t = setup_table(seats=2)
    v = corner(t, (1, 0), N)
    place(t, 0, v, side(t, (1, 0), SIDE_NE))
    # Next to seat 0's settlement: refused, whoever places it.
    t.rejects(PlaceSettlement(seat=1, vertex=corner(t, (1, 0), NE)), "base.build.distance")
    t.rejects(PlaceSettlement(seat=1, vertex=v), "base.build.occupied")
    # Two steps away is fine, with no road of seat 1 anywhere.
    t.when(PlaceSettlement(seat=1, vertex=corner(t, (1, 0), SE)))


def test_set_up_rejects_base_build_not_land_and_base_place_unknown_off_the_island() -> None:
    t = setup_table()
    topo = t.state.board.topo
    sea_vertex = next(v for v in range(len(topo.vertices)) if not topo.vertex_is_land[v])
    t.rejects(PlaceSettlement(seat=0, vertex=sea_vertex), "base.build.not_land")
    t.rejects(PlaceSettlement(seat=0, vertex=len(topo.vertices)), "base.place.unknown")
    t.rejects(PlaceSettlement(seat=0, vertex=-1), "base.place.unknown")
    t.when(PlaceSettlement(seat=0, vertex=corner(t, (2, -2), N)))  # a coastal vertex is land
    t.rejects(PlaceRoad(seat=0, edge=len(topo.edges)), "base.place.unknown")
    sea_edge = next(
        e for e in topo.vertex_edges[corner(t, (2, -2), N)] if not topo.edge_is_land[e]
    )
    t.rejects(PlaceRoad(seat=0, edge=sea_edge), "base.build.not_land")


def test_set_up_rejects_base_turn_not_your_turn_for_a_seat_out_of_order() -> None:
    t = setup_table()
    t.rejects(PlaceSettlement(seat=1, vertex=corner(t, (1, 0), N)), "base.turn.not_your_turn")
    t.when(PlaceSettlement(seat=0, vertex=corner(t, (1, 0), N)))
    t.rejects(PlaceRoad(seat=1, edge=side(t, (1, 0), SIDE_NE)), "base.turn.not_your_turn")


def test_set_up_rejects_turn_commands_with_base_turn_wrong_phase() -> None:
    t = setup_table()
    t.rejects(RollDice(seat=0), "base.turn.wrong_phase")
    t.rejects(BuildSettlement(seat=0, vertex=corner(t, (1, 0), N)), "base.turn.wrong_phase")


def test_the_set_up_prompt_lists_exactly_the_legal_places() -> None:
    t = setup_table()
    place(t, 0, corner(t, (1, 0), N), side(t, (1, 0), SIDE_NW))
    prompt = pending(t.state)[0]
    assert prompt.seat == 1
    assert prompt.stage == "setup_settlement"
    offered = {o.vertex for o in prompt.options}  # type: ignore[attr-defined]
    topo = t.state.board.topo
    taken = corner(t, (1, 0), N)
    expected = set(topo.land_vertices) - {taken, *topo.vertex_neighbours[taken]}
    assert offered == expected
    t.when(PlaceSettlement(seat=1, vertex=corner(t, (1, 1), S)))
    roads = {o.edge for o in pending(t.state)[0].options}  # type: ignore[attr-defined]
    assert roads == {e for e in topo.vertex_edges[corner(t, (1, 1), S)] if topo.edge_is_land[e]}

