"""Roads, settlements and cities (RULES.md §1.7): costs, piece limits, the distance rule,
connection rules; and the evolvers that put pieces on the board (set-up included)."""

from __future__ import annotations

from events.commands import BuildCity, BuildRoad, BuildSettlement, StopRoadBuilding
from events.events import CityBuilt, Event, RoadBuilt, SettlementBuilt
from events.types import RESOURCE_INDEX
from services.rules.engine.base import setup
from services.rules.engine.base.common import check_place, pay, require_afford, require_current
from services.rules.engine.base.roads import (
    legal_road_edges,
    longest_road,
    longest_road_through,
    road_connects,
    touches_own_road,
)
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.ruleset import Ruleset
from services.rules.engine.state import (
    CITY,
    MAIN,
    NO_ONE,
    ROAD_BUILDING,
    SETTLEMENT,
    SETUP,
    State,
)


def pieces_left(state: State, seat: int, kind: str) -> int:
    p = state.players[seat]
    if kind == "road":
        used = len(p.roads)
    elif kind == "settlement":
        used = len(p.settlements)
    elif kind == "city":
        used = len(p.cities)
    else:
        raise KeyError(kind)
    return state.rules.limits[kind] - used


def require_piece(state: State, seat: int, kind: str) -> None:
    if pieces_left(state, seat, kind) <= 0:
        raise reject("base.build.no_pieces", f"you have no {kind} left to build")


def check_road(state: State, seat: int, e: int) -> None:
    check_place(state, "edge", e)
    name = state.board.edge_name(e)
    if not state.board.topo.edge_is_land[e]:
        raise reject("base.build.not_land", f"{name} is not on land")
    if state.edge_owner[e] != NO_ONE:
        raise reject("base.build.occupied", f"{name} already holds a road")
    if not road_connects(state, seat, e):
        raise reject("base.build.road_connect", f"{name} does not connect to your network")
    for check in state.rules.road_blocked:
        rule_id = check(state, seat, e)
        if rule_id is not None:
            raise reject(rule_id, f"no road may be built on {name}")


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
    setup.check_settlement_site(state, cmd.seat, cmd.vertex)
    if not touches_own_road(state, cmd.seat, cmd.vertex):
        raise reject(
            "base.build.settlement_connect",
            f"{state.board.vertex_name(cmd.vertex)} does not touch one of your roads",
        )
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
        add_harbor(p.ratios, kind)
    if state.phase == SETUP:
        state.setup_vertex = v
    elif not e.free:
        pay(state, e.seat, state.rules.costs["settlement"])
    # A settlement may cut opponents' roads through this vertex. A trail passes a vertex on
    # two of its roads there, so only a seat with two or more roads here can lose length.
    owners = [state.edge_owner[f] for f in state.board.topo.vertex_edges[v]]
    for o in set(owners):
        if o != NO_ONE and o != e.seat and owners.count(o) >= 2:
            state.players[o].road_length = longest_road(state, o)


def add_harbor(ratios: list[int], kind: str) -> None:
    if kind == "3:1":
        for i in range(5):
            if ratios[i] > 3:
                ratios[i] = 3
    else:
        ratios[RESOURCE_INDEX[kind]] = 2


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
        pay(state, e.seat, state.rules.costs["road"])


def evolve_city(state: State, e: CityBuilt) -> None:
    p = state.players[e.seat]
    p.settlements.discard(e.vertex)
    p.cities.add(e.vertex)
    state.vertex_level[e.vertex] = CITY
    pay(state, e.seat, state.rules.costs["city"])


def install(rules: Ruleset) -> None:
    rules.costs.update(
        road=(1, 1, 0, 0, 0),
        settlement=(1, 1, 1, 1, 0),
        city=(0, 0, 0, 2, 3),
        development_card=(0, 0, 1, 1, 1),
    )
    rules.limits.update(road=15, settlement=5, city=4)
    rules.handlers[BuildRoad] = build_road
    rules.handlers[BuildSettlement] = build_settlement
    rules.handlers[BuildCity] = build_city
    rules.handlers[StopRoadBuilding] = stop_road_building
    rules.allow(MAIN, BuildRoad, BuildSettlement, BuildCity)
    rules.allow(ROAD_BUILDING, BuildRoad, StopRoadBuilding)
    rules.evolvers[SettlementBuilt] = evolve_settlement
    rules.evolvers[RoadBuilt] = evolve_road
    rules.evolvers[CityBuilt] = evolve_city
