"""A board: one game's map (tiles and harbors) with its topology as dense integer ids.

Topology (vertices, edges, adjacency) depends only on which hexes are land and which are sea
(plus a map's centre vertices and explicit paths), so it is computed once per shape and shared
by every game on that shape; the per-game part is the terrain, numbers and harbors. Ids are
stable: vertices and edges are sorted by their hex names, so the same map always gives the same
ids (they appear in commands and events); centre vertices and explicit paths come after them.

A hex may produce on several numbers (`hex_numbers`: the lake on 2, 3, 11, 12); `hex_number`
is its first (its token). Edge features (river, bridge site, ship lane …) are per edge sets.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from events.events import Harbor, Tile
from events.types import TERRAIN_RESOURCE
from services.rules.engine.geometry import (
    EdgeKey,
    Hex,
    VertexKey,
    corners,
    edge_endpoints,
    edge_key,
    format_edge,
    format_hex,
    format_vertex,
    parse_hexes,
    sides,
    vertex_key,
)
from services.rules.engine.mapdata import MapData

Path = tuple[VertexKey, VertexKey]  # an explicit path between two vertices (sorted)


def centre_key(h: Hex) -> VertexKey:
    """The vertex at the centre of hex h (a T&B plaza): named "(q,r)/(q,r)/(q,r)"."""
    return (h, h, h)


class Topology:
    """Vertices and edges of a set of land and sea hexes; immutable, shared between games."""

    def __init__(
        self,
        land: frozenset[Hex],
        sea: frozenset[Hex],
        centres: frozenset[Hex] = frozenset(),
        paths: frozenset[Path] = frozenset(),
    ) -> None:
        hexes = sorted(land | sea)
        self.hexes: tuple[Hex, ...] = tuple(hexes)
        self.hex_index: dict[Hex, int] = {h: i for i, h in enumerate(hexes)}
        self.hex_is_land: tuple[bool, ...] = tuple(h in land for h in hexes)
        vkeys: set[VertexKey] = set()
        ekeys: set[EdgeKey] = set()
        for h in hexes:
            vkeys.update(corners(h))
            ekeys.update(sides(h))
        extra_v = sorted(centre_key(h) for h in centres)
        self.vertices: tuple[VertexKey, ...] = tuple(sorted(vkeys)) + tuple(extra_v)
        self.vertex_index: dict[VertexKey, int] = {v: i for i, v in enumerate(self.vertices)}
        self.edges: tuple[EdgeKey, ...] = tuple(sorted(ekeys))
        self.edge_index: dict[EdgeKey, int] = {e: i for i, e in enumerate(self.edges)}
        # Explicit paths get the ids after the hex sides.
        self.paths: tuple[Path, ...] = tuple(sorted(paths))
        self.path_index: dict[Path, int] = {
            p: len(self.edges) + i for i, p in enumerate(self.paths)
        }
        self.n_edges = len(self.edges) + len(self.paths)

        hi = self.hex_index
        self.vertex_hexes: tuple[tuple[int, ...], ...] = tuple(
            tuple(hi[h] for h in sorted(set(v)) if h in hi) for v in self.vertices
        )
        self.vertex_land_hexes: tuple[tuple[int, ...], ...] = tuple(
            tuple(i for i in hs if self.hex_is_land[i]) for hs in self.vertex_hexes
        )
        self.vertex_is_land: tuple[bool, ...] = tuple(bool(hs) for hs in self.vertex_land_hexes)
        # A coastal vertex touches land and something that is not land (sea or off the map).
        self.vertex_is_coastal: tuple[bool, ...] = tuple(
            self.vertex_is_land[i] and len(self.vertex_land_hexes[i]) < 3
            for i in range(len(self.vertices))
        )
        vi = self.vertex_index
        self.edge_vertices: tuple[tuple[int, int], ...] = tuple(
            self._endpoints(e) for e in self.edges
        ) + tuple((vi[a], vi[b]) for a, b in self.paths)
        self.edge_is_land: tuple[bool, ...] = tuple(
            any(h in hi and self.hex_is_land[hi[h]] for h in e) for e in self.edges
        ) + (True,) * len(self.paths)
        self.edge_is_sea: tuple[bool, ...] = tuple(
            any(h in hi and not self.hex_is_land[hi[h]] for h in e) for e in self.edges
        ) + (False,) * len(self.paths)
        v_edges: list[list[int]] = [[] for _ in self.vertices]
        for ei, (a, b) in enumerate(self.edge_vertices):
            v_edges[a].append(ei)
            v_edges[b].append(ei)
        self.vertex_edges: tuple[tuple[int, ...], ...] = tuple(tuple(es) for es in v_edges)
        self.vertex_neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(
                self.edge_vertices[e][1] if self.edge_vertices[e][0] == v else self.edge_vertices[e][0]
                for e in es
            )
            for v, es in enumerate(self.vertex_edges)
        )
        # Per vertex, each edge there as (edge, the edge's other end, 1 << edge): what the
        # road searches (base/roads.py) step along, with the edge's bit for their masks.
        self.vertex_links: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
            tuple((e, w, 1 << e) for e, w in zip(es, self.vertex_neighbours[v], strict=True))
            for v, es in enumerate(self.vertex_edges)
        )
        self.hex_vertices: tuple[tuple[int, ...], ...] = tuple(
            tuple(self.vertex_index[c] for c in corners(h)) for h in hexes
        )
        self.hex_edges: tuple[tuple[int, ...], ...] = tuple(
            tuple(self.edge_index[s] for s in sides(h)) for h in hexes
        )
        # Human names, made once: the rules put them in every check's message up front.
        self.hex_names: tuple[str, ...] = tuple(format_hex(h) for h in self.hexes)
        self.vertex_names: tuple[str, ...] = tuple(format_vertex(v) for v in self.vertices)
        self.edge_names: tuple[str, ...] = tuple(format_edge(e) for e in self.edges) + tuple(
            f"{format_vertex(a)}|{format_vertex(b)}" for a, b in self.paths
        )
        self.land_hexes: tuple[int, ...] = tuple(
            i for i, land_ in enumerate(self.hex_is_land) if land_
        )
        self.land_vertices: tuple[int, ...] = tuple(
            i for i, land_ in enumerate(self.vertex_is_land) if land_
        )
        self.land_edges: tuple[int, ...] = tuple(
            i for i, land_ in enumerate(self.edge_is_land) if land_
        )

    def _endpoints(self, e: EdgeKey) -> tuple[int, int]:
        a, b = edge_endpoints(e)
        return self.vertex_index[a], self.vertex_index[b]


@lru_cache(maxsize=64)
def topology(
    land: frozenset[Hex],
    sea: frozenset[Hex],
    centres: frozenset[Hex] = frozenset(),
    paths: frozenset[Path] = frozenset(),
) -> Topology:
    return Topology(land, sea, centres, paths)


# A hex of a module's terrain, as `layout.from_setup` gives it: (q, r, terrain, number).
SpecialHex = tuple[int, int, str, int]


class Board:
    """Topology plus one game's terrain, numbers and harbors. Immutable once built.

    `mapdata` (the game's map file) adds centre vertices, explicit paths, extra numbers and
    edge features; `special` the hexes of module terrains; `terrain_resource` is the ruleset's
    terrain → resource index (the base terrains by default), `water` its terrains that are
    not land and `deserts` those a rule naming "the desert" means (`desert_hexes`);
    `extra_numbers` are numbers decided with the layout (`layout.extra_numbers`). Without them (a bot building a board from a view) it is the plain base board."""

    def __init__(
        self,
        tiles: tuple[Tile, ...],
        harbors: tuple[Harbor, ...],
        mapdata: MapData | None = None,
        special: Sequence[SpecialHex] = (),
        terrain_resource: Mapping[str, int] = TERRAIN_RESOURCE,
        water: frozenset[str] = frozenset({"sea"}),
        deserts: frozenset[str] = frozenset({"desert"}),
        extra_numbers: Sequence[tuple[Hex, int]] = (),
    ) -> None:
        laid = [(t.q, t.r, str(t.terrain), t.number) for t in tiles] + list(special)
        land = frozenset((q, r) for q, r, t, _ in laid if t not in water)
        sea = frozenset((q, r) for q, r, t, _ in laid if t in water)
        centres: frozenset[Hex] = frozenset()
        paths: frozenset[Path] = frozenset()
        if mapdata is not None:
            centres = frozenset(mapdata.centres)
            paths = frozenset(_path(a, b) for a, b in mapdata.paths)
        topo = topology(land, sea, centres, paths)
        self.topo = topo
        self.tiles = tiles
        self.harbors = harbors
        self.mapdata = mapdata
        self.special = tuple(special)
        self.terrain_resource = dict(terrain_resource)
        n_hex = len(topo.hexes)
        terrain = ["sea"] * n_hex
        numbers: list[tuple[int, ...]] = [()] * n_hex
        for q, r, t, n in laid:
            i = topo.hex_index[(q, r)]
            terrain[i] = t
            numbers[i] = (n,) if n else ()
        if mapdata is not None:
            for fh in mapdata.fixed:  # a fixed hex with several numbers: its token is first
                i = topo.hex_index[(fh.q, fh.r)]
                if len(fh.numbers) > 1 and numbers[i] == fh.numbers[:1]:
                    numbers[i] = fh.numbers
            for i, t in enumerate(terrain):
                numbers[i] += mapdata.terrain_numbers.get(t, ())
            for where, n in mapdata.extra_numbers:
                numbers[topo.hex_index[where]] += (n,)
        for where, n in extra_numbers:  # decided with the layout (a token joining another)
            numbers[topo.hex_index[where]] += (n,)
        self.extra_numbers = tuple(extra_numbers)
        self.deserts = deserts
        self.hex_terrain: tuple[str, ...] = tuple(terrain)
        self.hex_numbers: tuple[tuple[int, ...], ...] = tuple(numbers)
        self.hex_number: tuple[int, ...] = tuple(ns[0] if ns else 0 for ns in numbers)
        self.hex_resource: tuple[int, ...] = tuple(terrain_resource.get(t, -1) for t in terrain)
        by_number: dict[int, list[int]] = {}
        for i in range(n_hex):
            if topo.hex_is_land[i]:
                for n in numbers[i]:
                    by_number.setdefault(n, []).append(i)
        self.number_hexes: dict[int, tuple[int, ...]] = {k: tuple(v) for k, v in by_number.items()}
        self.edge_features: dict[str, frozenset[int]] = {}
        if mapdata is not None:
            found: dict[str, set[int]] = {}
            for one, other, feature in mapdata.edges:
                found.setdefault(feature, set()).add(topo.edge_index[edge_key(one, other)])
            self.edge_features = {f: frozenset(es) for f, es in found.items()}
        vertex_harbor: list[str | None] = [None] * len(topo.vertices)
        self.harbor_vertices: list[tuple[int, int]] = []
        for hb in harbors:
            e = topo.edge_index[edge_key(hb.sea, hb.land)]
            a, b = topo.edge_vertices[e]
            vertex_harbor[a] = hb.kind
            vertex_harbor[b] = hb.kind
            self.harbor_vertices.append((a, b))
        self.vertex_harbor: tuple[str | None, ...] = tuple(vertex_harbor)
        self.desert_hexes: tuple[int, ...] = tuple(
            i for i in range(n_hex) if terrain[i] in deserts
        )

    # --- convenient views of the topology (the hot paths read `topo` directly) --------------

    @property
    def n_vertices(self) -> int:
        return len(self.topo.vertices)

    @property
    def n_edges(self) -> int:
        return self.topo.n_edges

    def hex_id(self, h: Hex) -> int:
        return self.topo.hex_index[h]

    def vertex_id(self, a: Hex, b: Hex, c: Hex) -> int:
        return self.topo.vertex_index[vertex_key(a, b, c)]

    def edge_id(self, a: Hex, b: Hex) -> int:
        return self.topo.edge_index[edge_key(a, b)]

    def hex_name(self, i: int) -> str:
        return self.topo.hex_names[i]

    def vertex_name(self, i: int) -> str:
        return self.topo.vertex_names[i]

    def edge_name(self, i: int) -> str:
        return self.topo.edge_names[i]

    def parse_vertex(self, text: str) -> int:
        hs = parse_hexes(text)
        if len(hs) != 3:
            raise ValueError(f"a vertex is three hexes, got {text!r}")
        key = vertex_key(*hs)
        if key not in self.topo.vertex_index:
            raise ValueError(f"no such vertex on this map: {text!r}")
        return self.topo.vertex_index[key]

    def parse_edge(self, text: str) -> int:
        if "|" in text:  # an explicit path: "vertex|vertex"
            a, _, b = text.partition("|")
            path = _path(a, b)
            if path not in self.topo.path_index:
                raise ValueError(f"no such path on this map: {text!r}")
            return self.topo.path_index[path]
        hs = parse_hexes(text)
        if len(hs) != 2:
            raise ValueError(f"an edge is two hexes, got {text!r}")
        key = edge_key(hs[0], hs[1])
        if key not in self.topo.edge_index:
            raise ValueError(f"no such edge on this map: {text!r}")
        return self.topo.edge_index[key]

    def place(self, text: str) -> tuple[str, int]:
        """A place by name: ("vertex", id), ("edge", id) or ("hex", id)."""
        if "|" in text:
            return "edge", self.parse_edge(text)
        n = len(parse_hexes(text))
        if n == 3:
            return "vertex", self.parse_vertex(text)
        if n == 2:
            return "edge", self.parse_edge(text)
        return "hex", self.parse_hex(text)

    def parse_hex(self, text: str) -> int:
        hs = parse_hexes(text)
        if len(hs) != 1 or hs[0] not in self.topo.hex_index:
            raise ValueError(f"no such hex on this map: {text!r}")
        return self.topo.hex_index[hs[0]]


def _path(a: str, b: str) -> Path:
    """The key of the explicit path between two vertices given by name."""
    ka, kb = (_vertex_key_of(x) for x in (a, b))
    return (ka, kb) if ka <= kb else (kb, ka)


def _vertex_key_of(text: str) -> VertexKey:
    hs = parse_hexes(text)
    if len(hs) != 3:
        raise ValueError(f"a vertex is three hexes, got {text!r}")
    return vertex_key(*hs)
