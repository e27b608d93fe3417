"""Ships and the route (docs/rules/pirate-islands.md §11.4), roads kept on the main island, and
settlements on the pirate islands only at the seat's own marked site (§11.5).

A seat's ships form one route from its home settlement: each new ship lies on the seat's
lanes, touches the route's open end and brings it one lane step closer to the fortress (so the
route never branches, never loops and stops at the fortress). The order is kept in
`PirateState.routes`; the ships are also route pieces of the engine (`pieces.place`)."""

from __future__ import annotations

from events.commands import Command, PlayRoadBuilding, StopRoadBuilding
from events.events import Event, RoadBuildingPlayed, RoadBuilt
from events.pieces import PieceRemoved
from events.pirate_islands import BuildShip, MoveShip, ShipBuilt, ShipMoved
from events.prompts import Prompt
from services.rules.engine import hook_keys as hk
from services.rules.engine import pieces
from services.rules.engine.base.common import check_place, pay, require_afford, require_current
from services.rules.engine.base.devcards import ROAD_BUILDING_CARD, require_playable
from services.rules.engine.base.option_commands import roads
from services.rules.engine.base.roads import legal_road_edges
from services.rules.engine.base.sites import pieces_left
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.scenarios.pirate_islands.common import (
    SHIP,
    open_end,
    pirate,
    places,
    slot,
)
from services.rules.engine.state import MAIN, NO_ONE, ROAD_BUILDING, SETUP, Rules, State


def ship_refusal(state: State, seat: int, e: int) -> str | None:
    """Why a new ship of `seat` may not go on edge `e` (None: it may), cost aside."""
    sp = slot(state, seat)
    if e not in sp.lanes:
        return "pirate_islands.ship.lane"
    end = open_end(state, seat)
    if end == sp.fortress:
        return "pirate_islands.ship.fortress_end"
    if state.edge_owner[e] != NO_ONE:
        return "base.build.occupied"
    a, b = state.board.topo.edge_vertices[e]
    if end not in (a, b):
        return "pirate_islands.ship.route_end"
    far = b if a == end else a
    if sp.distance.get(far, -1) != sp.distance.get(end, -2) - 1:
        return "pirate_islands.ship.shortest"
    return None


def places_from(state: State, seat: int, end: int, free: int = NO_ONE) -> list[int]:
    """The edges a ship of `seat` may take from the route's open end `end` (the checks of
    `ship_refusal`, in one pass); `free`: an edge to count as empty (a ship about to move)."""
    sp = slot(state, seat)
    if end == sp.fortress:
        return []
    topo = state.board.topo
    owner = state.edge_owner
    step = sp.distance.get(end, -2) - 1
    out = []
    for e in topo.vertex_edges[end]:
        if e in sp.lanes and (owner[e] == NO_ONE or e == free):
            a, b = topo.edge_vertices[e]
            if sp.distance.get(b if a == end else a, -1) == step:
                out.append(e)
    return out


def ship_edges(state: State, seat: int) -> list[int]:
    """Where a new ship of `seat` may go now."""
    return places_from(state, seat, open_end(state, seat))


def build_ship(state: State, cmd: BuildShip, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    check_place(state, "edge", cmd.edge)
    if pieces_left(state, cmd.seat, SHIP) <= 0:
        raise reject("pirate_islands.ship.limit", "you have no ship left to build")
    why = ship_refusal(state, cmd.seat, cmd.edge)
    if why is not None:
        raise reject(why, f"no ship of yours may go on {state.board.edge_name(cmd.edge)}")
    free = state.phase == ROAD_BUILDING
    if not free:
        require_afford(state, cmd.seat, SHIP, "pirate_islands.ship.cost")
    return [ShipBuilt(seat=cmd.seat, edge=cmd.edge, free=free)]


def move_targets(state: State, seat: int) -> list[tuple[int, int]]:
    """(ship, to) pairs: the route's open ship moved to another place a new ship could go."""
    ps = pirate(state)
    route = ps.routes[seat]
    if ps.moved or not route:
        return []
    front = route[-1]
    end = open_end(state, seat)
    if front in ps.built or state.vertex_owner[end] != NO_ONE:
        return []  # built this turn, or the route is closed at a building
    a, b = state.board.topo.edge_vertices[front]
    behind = b if a == end else a  # the open end once the ship has left
    return [(front, e) for e in places_from(state, seat, behind, free=front) if e != front]


def move_ship(state: State, cmd: MoveShip, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    check_place(state, "edge", cmd.ship)
    check_place(state, "edge", cmd.to)
    if (cmd.ship, cmd.to) not in move_targets(state, cmd.seat):
        raise reject("pirate_islands.ship.move",
                     f"your ship on {state.board.edge_name(cmd.ship)} may not move to "
                     f"{state.board.edge_name(cmd.to)}")
    return [ShipMoved(seat=cmd.seat, ship=cmd.ship, to=cmd.to)]


# --- roads and settlements ------------------------------------------------------------------


def road_refusal(state: State, seat: int, e: int) -> str | None:
    """Roads stay on the main island, off every lane, and join ships only at a building."""
    pl = places(state.board)
    if e in pl.all_lanes:
        return "pirate_islands.road.main_island"
    topo = state.board.topo
    index = topo.hex_index
    if not any(h in index and index[h] in pl.main_hexes for h in topo.edges[e]):
        return "pirate_islands.road.main_island"
    if state.phase == SETUP:
        return None
    ships = state.players[seat].pieces.get(SHIP, set())
    owner = state.vertex_owner
    for v in topo.edge_vertices[e]:
        if owner[v] == seat:
            return None
        if owner[v] == NO_ONE and any(
                f != e and state.edge_owner[f] == seat and f not in ships
                for f in topo.vertex_edges[v]):
            return None
    if any(f in ships for v in topo.edge_vertices[e] for f in topo.vertex_edges[v]):
        return "pirate_islands.road.ship_join"
    return None


def settlement_refusal(state: State, seat: int, v: int) -> str | None:
    """On the main island anywhere (the base rules decide the rest); elsewhere only the seat's
    own marked site, and not during set-up."""
    pl = places(state.board)
    if any(h in pl.main_hexes for h in state.board.topo.vertex_land_hexes[v]):
        return None
    if state.phase == SETUP:
        return "pirate_islands.setup.main_island"
    if v == pl.slots[seat].site:
        return None
    return "pirate_islands.settlement.site"


# --- Road Building: roads or ships ----------------------------------------------------------


def free_pieces(state: State, seat: int) -> int:
    return pieces_left(state, seat, "road") + pieces_left(state, seat, SHIP)


def play_road_building(state: State, cmd: PlayRoadBuilding, dealer: Dealer) -> list[Event]:
    require_playable(state, cmd.seat, ROAD_BUILDING_CARD)
    return [RoadBuildingPlayed(seat=cmd.seat, roads=min(2, free_pieces(state, cmd.seat)))]


def free_options(state: State, seat: int) -> list[Command]:
    out: list[Command] = []
    if pieces_left(state, seat, "road") > 0:
        shared = roads(seat, state.board.topo.n_edges)
        out.extend([shared[e] for e in legal_road_edges(state, seat)])
    if pieces_left(state, seat, SHIP) > 0:
        out.extend(BuildShip(seat=seat, edge=e) for e in ship_edges(state, seat))
    return out


def prompt_road_building(state: State) -> list[Prompt]:
    seat = state.current
    options = free_options(state, seat) or [StopRoadBuilding(seat=seat)]
    return [Prompt(seat=seat, stage=ROAD_BUILDING, options=options, default=options[0])]


def stop_road_building(state: State, cmd: StopRoadBuilding, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    if free_options(state, cmd.seat):
        raise reject("pirate_islands.ship.road_building",
                     "place your free roads or ships; there is room for them")
    return [RoadBuilt(seat=cmd.seat, edge=NO_ONE, free=True)]


# --- options and evolvers -------------------------------------------------------------------


def options(state: State, seat: int, phase: str) -> list[Command]:
    if phase != MAIN:
        return []
    out: list[Command] = []
    hand = state.players[seat].hand
    cost = state.rules.cache.costs[SHIP]
    if pieces_left(state, seat, SHIP) > 0 and all(h >= c for h, c in zip(hand, cost, strict=True)):
        out.extend(BuildShip(seat=seat, edge=e) for e in ship_edges(state, seat))
    out.extend(MoveShip(seat=seat, ship=s, to=t) for s, t in move_targets(state, seat))
    return out


def evolve_ship_built(state: State, e: ShipBuilt) -> None:
    pieces.place(state, e.seat, SHIP, e.edge)
    ps = pirate(state)
    ps.routes[e.seat].append(e.edge)
    ps.built.add(e.edge)
    if state.phase == ROAD_BUILDING:
        state.free_roads -= 1
        if state.free_roads <= 0:
            state.free_roads = 0
            state.phase = MAIN
    elif not e.free:
        pay(state, e.seat, state.rules.cache.costs[SHIP])


def evolve_ship_moved(state: State, e: ShipMoved) -> None:
    pieces.remove(state, e.seat, SHIP, e.ship)
    pieces.place(state, e.seat, SHIP, e.to)
    ps = pirate(state)
    ps.routes[e.seat][-1] = e.to
    ps.moved = True


def lose_ship(state: State, e: PieceRemoved) -> None:
    """A lost ship leaves the route; warships stay with the rear-most ships that remain."""
    if e.kind != SHIP:
        return
    ps = pirate(state)
    route = ps.routes[e.seat]
    if e.site in route:
        route.remove(e.site)
    ps.warships[e.seat] = min(ps.warships[e.seat], len(route))


def install(rules: Rules) -> None:
    rules.cost(SHIP, (1, 0, 1, 0, 0))  # lumber, wool
    rules.handle(BuildShip, build_ship)
    rules.handle(MoveShip, move_ship)
    rules.handle(PlayRoadBuilding, play_road_building)
    rules.handle(StopRoadBuilding, stop_road_building)
    rules.allow(MAIN, BuildShip, MoveShip)
    rules.allow(ROAD_BUILDING, BuildShip)
    rules.prompt(ROAD_BUILDING, prompt_road_building)
    rules.add_hook(hk.EXTRA_OPTIONS, options)
    rules.add_hook(hk.ROAD_BLOCKED, road_refusal)
    rules.add_hook(hk.SETTLEMENT_BLOCKED, settlement_refusal)
    rules.evolve_with(ShipBuilt, evolve_ship_built)
    rules.evolve_with(ShipMoved, evolve_ship_moved)
    removed = rules.registry.evolvers[PieceRemoved]

    def evolve_removed(state: State, e: PieceRemoved) -> None:
        removed(state, e)
        lose_ship(state, e)

    rules.evolve_with(PieceRemoved, evolve_removed, wraps=True)

