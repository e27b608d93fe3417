"""Where pieces may go (building rules): the one check of each kind of site, shared by a build,
a set-up placement and a module's piece (a neutral road, a ship): on the map, on land (or a
module's permit), free, connected to the seat's network (in set-up: touching the settlement
just placed), the distance rule, and every module's blockers; and the pieces a seat has left."""

from __future__ import annotations

from collections.abc import Sequence

from services.rules.engine import pieces
from services.rules.engine.base.common import check_place
from services.rules.engine.base.roads import (
    distance_ok,
    permitted,
    road_connects,
    touches_own_road,
)
from services.rules.engine.hooks import PlaceCheck
from services.rules.engine.rules import reject
from services.rules.engine.state import NO_ONE, State


def pieces_left(state: State, seat: int, kind: str) -> int:
    p = state.players[seat]
    if kind == "road":
        used = len(p.roads) if not p.pieces else pieces.count(p, kind, state.rules)
    elif kind == "settlement":
        used = len(p.settlements)
    elif kind == "city":
        used = len(p.cities)
    else:
        used = pieces.count(p, kind, state.rules)
    return state.rules.cache.limits[kind] - used


def require_piece(state: State, seat: int, kind: str) -> None:
    if pieces_left(state, seat, kind) <= 0:
        raise reject("base.build.no_pieces", f"you have no {kind} left to build")


def check_road(state: State, seat: int, e: int, setup_vertex: int = NO_ONE) -> None:
    """Where a road may go: on the map, on land (or permitted), free, connected to the seat's
    network — in set-up, touching the settlement just placed (`setup_vertex`) — and allowed
    by every module."""
    check_place(state, "edge", e)
    name = state.board.edge_name(e)
    permits = state.rules.hooks.road_permits
    if not state.board.topo.edge_is_land[e] and not permitted(state, permits, seat, e):
        raise reject("base.build.not_land", f"{name} is not on land")
    if state.edge_owner[e] != NO_ONE:
        raise reject("base.build.occupied", f"{name} already holds a road")
    if setup_vertex != NO_ONE:
        if e not in state.board.topo.vertex_edges[setup_vertex]:
            raise reject("base.setup.road_adjacent",
                         f"the road must touch {state.board.vertex_name(setup_vertex)}")
    elif not road_connects(state, seat, e) and not permitted(state, permits, seat, e):
        raise reject("base.build.road_connect", f"{name} does not connect to your network")
    refuse_blocked(state, state.rules.hooks.road_blocked, seat, e, f"no road may be built on {name}")


def check_settlement_site(state: State, seat: int, v: int) -> None:
    """Map, land (or permitted), free and distance rule, plus any module's restriction."""
    check_place(state, "vertex", v)
    name = state.board.vertex_name(v)
    if not state.board.topo.vertex_is_land[v] and not permitted(
        state, state.rules.hooks.settlement_permits, seat, v
    ):
        raise reject("base.build.not_land", f"{name} does not touch land")
    if state.vertex_owner[v] != NO_ONE:
        raise reject("base.build.occupied", f"{name} is taken")
    if not distance_ok(state, v):
        raise reject("base.build.distance", f"{name} is next to a settlement or city")
    blocked = state.rules.hooks.settlement_blocked
    refuse_blocked(state, blocked, seat, v, f"no settlement may stand on {name}")


def refuse_blocked(
    state: State, checks: Sequence[PlaceCheck[State]], seat: int, place: int, message: str
) -> None:
    """Raise the first module rule that blocks this place."""
    for check in checks:
        rule_id = check(state, seat, place)
        if rule_id is not None:
            raise reject(rule_id, message)


def check_settlement(state: State, seat: int, v: int) -> None:
    """A settlement built in the game: a free site that touches the seat's network (or that
    a module permits)."""
    check_settlement_site(state, seat, v)
    if not touches_own_road(state, seat, v) and not permitted(
        state, state.rules.hooks.settlement_permits, seat, v
    ):
        raise reject(
            "base.build.settlement_connect",
            f"{state.board.vertex_name(v)} does not touch one of your roads",
        )


