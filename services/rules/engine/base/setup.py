"""Set-up in snake order (RULES.md §1.3): settlement then road, twice; the second settlement
brings one resource per adjacent producing hex. The pieces' evolvers live in `building`."""

from __future__ import annotations

from events.commands import Command, PlaceRoad, PlaceSettlement
from events.events import Event, RoadBuilt, SettlementBuilt, StartingResourcesTaken
from events.prompts import Prompt
from events.types import bundle_to_vector, vector_to_bundle
from services.rules.engine.base.common import check_place, require_current, take_from_bank
from services.rules.engine.base.roads import distance_ok
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.ruleset import Ruleset
from services.rules.engine.state import NO_ONE, ROLL, SETUP, State


def setup_order(n: int) -> tuple[int, ...]:
    return tuple(range(n)) + tuple(reversed(range(n)))


def in_second_round(state: State) -> bool:
    return state.setup_pos >= state.n


def legal_setup_vertices(state: State, seat: int) -> list[int]:
    # `distance_ok` for every land vertex at once: the vertices with a building, and their
    # neighbours, are out.
    topo = state.board.topo
    crowded: set[int] = set()
    for v, o in enumerate(state.vertex_owner):
        if o != NO_ONE:
            crowded.add(v)
            crowded.update(topo.vertex_neighbours[v])
    sites = [v for v in topo.land_vertices if v not in crowded]
    blocked = state.rules.settlement_blocked
    if blocked:
        sites = [v for v in sites if all(c(state, seat, v) is None for c in blocked)]
    return sites


def legal_setup_edges(state: State) -> list[int]:
    topo = state.board.topo
    seat = state.current
    blocked = state.rules.road_blocked
    return [
        e
        for e in topo.vertex_edges[state.setup_vertex]
        if state.edge_owner[e] == NO_ONE
        and topo.edge_is_land[e]
        and all(c(state, seat, e) is None for c in blocked)
    ]


def starting_resources(state: State, v: int) -> list[int]:
    gains = [0, 0, 0, 0, 0]
    res = state.board.hex_resource
    for h in state.board.topo.vertex_land_hexes[v]:
        r = res[h]
        if r >= 0 and state.bank[r] > gains[r]:
            gains[r] += 1
    return gains


def check_settlement_site(state: State, seat: int, v: int) -> None:
    """Map, land, free and distance rule, plus any module's restriction."""
    check_place(state, "vertex", v)
    name = state.board.vertex_name(v)
    if not state.board.topo.vertex_is_land[v]:
        raise reject("base.build.not_land", f"{name} does not touch land")
    if state.vertex_owner[v] != NO_ONE:
        raise reject("base.build.occupied", f"{name} is taken")
    if not distance_ok(state, v):
        raise reject("base.build.distance", f"{name} is next to a settlement or city")
    for check in state.rules.settlement_blocked:
        rule_id = check(state, seat, v)
        if rule_id is not None:
            raise reject(rule_id, f"no settlement may stand on {name}")


def place_settlement(state: State, cmd: PlaceSettlement, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    if state.setup_vertex != NO_ONE:
        raise reject("base.setup.settlement_first", "place the road for your settlement first")
    check_settlement_site(state, cmd.seat, cmd.vertex)
    events: list[Event] = [SettlementBuilt(seat=cmd.seat, vertex=cmd.vertex, free=True)]
    if in_second_round(state):
        gains = starting_resources(state, cmd.vertex)
        if any(gains):
            events.append(StartingResourcesTaken(seat=cmd.seat, resources=vector_to_bundle(gains)))
    return events


def place_road(state: State, cmd: PlaceRoad, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    if state.setup_vertex == NO_ONE:
        raise reject("base.setup.settlement_first", "place a settlement first")
    check_place(state, "edge", cmd.edge)
    # The same checks, in the same order, as a road built later (building.check_road), with
    # adjacency to the settlement just placed instead of the connection rule.
    topo = state.board.topo
    name = state.board.edge_name(cmd.edge)
    if not topo.edge_is_land[cmd.edge]:
        raise reject("base.build.not_land", f"{name} is not on land")
    if state.edge_owner[cmd.edge] != NO_ONE:
        raise reject("base.build.occupied", f"{name} already holds a road")
    if cmd.edge not in topo.vertex_edges[state.setup_vertex]:
        raise reject(
            "base.setup.road_adjacent",
            f"the road must touch {state.board.vertex_name(state.setup_vertex)}",
        )
    for check in state.rules.road_blocked:
        rule_id = check(state, cmd.seat, cmd.edge)
        if rule_id is not None:
            raise reject(rule_id, f"no road may be built on {name}")
    return [RoadBuilt(seat=cmd.seat, edge=cmd.edge, free=True)]


def prompt_setup(state: State) -> list[Prompt]:
    seat = state.current
    options: list[Command]
    if state.setup_vertex == NO_ONE:
        options = [PlaceSettlement(seat=seat, vertex=v) for v in legal_setup_vertices(state, seat)]
        stage = "setup_settlement"
    else:
        options = [PlaceRoad(seat=seat, edge=e) for e in legal_setup_edges(state)]
        stage = "setup_road"
    return [Prompt(seat=seat, stage=stage, options=options, default=options[0])]


def evolve_starting_resources(state: State, e: StartingResourcesTaken) -> None:
    take_from_bank(state, e.seat, bundle_to_vector(e.resources))


def advance(state: State) -> None:
    """Move the snake on once a set-up road is down; the first turn goes to seat 0."""
    state.setup_vertex = NO_ONE
    state.setup_pos += 1
    if state.setup_pos >= len(state.setup_order):
        state.phase = ROLL
        state.current = state.setup_order[-1]
        state.turn = 1
    else:
        state.current = state.setup_order[state.setup_pos]


def install(rules: Ruleset) -> None:
    rules.handlers[PlaceSettlement] = place_settlement
    rules.handlers[PlaceRoad] = place_road
    rules.allow(SETUP, PlaceSettlement, PlaceRoad)
    rules.prompters[SETUP] = prompt_setup
    rules.evolvers[StartingResourcesTaken] = evolve_starting_resources
