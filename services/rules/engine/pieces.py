"""Placing and removing pieces of any kind, with everything that depends on pieces recomputed.

The base pieces live in `Player.roads / settlements / cities`; a module's kinds (vocab.py:
ships, bridges, knights, metropolises, fortresses …) in `Player.pieces[kind]`, and a route
kind's edges in `roads` as well (the seat's network: connection and Longest Road). Adding a
piece only ever lengthens routes, so `place` extends a length incrementally; removing one (an
Oil Springs flood, a Barbarian Attack conquest) can shorten a route anywhere, join opponents'
roads or lose a harbor, so `remove` recomputes the lengths and harbor ratios it may change.
Awards follow from derivers: `PieceRemoved` triggers Longest Road like a build does.
"""

from __future__ import annotations

from typing import Final

from events.pieces import PieceRemoved
from services.rules.engine.base.roads import longest_road, longest_road_through
from services.rules.engine.state import NO_ONE, Player, Rules, State

BASE_SETS: Final = ("road", "settlement", "city")


def sites(p: Player, kind: str) -> set[int]:
    """The places of a seat's pieces of this kind (created empty for a module's kind)."""
    if kind == "road":
        return p.roads
    if kind == "settlement":
        return p.settlements
    if kind == "city":
        return p.cities
    return p.pieces.setdefault(kind, set())


def count(p: Player, kind: str, rules: Rules) -> int:
    """Pieces of this kind on the board (a road count leaves out ships and bridges)."""
    if kind == "road":
        used = len(p.roads)
        if p.pieces:
            pieces = rules.vocab.pieces
            used -= sum(len(s) for k, s in p.pieces.items() if pieces[k].route)
        return used
    if kind == "settlement":
        return len(p.settlements)
    if kind == "city":
        return len(p.cities)
    return len(p.pieces.get(kind, ()))


def place(state: State, seat: int, kind: str, site: int) -> None:
    """Put a piece on the board (no cost, no checks: the caller decided it is legal)."""
    k = state.rules.vocab.pieces[kind]
    p = state.players[seat]
    if k.site == "vertex" and k.occupies:
        state.vertex_owner[site] = seat
        state.vertex_level[site] = k.level
        sites(p, kind).add(site)
        harbor = state.board.vertex_harbor[site]
        if harbor is not None:
            add_harbor(state, p.ratios, harbor)
        cut_routes(state, seat, site)
    elif k.site == "edge":
        if k.route:
            state.edge_owner[site] = seat
            p.roads.add(site)
        if kind != "road":
            sites(p, kind).add(site)
        if k.route:
            p.road_length = max(p.road_length, longest_road_through(state, seat, site))
    else:
        sites(p, kind).add(site)


def remove(state: State, seat: int, kind: str, site: int) -> None:
    """Take a piece off the board and recompute what depended on it."""
    k = state.rules.vocab.pieces[kind]
    p = state.players[seat]
    sites(p, kind).discard(site)
    if k.site == "vertex" and k.occupies:
        state.vertex_owner[site] = NO_ONE
        state.vertex_level[site] = 0
        p.ratios = harbor_ratios(state, p)
        # The seat's own trails and opponents' trails through this vertex may change.
        for o in {state.edge_owner[e] for e in state.board.topo.vertex_edges[site]} - {NO_ONE}:
            state.players[o].road_length = longest_road(state, o)
    elif k.site == "edge" and k.route:
        if state.edge_owner[site] == seat:
            state.edge_owner[site] = NO_ONE
        p.roads.discard(site)
        p.road_length = longest_road(state, seat)


def cut_routes(state: State, seat: int, v: int) -> None:
    """A building may cut opponents' routes through its vertex. A trail passes a vertex on two
    of its edges there, so only a seat with two or more route pieces here can lose length."""
    owners = [state.edge_owner[f] for f in state.board.topo.vertex_edges[v]]
    for o in set(owners):
        if o != NO_ONE and o != seat and owners.count(o) >= 2:
            state.players[o].road_length = longest_road(state, o)


def add_harbor(state: State, ratios: list[int], kind: str) -> None:
    if kind == "3:1":
        for i, r in enumerate(ratios):
            if r > 3:
                ratios[i] = 3
    else:
        ratios[state.rules.vocab.resource_index[kind]] = 2


def harbor_ratios(state: State, p: Player) -> list[int]:
    """A seat's maritime ratios from the harbors its buildings stand on now."""
    ratios = [4] * len(p.ratios)
    harbor = state.board.vertex_harbor
    buildings = [*p.settlements, *p.cities]
    for k, placed in p.pieces.items():
        piece = state.rules.vocab.pieces[k]
        if piece.site == "vertex" and piece.occupies:
            buildings.extend(placed)
    for v in buildings:
        kind = harbor[v]
        if kind is not None:
            add_harbor(state, ratios, kind)
    return ratios


def kind_weight(state: State, seat: int, edge: int) -> int:
    """A route piece's weight from its kind (`PieceKind.weight`; a plain road counts 1)."""
    p = state.players[seat]
    kinds = state.rules.vocab.pieces
    for kind, placed in p.pieces.items():
        if edge in placed:
            return kinds[kind].weight
    return 1


def recompute_routes(state: State) -> None:
    """Every owner's route length from scratch (after a route weight changed: a camel)."""
    for p in state.players:
        p.road_length = longest_road(state, p.seat)


def evolve_removed(state: State, e: PieceRemoved) -> None:
    remove(state, e.seat, e.kind, e.site)


def preplace(state: State) -> None:
    """The map's pre-placed pieces: seat i takes start slot i (no cost, no set-up step)."""
    m = state.board.mapdata
    if m is None:
        return
    board = state.board
    for i, slot in enumerate(m.slots[: state.n]):
        for kind, where in slot.pieces:
            place(state, i, kind, board.place(where)[1])

