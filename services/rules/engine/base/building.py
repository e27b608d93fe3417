"""Roads, settlements and cities (docs/rules/base.md §1.7): costs, piece limits, the distance rule,
connection rules; and the evolvers that put pieces on the board (set-up included).

`check_road` and `check_settlement_site` are the one place each kind of site is checked, for
a build, a set-up placement and a module's piece alike (a neutral road, a ship): map, land
(or a module's permit), free, connection (or adjacency in set-up), module blockers."""

from __future__ import annotations

from events.commands import BuildCity, BuildRoad, BuildSettlement, StopRoadBuilding
from events.events import CityBuilt, Event, RoadBuilt, SettlementBuilt
from events.pieces import PieceRemoved
from services.rules.engine import pieces
from services.rules.engine.base import setup
from services.rules.engine.base.common import check_place, pay, require_afford, require_current
from services.rules.engine.base.roads import legal_road_edges, longest_road_through
from services.rules.engine.base.sites import (
    check_road,
    check_settlement,
    check_settlement_site,
    pieces_left,
    require_piece,
)

__all__ = ["check_road", "check_settlement_site", "pieces_left", "require_piece"]
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.ruleset import SetupRound
from services.rules.engine.state import (
    CITY,
    MAIN,
    NO_ONE,
    ROAD_BUILDING,
    SETTLEMENT,
    SETUP,
    Rules,
    State,
)


def build_road(state: State, cmd: BuildRoad, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    require_piece(state, cmd.seat, "road")
    check_road(state, cmd.seat, cmd.edge)
    free = state.phase == ROAD_BUILDING
    if not free:
        require_afford(state, cmd.seat, "road", "base.build.cost")
    return [RoadBuilt(seat=cmd.seat, edge=cmd.edge, free=free)]


def build_settlement(state: State, cmd: BuildSettlement, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    require_piece(state, cmd.seat, "settlement")
    check_settlement(state, cmd.seat, cmd.vertex)
    require_afford(state, cmd.seat, "settlement", "base.build.cost")
    return [SettlementBuilt(seat=cmd.seat, vertex=cmd.vertex)]


def build_city(state: State, cmd: BuildCity, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    check_place(state, "vertex", cmd.vertex)
    if state.vertex_owner[cmd.vertex] != cmd.seat or state.vertex_level[cmd.vertex] != SETTLEMENT:
        raise reject(
            "base.build.city_needs_settlement",
            f"you have no settlement on {state.board.vertex_name(cmd.vertex)}",
        )
    require_piece(state, cmd.seat, "city")
    require_afford(state, cmd.seat, "city", "base.build.cost")
    return [CityBuilt(seat=cmd.seat, vertex=cmd.vertex)]


def stop_road_building(state: State, cmd: StopRoadBuilding, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    if legal_road_edges(state, cmd.seat) and pieces_left(state, cmd.seat, "road") > 0:
        raise reject("base.turn.wrong_phase", "place your free roads; there is room for them")
    return [RoadBuilt(seat=cmd.seat, edge=NO_ONE, free=True)]


# --- evolvers -------------------------------------------------------------------------------


def evolve_settlement(state: State, e: SettlementBuilt) -> None:
    v = e.vertex
    p = state.players[e.seat]
    state.vertex_owner[v] = e.seat
    state.vertex_level[v] = SETTLEMENT
    p.settlements.add(v)
    kind = state.board.vertex_harbor[v]
    if kind is not None:
        pieces.add_harbor(state, p.ratios, kind)
    if state.phase == SETUP:
        state.setup_vertex = v
        if setup_round(state).piece == "city":  # a settlement-then-city set-up: a city here
            upgrade(state, e.seat, v)
    elif not e.free:
        pay(state, e.seat, state.rules.cache.costs["settlement"])
    pieces.cut_routes(state, e.seat, v)


def setup_round(state: State) -> SetupRound:
    """The set-up round being played (rulesets.setup_rounds; snake order)."""
    return state.rules.setup_rounds[state.setup_pos // state.n]


def upgrade(state: State, seat: int, v: int) -> None:
    p = state.players[seat]
    p.settlements.discard(v)
    p.cities.add(v)
    state.vertex_level[v] = CITY


def evolve_road(state: State, e: RoadBuilt) -> None:
    if e.edge != NO_ONE:
        state.edge_owner[e.edge] = e.seat
        p = state.players[e.seat]
        p.roads.add(e.edge)
        # A new road adds trails, all through it; the others keep the length they had.
        p.road_length = max(p.road_length, longest_road_through(state, e.seat, e.edge))
    if state.phase == SETUP:
        setup.advance(state)
    elif state.phase == ROAD_BUILDING:
        state.free_roads -= 1
        if state.free_roads <= 0 or e.edge == NO_ONE:
            state.free_roads = 0
            state.phase = MAIN
    elif not e.free:
        pay(state, e.seat, state.rules.cache.costs["road"])


def evolve_city(state: State, e: CityBuilt) -> None:
    upgrade(state, e.seat, e.vertex)
    pay(state, e.seat, state.rules.cache.costs["city"])


def install(rules: Rules) -> None:
    rules.cost("road", (1, 1, 0, 0, 0))
    rules.cost("settlement", (1, 1, 1, 1, 0))
    rules.cost("city", (0, 0, 0, 2, 3))
    rules.cost("development_card", (0, 0, 1, 1, 1))
    rules.limit("road", 15)
    rules.limit("settlement", 5)
    rules.limit("city", 4)
    rules.handle(BuildRoad, build_road)
    rules.handle(BuildSettlement, build_settlement)
    rules.handle(BuildCity, build_city)
    rules.handle(StopRoadBuilding, stop_road_building)
    rules.allow(MAIN, BuildRoad, BuildSettlement, BuildCity)
    rules.allow(ROAD_BUILDING, BuildRoad, StopRoadBuilding)
    rules.evolve_with(SettlementBuilt, evolve_settlement)
    rules.evolve_with(RoadBuilt, evolve_road)
    rules.evolve_with(CityBuilt, evolve_city)
    rules.evolve_with(PieceRemoved, pieces.evolve_removed)
