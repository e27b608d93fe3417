"""Road networks: where a seat may build, and its longest road (RULES.md §1.7, §1.9)."""

from __future__ import annotations

from services.rules.engine.state import NO_ONE, State


def network_vertices(state: State, seat: int) -> set[int]:
    """Vertices a seat's roads reach or its buildings stand on."""
    ev = state.board.topo.edge_vertices
    out: set[int] = set()
    p = state.players[seat]
    for e in p.roads:
        a, b = ev[e]
        out.add(a)
        out.add(b)
    out.update(p.settlements)
    out.update(p.cities)
    return out


def road_connects(state: State, seat: int, e: int) -> bool:
    """True if edge e touches the seat's building, or its road at a vertex no opponent holds."""
    topo = state.board.topo
    owner = state.vertex_owner
    edge_owner = state.edge_owner
    for v in topo.edge_vertices[e]:
        o = owner[v]
        if o == seat:
            return True
        if o != NO_ONE:
            continue  # an opponent's building: a road cannot continue through it
        for f in topo.vertex_edges[v]:
            if f != e and edge_owner[f] == seat:
                return True
    return False


def legal_road_edges(state: State, seat: int) -> list[int]:
    topo = state.board.topo
    owner = state.vertex_owner
    edge_owner = state.edge_owner
    land = topo.edge_is_land
    blocked = state.rules.road_blocked
    out: set[int] = set()
    for v in network_vertices(state, seat):
        o = owner[v]
        if o != NO_ONE and o != seat:
            continue
        for e in topo.vertex_edges[v]:
            if edge_owner[e] == NO_ONE and land[e]:
                out.add(e)
    if blocked:
        out = {e for e in out if all(check(state, seat, e) is None for check in blocked)}
    return sorted(out)


def distance_ok(state: State, v: int) -> bool:
    owner = state.vertex_owner
    if owner[v] != NO_ONE:
        return False
    return all(owner[u] == NO_ONE for u in state.board.topo.vertex_neighbours[v])


def legal_settlement_vertices(state: State, seat: int) -> list[int]:
    topo = state.board.topo
    land = topo.vertex_is_land
    out: list[int] = []
    ev = topo.edge_vertices
    seen: set[int] = set()
    for e in state.players[seat].roads:
        for v in ev[e]:
            if v in seen:
                continue
            seen.add(v)
            if land[v] and distance_ok(state, v):
                out.append(v)
    blocked = state.rules.settlement_blocked
    if blocked:
        out = [v for v in out if all(check(state, seat, v) is None for check in blocked)]
    out.sort()
    return out


def touches_own_road(state: State, seat: int, v: int) -> bool:
    edge_owner = state.edge_owner
    return any(edge_owner[e] == seat for e in state.board.topo.vertex_edges[v])


def longest_road(state: State, seat: int) -> int:
    """Length of the seat's longest simple path of roads, broken at opponents' buildings."""
    roads = state.players[seat].roads
    if not roads:
        return 0
    topo = state.board.topo
    ev = topo.edge_vertices
    vedges = topo.vertex_edges
    owner = state.vertex_owner
    best = 0
    used: set[int] = set()

    def walk(v: int, length: int) -> None:
        nonlocal best
        if length > best:
            best = length
        o = owner[v]
        if o != NO_ONE and o != seat and length > 0:
            return  # the path may end at an opponent's building but not pass it
        for f in vedges[v]:
            if f in roads and f not in used:
                used.add(f)
                a, b = ev[f]
                walk(b if a == v else a, length + 1)
                used.discard(f)

    # Starting at every endpoint covers every simple path (each has an endpoint).
    starts: set[int] = set()
    for e in roads:
        starts.update(ev[e])
    for v in starts:
        walk(v, 0)
        if best == len(roads):
            break
    return best
