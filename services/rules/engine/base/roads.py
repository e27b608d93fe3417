"""Road networks: where a seat may build, and its longest road (docs/rules/base.md §1.7, §1.9).

A seat's network is its route pieces of every kind (`Player.roads`: roads, ships, bridges).
A ruleset with a `route_weight` hook (a road beside a camel counts 2) searches with weights;
without one (the base game) every edge counts 1 and the unweighted searches below are used.
"""

from __future__ import annotations

from collections.abc import Sequence

from services.rules.engine import hooks
from services.rules.engine.state import NO_ONE, State


def permitted(
    state: State, permits: Sequence[hooks.PlacePermit[State]], seat: int, place: int
) -> bool:
    """Whether a module permits this place (a ship on the sea, a settlement a ship reaches)."""
    return any(permit(state, seat, place) for permit in permits)


def free_edge(state: State, seat: int, e: int) -> bool:
    """An edge a route piece of `seat` may take, connection aside: unowned, on land (or
    permitted) and not blocked by a module."""
    if state.edge_owner[e] != NO_ONE:
        return False
    rules = state.rules
    if not state.board.topo.edge_is_land[e] and not permitted(state, rules.hooks.road_permits, seat, e):
        return False
    return all(check(state, seat, e) is None for check in rules.hooks.road_blocked)


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
    rules = state.rules
    blocked = rules.hooks.road_blocked
    permits = rules.hooks.road_permits
    out: set[int] = set()
    for v in network_vertices(state, seat):
        o = owner[v]
        if o != NO_ONE and o != seat:
            continue
        for e in topo.vertex_edges[v]:
            if edge_owner[e] == NO_ONE and (land[e] or permits and permitted(state, permits, seat, e)):
                out.add(e)
    if permits:  # a permit may also allow an edge away from the network
        out.update(e for e in range(len(edge_owner))
                   if edge_owner[e] == NO_ONE and permitted(state, permits, seat, e))
    if blocked:
        out = {e for e in out if all(check(state, seat, e) is None for check in blocked)}
    return sorted(out)


def distance_ok(state: State, v: int) -> bool:
    owner = state.vertex_owner
    if owner[v] != NO_ONE:
        return False
    for u in state.board.topo.vertex_neighbours[v]:  # noqa: SIM110 (no generator: hot)
        if owner[u] != NO_ONE:
            return False
    return True


def legal_settlement_vertices(state: State, seat: int) -> list[int]:
    """The vertices where `seat` may build a settlement, in ascending order: the ends of its
    route pieces, each looked at once (flags in a list: compiled, a list item is read and
    written in C where a set hashes every id), the distance rule inlined."""
    topo = state.board.topo
    land = topo.vertex_is_land
    neighbours = topo.vertex_neighbours
    owner = state.vertex_owner
    ev = topo.edge_vertices
    seen = [False] * len(owner)
    out: list[int] = []
    for e in state.players[seat].roads:
        for v in ev[e]:
            if seen[v]:
                continue
            seen[v] = True
            if not land[v] or owner[v] != NO_ONE:
                continue
            free = True
            for u in neighbours[v]:  # the distance rule (distance_ok)
                if owner[u] != NO_ONE:
                    free = False
                    break
            if free:
                out.append(v)
    permits = state.rules.hooks.settlement_permits
    if permits:  # a site a module permits need not touch the network
        out.extend(v for v in range(len(owner))
                   if not seen[v] and distance_ok(state, v) and permitted(state, permits, seat, v))
    blocked = state.rules.hooks.settlement_blocked
    if blocked:
        out = [v for v in out if all(check(state, seat, v) is None for check in blocked)]
    out.sort()
    return out


def touches_own_road(state: State, seat: int, v: int) -> bool:
    edge_owner = state.edge_owner
    return any(edge_owner[e] == seat for e in state.board.topo.vertex_edges[v])


def longest_road(state: State, seat: int) -> int:
    """Length of the seat's longest trail of roads (no road twice), broken at opponents'
    buildings: a trail may end at one but not pass it.

    A depth-first search over trails from a few start vertices, one piece of the network at a
    time (a piece: roads joined at vertices the seat may pass). A longest trail can always
    start at a vertex with other than two of the seat's roads, or at an opponent's building:
    a trail starting at a free vertex with two roads could either be extended by the other
    road there, or is a closed loop that can start anywhere on it. A piece without such a
    vertex is a plain loop, searched from any of its vertices.
    """
    roads = state.players[seat].roads
    links = state.board.topo.vertex_links
    owner = state.vertex_owner
    weight = state.rules.hooks.route_weight
    weights = None if weight is None else {f: weight(state, seat, f) for f in roads}
    best = 0
    seen = 0  # bit mask of the roads of the pieces searched so far
    for root in roads:
        if not seen >> root & 1:
            count, starts, seen = _piece(state, seat, root, seen)
            for v in starts:
                if best >= count and weights is None:
                    break  # no trail is longer than its piece
                if weights is None:
                    n = _walk(links, roads, owner, seat, v, 0, 0)
                else:
                    n = _walk_weighted(links, roads, owner, seat, weights, v, 0, 0)
                if n > best:
                    best = n
    return best


# The last answer of `longest_road_through` with everything it depends on (the map, the seat,
# the road, the seat's roads, every vertex's owner). After `decide` a road is evolved twice in
# a row: on the scratch copy the derivers see, then on the real state; the second is answered
# here (`step` evolves it once).
_last_through: tuple[object, int, int, frozenset[int], list[int], int] | None = None


def longest_road_through(state: State, seat: int, e: int) -> int:
    """Length of the seat's longest trail that uses its road e.

    Building a road only adds trails, all of them through the new road, so the evolvers keep a
    seat's length as max(length before, this): one search from the new road instead of a
    search of the whole network. A trail through e = (a trail from one end a, reversed) + e +
    (a trail from the other end b, on other roads): every trail from a is completed by the
    longest one from b. The trails from a are enumerated on the end with fewer roads (a new
    road at the tip of a branch has none there, so it is a single search from b)."""
    global _last_through
    if state.rules.hooks.route_weight is not None:
        return longest_road(state, seat)  # weights change with other pieces: search it all
    topo, roads, owner = state.board.topo, state.players[seat].roads, state.vertex_owner
    last = _last_through
    if (last is not None and last[0] is topo and last[1] == seat and last[2] == e
            and last[3] == roads and last[4] == owner):
        return last[5]
    length = _search_through(state, seat, e)
    _last_through = (topo, seat, e, frozenset(roads), owner[:], length)
    return length


def _search_through(state: State, seat: int, e: int) -> int:
    roads = state.players[seat].roads
    links = state.board.topo.vertex_links
    owner = state.vertex_owner
    a, b = state.board.topo.edge_vertices[e]
    if _degree(roads, links[a]) > _degree(roads, links[b]):
        a, b = b, a
    b_free = owner[b] in (NO_ONE, seat)
    if owner[a] in (NO_ONE, seat):
        return 1 + _through(links, roads, owner, seat, a, 1 << e, 0, b, b_free)
    # Nothing from a: it cannot be passed.
    return 1 + (_walk(links, roads, owner, seat, b, 1 << e, 0) if b_free else 0)


def _degree(roads: set[int], links: tuple[tuple[int, int, int], ...]) -> int:
    return sum(1 for f, _, _ in links if f in roads)


# The searches below are module functions taking what they read as arguments, not closures:
# compiled, their recursion is then a direct C call (a closure is called through CPython's call
# protocol); interpreted, they cost about what the closures did.
Links = tuple[tuple[tuple[int, int, int], ...], ...]


def _walk(links: Links, roads: set[int], owner: list[int], seat: int,
          v: int, used: int, length: int) -> int:
    """The length of the longest trail that continues from vertex v on the seat's roads not in
    `used` (a bit mask of edge ids), `length` being the roads walked so far. The trail may end
    at an opponent's building but not pass it."""
    best = length
    for f, w, bit in links[v]:
        if f in roads and not used & bit:
            o = owner[w]
            if o != NO_ONE and o != seat:
                n = length + 1
            else:
                n = _walk(links, roads, owner, seat, w, used | bit, length + 1)
            if n > best:
                best = n
    return best


def _walk_weighted(links: Links, roads: set[int], owner: list[int], seat: int,
                   weights: dict[int, int], v: int, used: int, length: int) -> int:
    """`_walk` where each route piece counts `weights[edge]` roads (`route_weight`)."""
    best = length
    for f, w, bit in links[v]:
        if f in roads and not used & bit:
            o = owner[w]
            step = length + weights[f]
            if o != NO_ONE and o != seat:
                n = step
            else:
                n = _walk_weighted(links, roads, owner, seat, weights, w, used | bit, step)
            if n > best:
                best = n
    return best


def _through(links: Links, roads: set[int], owner: list[int], seat: int,
             v: int, used: int, length: int, b: int, b_free: bool) -> int:
    """The longest trail that goes on from v (from the new road's end a), each completed by
    the longest one from the other end b (`longest_road_through`; unweighted)."""
    best = length + (_walk(links, roads, owner, seat, b, used, 0) if b_free else 0)
    for f, w, bit in links[v]:
        if f in roads and not used & bit:
            o = owner[w]
            if o != NO_ONE and o != seat:  # the part from a ends at an opponent's building
                n = length + 1 + (_walk(links, roads, owner, seat, b, used | bit, 0) if b_free else 0)
            else:
                n = _through(links, roads, owner, seat, w, used | bit, length + 1, b, b_free)
            if n > best:
                best = n
    return best


def _piece(state: State, seat: int, root: int, seen: int) -> tuple[int, list[int], int]:
    """The piece of the seat's network around its road `root` (roads joined at vertices it
    may pass): (its number of roads, the start vertices `longest_road` searches from, `seen`
    with its roads added)."""
    roads = state.players[seat].roads
    links = state.board.topo.vertex_links
    owner = state.vertex_owner
    seen |= 1 << root
    count = 1
    starts: list[int] = []
    stack: list[int] = []
    visited: set[int] = set()

    def reach(v: int) -> None:
        visited.add(v)
        if owner[v] in (NO_ONE, seat):
            stack.append(v)
        else:
            starts.append(v)  # an opponent's building: a trail may start here, not pass

    for v in state.board.topo.edge_vertices[root]:
        reach(v)
    while stack:
        v = stack.pop()
        degree = 0
        for f, w, bit in links[v]:
            if f in roads:
                degree += 1
                if not seen & bit:
                    seen |= bit
                    count += 1
                if w not in visited:
                    reach(w)
        if degree != 2:
            starts.append(v)
    return count, starts or [state.board.topo.edge_vertices[root][0]], seen
