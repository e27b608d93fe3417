"""Roads, settlements and cities (docs/rules/base.md §1.7): costs, the distance rule, connection, land,
piece limits (15 / 5 / 4) and the city returning its settlement to the supply.

The table is the beginner board after the default set-up (every seat on the west side); the
tests build on the empty east side around the forest (1,0)."""

from __future__ import annotations

from engine_helpers import NE, SE, SIDE_E, SIDE_NE, SIDE_NW, SIDE_SE, SIDE_W, SW, N, S, corner, side

from events.commands import BuildCity, BuildRoad, BuildSettlement
from events.events import CityBuilt, ModuleSpec, RoadBuilt, SettlementBuilt
from services.rules.engine.base.roads import distance_ok
from services.rules.engine.state import CITY, NO_ONE
from services.rules.engine.testing import Table

HEX = (1, 0)  # forest 3, east of the desert, free after the default set-up


def table(target: int = 10) -> tuple[Table, int]:
    """Seat 0 to play (after its roll) with a settlement on the north corner of (1,0)."""
    modules = [ModuleSpec("victory-points", {"target": target})] if target != 10 else []
    t = Table(modules=modules)
    home = corner(t, HEX, N)
    t.place(0, home)
    t.turn_of(0)
    return t, home


def free_sites(t: Table) -> list[int]:
    return [v for v in t.state.board.topo.land_vertices if distance_ok(t.state, v)]


def sea_edge(t: Table) -> int:
    topo = t.state.board.topo
    return next(e for e in range(len(topo.edges)) if not topo.edge_is_land[e])


def sea_vertex(t: Table) -> int:
    topo = t.state.board.topo
    return next(v for v in range(len(topo.vertices)) if not topo.vertex_is_land[v])


# --- costs ----------------------------------------------------------------------------------


def test_rejects_base_build_cost_for_a_road_without_brick_and_lumber_and_pays_the_bank() -> None:
    t, _ = table()
    road = BuildRoad(seat=0, edge=side(t, HEX, SIDE_NE))
    t.give(0, lumber=1)
    t.rejects(road, "base.build.cost")
    t.give(0, brick=1)
    bank = t.state.bank[:]
    assert t.when(road) == [RoadBuilt(seat=0, edge=road.edge)]
    assert t.hand(0) == {}
    assert t.state.bank == [bank[0] + 1, bank[1] + 1, *bank[2:]]


def test_rejects_base_build_cost_for_a_settlement_missing_one_card_and_pays_the_bank() -> None:
    t, _ = table()
    t.road(0, side(t, HEX, SIDE_NE))
    t.road(0, side(t, HEX, SIDE_E))
    site = BuildSettlement(seat=0, vertex=corner(t, HEX, SE))
    t.give(0, brick=1, lumber=1, wool=1)
    t.rejects(site, "base.build.cost")
    t.give(0, grain=1, ore=1)
    assert t.when(site) == [SettlementBuilt(seat=0, vertex=site.vertex)]
    assert t.hand(0) == {"ore": 1}
    assert sum(t.state.bank) == 95 - 1


def test_rejects_base_build_cost_for_a_city_without_three_ore_and_two_grain() -> None:
    t, home = table()
    t.give(0, ore=2, grain=2)
    t.rejects(BuildCity(seat=0, vertex=home), "base.build.cost")
    t.give(0, ore=1)
    assert t.when(BuildCity(seat=0, vertex=home)) == [CityBuilt(seat=0, vertex=home)]
    assert t.hand(0) == {}
    assert sum(t.state.bank) == 95


# --- where pieces may stand -----------------------------------------------------------------


def test_rejects_base_build_occupied_for_a_road_or_a_settlement_on_a_taken_place() -> None:
    t, home = table()
    t.give(0, brick=2, lumber=2, wool=1, grain=1)
    taken = side(t, HEX, SIDE_NE)
    t.road(1, taken)
    t.rejects(BuildRoad(seat=0, edge=taken), "base.build.occupied")
    t.rejects(BuildSettlement(seat=0, vertex=home), "base.build.occupied")
    t.when(BuildRoad(seat=0, edge=side(t, HEX, SIDE_NW)))


def test_rejects_base_build_distance_next_to_a_settlement_and_allows_two_roads_away() -> None:
    t, _ = table()
    t.road(0, side(t, HEX, SIDE_NE))
    t.road(0, side(t, HEX, SIDE_E))
    t.give(0, brick=2, lumber=2, wool=2, grain=2)
    # The north-east corner is one road from the settlement on the north corner.
    t.rejects(BuildSettlement(seat=0, vertex=corner(t, HEX, NE)), "base.build.distance")
    t.when(BuildSettlement(seat=0, vertex=corner(t, HEX, SE)))


def test_rejects_base_build_distance_next_to_an_opponents_city() -> None:
    t, _ = table()
    t.road(0, side(t, HEX, SIDE_NE))
    t.road(0, side(t, HEX, SIDE_E))
    t.road(0, side(t, HEX, SIDE_SE))
    t.place(1, corner(t, (1, 1), SW), city=True)  # next to the south corner of (1,0)
    t.give(0, brick=2, lumber=2, wool=2, grain=2)
    t.rejects(BuildSettlement(seat=0, vertex=corner(t, HEX, S)), "base.build.distance")
    t.when(BuildSettlement(seat=0, vertex=corner(t, HEX, SE)))


def test_rejects_base_build_not_land_for_a_road_at_sea_or_a_settlement_off_the_island() -> None:
    t, _ = table()
    t.give(0, brick=2, lumber=2, wool=1, grain=1)
    t.rejects(BuildRoad(seat=0, edge=sea_edge(t)), "base.build.not_land")
    t.rejects(BuildSettlement(seat=0, vertex=sea_vertex(t)), "base.build.not_land")
    # A coastal edge is land: (2,-2)'s north-west side borders the sea frame.
    t.place(0, corner(t, (2, -2), N))
    t.when(BuildRoad(seat=0, edge=side(t, (2, -2), SIDE_NW)))


def test_rejects_base_place_unknown_for_places_off_the_map() -> None:
    t, home = table()
    t.give(0, brick=1, lumber=1, wool=1, grain=3, ore=3)
    n_edges, n_vertices = t.state.board.n_edges, t.state.board.n_vertices
    t.rejects(BuildRoad(seat=0, edge=n_edges), "base.place.unknown")
    t.rejects(BuildRoad(seat=0, edge=-1), "base.place.unknown")
    t.rejects(BuildSettlement(seat=0, vertex=n_vertices + 5), "base.place.unknown")
    t.rejects(BuildCity(seat=0, vertex=-3), "base.place.unknown")
    t.when(BuildCity(seat=0, vertex=home))


def test_rejects_base_build_road_connect_for_a_road_touching_nothing_of_yours() -> None:
    t, _ = table()
    t.give(0, brick=3, lumber=3)
    t.rejects(BuildRoad(seat=0, edge=side(t, HEX, SIDE_E)), "base.build.road_connect")
    # An opponent's road does not connect either.
    t.road(1, side(t, (2, 0), SIDE_NW))
    t.rejects(BuildRoad(seat=0, edge=side(t, (2, 0), SIDE_W)), "base.build.road_connect")
    t.when(BuildRoad(seat=0, edge=side(t, HEX, SIDE_NE)))  # from the settlement
    t.when(BuildRoad(seat=0, edge=side(t, HEX, SIDE_E)))  # continuing the road


def test_rejects_base_build_road_connect_through_an_opponents_settlement_but_not_your_own() -> None:
    t, _ = table()
    t.road(0, side(t, HEX, SIDE_NE))
    t.road(0, side(t, HEX, SIDE_E))
    t.place(1, corner(t, HEX, SE))
    t.give(0, brick=2, lumber=2)
    beyond = BuildRoad(seat=0, edge=side(t, HEX, SIDE_SE))
    t.rejects(beyond, "base.build.road_connect")
    # The same road past a settlement of one's own is fine.
    t2, _ = table()
    t2.road(0, side(t2, HEX, SIDE_NE))
    t2.road(0, side(t2, HEX, SIDE_E))
    t2.place(0, corner(t2, HEX, SE))
    t2.give(0, brick=1, lumber=1)
    t2.when(BuildRoad(seat=0, edge=side(t2, HEX, SIDE_SE)))


def test_rejects_base_build_settlement_connect_without_a_road_of_your_own() -> None:
    t, _ = table()
    t.give(0, brick=2, lumber=2, wool=2, grain=2)
    site = corner(t, HEX, SE)
    t.rejects(BuildSettlement(seat=0, vertex=site), "base.build.settlement_connect")
    # An opponent's road to the site does not count.
    t.road(1, side(t, HEX, SIDE_E))
    t.rejects(BuildSettlement(seat=0, vertex=site), "base.build.settlement_connect")
    t.road(0, side(t, HEX, SIDE_SE))
    t.when(BuildSettlement(seat=0, vertex=site))


def test_rejects_base_build_city_needs_settlement_on_an_empty_place_an_opponents_or_a_city() -> None:
    t, home = table()
    t.give(0, ore=6, grain=4)
    t.rejects(BuildCity(seat=0, vertex=corner(t, HEX, S)), "base.build.city_needs_settlement")
    theirs = next(iter(t.state.players[1].settlements))
    t.rejects(BuildCity(seat=0, vertex=theirs), "base.build.city_needs_settlement")
    t.when(BuildCity(seat=0, vertex=home))
    assert t.state.vertex_level[home] == CITY
    t.rejects(BuildCity(seat=0, vertex=home), "base.build.city_needs_settlement")


def test_a_city_replaces_the_settlement_and_returns_it_to_the_supply() -> None:
    t, home = table()
    p = t.state.players[0]
    before = (len(p.settlements), len(p.cities))
    t.give(0, ore=3, grain=2)
    t.when(BuildCity(seat=0, vertex=home))
    assert (len(p.settlements), len(p.cities)) == (before[0] - 1, before[1] + 1)
    assert t.state.vertex_owner[home] == 0


# --- piece limits ---------------------------------------------------------------------------


def test_rejects_base_build_no_pieces_for_a_sixteenth_road() -> None:
    t, _ = table()
    p = t.state.players[0]
    topo = t.state.board.topo
    spare = [e for e in topo.land_edges if t.state.edge_owner[e] == NO_ONE
             and e not in topo.vertex_edges[corner(t, HEX, N)]]
    for e in spare[: 14 - len(p.roads)]:
        t.road(0, e)
    assert len(p.roads) == 14
    t.give(0, brick=2, lumber=2)
    t.when(BuildRoad(seat=0, edge=side(t, HEX, SIDE_NE)))
    assert len(p.roads) == 15
    t.rejects(BuildRoad(seat=0, edge=side(t, HEX, SIDE_NW)), "base.build.no_pieces")


def test_rejects_base_build_no_pieces_for_a_sixth_settlement_until_a_city_frees_one() -> None:
    t, home = table()
    p = t.state.players[0]
    t.place(0, free_sites(t)[-1])
    assert len(p.settlements) == 4
    t.road(0, side(t, HEX, SIDE_NE))
    t.road(0, side(t, HEX, SIDE_E))
    t.road(0, side(t, HEX, SIDE_SE))
    t.give(0, brick=2, lumber=2, wool=2, grain=2)
    t.when(BuildSettlement(seat=0, vertex=corner(t, HEX, SE)))
    assert len(p.settlements) == 5
    fifth = BuildSettlement(seat=0, vertex=corner(t, (1, 1), SE))
    t.road(0, side(t, (1, 1), SIDE_E))
    t.rejects(fifth, "base.build.no_pieces")
    t.give(0, ore=3, grain=2)
    t.when(BuildCity(seat=0, vertex=home))
    t.when(fifth)


def test_rejects_base_build_no_pieces_for_a_fifth_city() -> None:
    t, home = table(target=20)  # four cities would win the base game
    p = t.state.players[0]
    for v in free_sites(t)[-3:]:
        t.place(0, v, city=True)
    assert len(p.cities) == 3
    t.give(0, ore=6, grain=4)
    t.when(BuildCity(seat=0, vertex=home))
    assert len(p.cities) == 4
    t.rejects(BuildCity(seat=0, vertex=next(iter(p.settlements))), "base.build.no_pieces")


def test_pieces_left_in_the_view_follow_the_limits() -> None:
    from services.rules.engine import view

    t, home = table()
    seen = view(t.state, 0).players[0].pieces_left
    assert seen == {"road": 13, "settlement": 2, "city": 4}
    t.give(0, ore=3, grain=2)
    t.when(BuildCity(seat=0, vertex=home))
    assert view(t.state, 0).players[0].pieces_left == {"road": 13, "settlement": 3, "city": 3}
