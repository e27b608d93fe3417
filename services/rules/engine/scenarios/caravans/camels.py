"""Where camels may go and what placing one does (docs/rules/caravans.md §8.6).

A placement is a pair (caravan, edge): the caravan is named by its arrow. An unused arrow's
placement is its start path; a caravan's are the free paths at its head. Placing a camel moves
the head to the path's far end and, when that end is a vertex of another caravan, merges the
two there (the mover keeps its id). Camels never block roads, and roads never block camels.
"""

from __future__ import annotations

from functools import lru_cache

from services.rules.engine import pieces
from services.rules.engine.board import Board
from services.rules.engine.scenarios.caravans.common import (
    ARROWS,
    CAMELS,
    OASIS,
    START_PATHS,
    ext,
)
from services.rules.engine.scenarios.caravans.state import Caravan, CaravanState
from services.rules.engine.state import NO_ONE, State


class Geometry:
    """The oasis's fixed places on a board: its hex, its six edges, each arrow's start path
    with the oasis corner it leaves from."""

    def __init__(self, board: Board) -> None:
        topo = board.topo
        self.oasis = next(h for h in range(len(topo.hexes)) if board.hex_terrain[h] == OASIS)
        self.oasis_edges = frozenset(topo.hex_edges[self.oasis])
        corners = set(topo.hex_vertices[self.oasis])
        self.start_paths: tuple[int, ...] = tuple(board.parse_edge(p) for p in START_PATHS)
        self.start_from: tuple[int, ...] = tuple(
            next(v for v in topo.edge_vertices[e] if v in corners) for e in self.start_paths
        )


@lru_cache(maxsize=16)
def geometry(board: Board) -> Geometry:
    return Geometry(board)


def is_path(state: State, e: int) -> bool:
    """A path camels may use: it borders land (coastal paths included)."""
    return state.board.topo.edge_is_land[e]


def next_paths(state: State, caravan: Caravan) -> list[int]:
    """The free paths at a caravan's head (at most two: a caravan never branches)."""
    camels = ext(state).camels
    topo = state.board.topo
    return sorted(e for e in topo.vertex_edges[caravan.head]
                  if e not in camels and is_path(state, e))


def placements(state: State, exclude: int = NO_ONE) -> list[tuple[int, int]]:
    """Every legal (caravan, edge) now; `exclude`: a caravan that may not take this camel
    (Catan for Two's second camel). Empty when the camels are used up."""
    x = ext(state)
    if len(x.camels) >= CAMELS:
        return []
    geo = geometry(state.board)
    out: list[tuple[int, int]] = []
    for arrow in range(ARROWS):
        if arrow == exclude:
            continue
        caravan = x.caravans[arrow]
        if caravan is None:
            if used(x, arrow):
                continue  # merged into another caravan
            start = geo.start_paths[arrow]
            if start not in x.camels:
                out.append((arrow, start))
        else:
            out.extend((arrow, e) for e in next_paths(state, caravan))
    return out


def used(x: CaravanState, arrow: int) -> bool:
    """Whether the arrow's caravan was started (it may since have merged into another)."""
    return x.started[arrow]


def far_end(state: State, caravan: int, edge: int) -> int:
    """The vertex that becomes the head when a camel of `caravan` goes on `edge`."""
    x = ext(state)
    a, b = state.board.topo.edge_vertices[edge]
    k = x.caravans[caravan]
    tail = geometry(state.board).start_from[caravan] if k is None else k.head
    return b if a == tail else a


def caravan_vertices(state: State, caravan: Caravan) -> set[int]:
    ev = state.board.topo.edge_vertices
    return {v for e in caravan.edges for v in ev[e]}


def merge_target(state: State, caravan: int, head: int) -> int | None:
    """The other caravan whose vertex the new head reaches, if any."""
    x = ext(state)
    for other, k in enumerate(x.caravans):
        if other != caravan and k is not None and head in caravan_vertices(state, k):
            return other
    return None


def place(state: State, caravan: int, edge: int, merged: int | None) -> None:
    """Evolve: the camel goes on the board (legality was decided), routes are recomputed."""
    x = ext(state)
    head = far_end(state, caravan, edge)
    k = x.caravans[caravan]
    if k is None:
        k = x.caravans[caravan] = Caravan([], head)
        x.started[caravan] = True
    k.edges.append(edge)
    k.head = head
    x.camels[edge] = caravan
    if merged is not None:
        other = x.caravans[merged]
        assert other is not None
        k.edges.extend(other.edges)
        for e in other.edges:
            x.camels[e] = caravan
        x.caravans[merged] = None
    a, b = state.board.topo.edge_vertices[edge]
    x.doubles = x.doubles | {v for v in (a, b) if camels_at(state, v) >= 2}
    pieces.recompute_routes(state)  # caravans.road.camel_double: roads beside it count 2


def camels_at(state: State, v: int) -> int:
    """How many camel paths touch vertex v."""
    camels = ext(state).camels
    return sum(1 for e in state.board.topo.vertex_edges[v] if e in camels)
