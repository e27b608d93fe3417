"""Set-up in snake order (docs/rules/base.md §1.3): settlement then road, twice; the second settlement
brings one resource per adjacent producing hex. The rounds are the ruleset's `setup_rounds`
(a module plays settlement-then-city, say); pieces a map pre-places are down before set-up.
The pieces' evolvers live in `building`, the site checks in `sites`."""

from __future__ import annotations

from events.commands import Command, PlaceRoad, PlaceSettlement
from events.events import Event, RoadBuilt, SettlementBuilt, StartingResourcesTaken
from events.prompts import Prompt
from services.rules.engine.base.common import require_current, take_from_bank
from services.rules.engine.base.option_commands import setup_roads, setup_settlements
from services.rules.engine.base.roads import free_edge
from services.rules.engine.base.sites import check_road, check_settlement_site
from services.rules.engine.base.stages import SETUP_ROAD, SETUP_SETTLEMENT
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.state import NO_ONE, ROLL, SETUP, Rules, State


def setup_order(n: int, rounds: int = 2) -> tuple[int, ...]:
    """Snake order: forward in even rounds, back in odd ones."""
    forward, back = tuple(range(n)), tuple(reversed(range(n)))
    return tuple(s for r in range(rounds) for s in (forward if r % 2 == 0 else back))


def brings_resources(state: State) -> bool:
    return state.rules.setup_rounds[state.setup_pos // state.n].resources


def legal_setup_vertices(state: State, seat: int) -> list[int]:
    # `distance_ok` for every land vertex at once: the vertices with a building, and their
    # neighbours, are out.
    topo = state.board.topo
    crowded: set[int] = set()
    for v, o in enumerate(state.vertex_owner):
        if o != NO_ONE:
            crowded.add(v)
            crowded.update(topo.vertex_neighbours[v])
    candidates = topo.land_vertices
    if state.rules.hooks.settlement_permits:  # a module may allow a site off the land
        candidates = tuple(range(len(topo.vertices)))
    sites = [v for v in candidates if v not in crowded and (
        topo.vertex_is_land[v] or any(p(state, seat, v) for p in state.rules.hooks.settlement_permits))]
    blocked = state.rules.hooks.settlement_blocked
    if blocked:
        sites = [v for v in sites if all(c(state, seat, v) is None for c in blocked)]
    return sites


def legal_setup_edges(state: State) -> list[int]:
    topo = state.board.topo
    seat = state.current
    return [e for e in topo.vertex_edges[state.setup_vertex] if free_edge(state, seat, e)]


def starting_resources(state: State, v: int) -> list[int]:
    gains = [0] * len(state.bank)
    res = state.board.hex_resource
    for h in state.board.topo.vertex_land_hexes[v]:
        r = res[h]
        if r >= 0 and state.bank[r] > gains[r]:
            gains[r] += 1
    return gains


def place_settlement(state: State, cmd: PlaceSettlement, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    if state.setup_vertex != NO_ONE:
        raise reject("base.setup.settlement_first", "place the road for your settlement first")
    check_settlement_site(state, cmd.seat, cmd.vertex)
    events: list[Event] = [SettlementBuilt(seat=cmd.seat, vertex=cmd.vertex, free=True)]
    if brings_resources(state):
        gains = starting_resources(state, cmd.vertex)
        if any(gains):
            bundle = state.rules.vocab.wire_bundle(gains)
            events.append(StartingResourcesTaken(seat=cmd.seat, resources=bundle))
    return events


def place_road(state: State, cmd: PlaceRoad, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    if state.setup_vertex == NO_ONE:
        raise reject("base.setup.settlement_first", "place a settlement first")
    # The checks of a road built later, with adjacency to the settlement just placed instead
    # of the connection rule.
    check_road(state, cmd.seat, cmd.edge, setup_vertex=state.setup_vertex)
    return [RoadBuilt(seat=cmd.seat, edge=cmd.edge, free=True)]


def prompt_setup(state: State) -> list[Prompt]:
    seat = state.current
    options: list[Command]
    if state.setup_vertex == NO_ONE:
        sites = setup_settlements(seat, len(state.board.topo.vertices))
        options = [sites[v] for v in legal_setup_vertices(state, seat)]
        stage = SETUP_SETTLEMENT
    else:
        road = setup_roads(seat, state.board.topo.n_edges)
        options = [road[e] for e in legal_setup_edges(state)]
        stage = SETUP_ROAD
    return [Prompt(seat=seat, stage=stage, options=options, default=options[0])]


def evolve_starting_resources(state: State, e: StartingResourcesTaken) -> None:
    take_from_bank(state, e.seat, state.rules.vocab.vector(e.resources))


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


def install(rules: Rules) -> None:
    rules.handle(PlaceSettlement, place_settlement)
    rules.handle(PlaceRoad, place_road)
    rules.allow(SETUP, PlaceSettlement, PlaceRoad)
    rules.prompt(SETUP, prompt_setup)
    rules.evolve_with(StartingResourcesTaken, evolve_starting_resources)
