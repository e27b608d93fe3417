"""Bridge sites and bridges (docs/rules/rivers.md §7.3); with Catan for Two the neutral bridge
a bridge owes is the pair's rule (engine/combinations/rivers_catan_for_two.py).

A bridge is a route piece (vocab `bridge`, 3 per seat): `pieces.place` puts it in the seat's
network, so connection, Longest Road and blocking treat it as a road (`rivers.bridge.route`).
It is built only by `BuildBridge` in the main phase, never by a free-road effect (Road
Building's roads are `BuildRoad`s, which a bridge site refuses).
"""

from __future__ import annotations

from events.commands import Command
from events.events import Event
from events.rivers import BridgeBuilt, BuildBridge
from services.rules.engine import pieces
from services.rules.engine.base.common import (
    can_afford,
    check_place,
    pay,
    require_afford,
    require_current,
)
from services.rules.engine.base.roads import road_connects
from services.rules.engine.base.sites import pieces_left
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import Rejected, reject
from services.rules.engine.scenarios.rivers.common import BRIDGE, places
from services.rules.engine.state import MAIN, NO_ONE, ROAD_BUILDING, State


def road_on_bridge_site(state: State, seat: int, edge: int) -> str | None:
    """`road_blocked`: no road (nor a neutral road) on a bridge site, set-up included."""
    return "rivers.road.bridge_site" if edge in places(state).bridge_sites else None


def site_problem(state: State, owner: int, edge: int) -> Rejected | None:
    """Where a bridge of `owner` may stand: a free bridge site its network reaches."""
    name = state.board.edge_name(edge)
    if edge not in places(state).bridge_sites:
        return reject("rivers.bridge.site", f"{name} is not a bridge site")
    if state.edge_owner[edge] != NO_ONE:
        return reject("base.build.occupied", f"{name} already holds a road or bridge")
    if not road_connects(state, owner, edge):
        return reject("rivers.bridge.connect", f"{name} does not connect to the network")
    return None


def bridge_sites_for(state: State, owner: int) -> list[int]:
    if pieces_left(state, owner, BRIDGE) <= 0:
        return []
    return sorted(e for e in places(state).bridge_sites if site_problem(state, owner, e) is None)


def build_bridge(state: State, cmd: BuildBridge, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    check_place(state, "edge", cmd.edge)
    problem = site_problem(state, cmd.seat, cmd.edge)
    if problem is not None:
        raise problem
    if pieces_left(state, cmd.seat, BRIDGE) <= 0:
        raise reject("rivers.bridge.limit", "you have no bridge left (3 per player)")
    require_afford(state, cmd.seat, BRIDGE, "rivers.bridge.cost")
    return [BridgeBuilt(seat=cmd.seat, edge=cmd.edge)]


def evolve_bridge(state: State, e: BridgeBuilt) -> None:
    pieces.place(state, e.seat, BRIDGE, e.edge)
    pay(state, e.seat, state.rules.cache.costs[BRIDGE])


def bridge_options(state: State, seat: int, phase: str) -> list[Command]:
    if phase != MAIN or not can_afford(state.players[seat].hand, state.rules.cache.costs[BRIDGE]):
        return []
    return [BuildBridge(seat=seat, edge=e) for e in bridge_sites_for(state, seat)]


def bridge_not_free(state: State, command: Command) -> str | None:
    """`phase_refusal`: a bridge asked for while free roads are being placed."""
    if isinstance(command, BuildBridge) and state.phase == ROAD_BUILDING:
        return "rivers.bridge.not_free"
    return None
