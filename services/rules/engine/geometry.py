"""Hex geometry in axial coordinates (docs/rules/README.md §0.1).

Pointy-top hexes at (q, r); r grows southward. A vertex is named by the three hexes that meet
there and an edge by the two hexes it separates, so names need no lookup tables and survive
serialisation. `Board` turns these names into dense integer ids once per map.
"""

from __future__ import annotations

from typing import Final

Hex = tuple[int, int]
VertexKey = tuple[Hex, Hex, Hex]  # sorted
EdgeKey = tuple[Hex, Hex]  # sorted

# Neighbour directions in clockwise order starting north-east.
DIRECTIONS: Final[tuple[Hex, ...]] = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))


def neighbours(h: Hex) -> tuple[Hex, ...]:
    q, r = h
    return tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def corners(h: Hex) -> tuple[VertexKey, ...]:
    """The six corners of `h`, clockwise from the north corner."""
    ns = neighbours(h)
    # Corner i lies between neighbour i-1 and neighbour i (north = between NW and NE).
    return tuple(vertex_key(h, ns[i - 1], ns[i]) for i in range(6))


def sides(h: Hex) -> tuple[EdgeKey, ...]:
    """The six sides of `h`, clockwise from the north-east side."""
    return tuple(edge_key(h, n) for n in neighbours(h))


def vertex_key(a: Hex, b: Hex, c: Hex) -> VertexKey:
    x, y, z = sorted((a, b, c))
    return (x, y, z)


def edge_key(a: Hex, b: Hex) -> EdgeKey:
    return (a, b) if a < b else (b, a)


def edge_endpoints(e: EdgeKey) -> tuple[VertexKey, VertexKey]:
    """The two corners at the ends of the side between the hexes of `e`."""
    a, b = e
    common = sorted(set(neighbours(a)) & set(neighbours(b)))
    return vertex_key(a, b, common[0]), vertex_key(a, b, common[1])


def format_hex(h: Hex) -> str:
    return f"({h[0]},{h[1]})"


def format_vertex(v: VertexKey) -> str:
    return "/".join(format_hex(h) for h in v)


def format_edge(e: EdgeKey) -> str:
    return "/".join(format_hex(h) for h in e)


def parse_hexes(text: str) -> tuple[Hex, ...]:
    """Parse "(0,0)/(1,-1)" (or "0,0 1,-1") into hexes; raises ValueError with the reason."""
    cleaned = text.replace("(", " ").replace(")", " ").replace("/", " ")
    parts = [p for p in cleaned.split() if p]
    hexes: list[Hex] = []
    for p in parts:
        qs, _, rs = p.partition(",")
        if not rs:
            raise ValueError(f"not a hex: {p!r} (expected q,r)")
        hexes.append((int(qs), int(rs)))
    return tuple(hexes)
