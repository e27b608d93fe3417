"""Places as people name them: one naming used by the chat, the narration, the replay, the
pictures and `hexlog replay`'s text.

Every place a move can name has a short label, drawn on the pictures with `--labels`:

- a hex is a letter: the land hexes A, B, C … in reading order (top row first, left to right),
  then the sea hexes (after Z: AA, AB …);
- a corner is the letter of the first land hex it touches (in that order) and which corner of
  that hex it is, 1 to 6 clockwise from the top: `F1` is the top corner of hex F, `F4` its
  bottom one; the centre of a hex (a plaza of Traders & Barbarians) is `F0`;
- a path along a hex side is that hex's letter and the two corners it joins: `F1-2` is the
  upper right side of hex F; a path drawn between two corners (a wagon route) is the two
  corners' labels, `F0-G3`.

Beside the label, narration names a place in the words a player uses at the table: "the 9
mountains" (a hex), "the 6 forest / 8 hills / 3:1 harbor corner", "the 6 forest / coast path".
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from services.rules.engine.board import Board, Topology
from services.rules.engine.geometry import corners, sides

TERRAIN_WORDS = {"gold": "gold field", "oil_spring": "oil spring", "fields": "fields"}


def letters(i: int) -> str:
    """0 → A, 25 → Z, 26 → AA …"""
    out = ""
    i += 1
    while i:
        i, rest = divmod(i - 1, 26)
        out = chr(65 + rest) + out
    return out


@dataclass(frozen=True)
class Labels:
    """The short labels of one map's hexes, corners and paths (by their ids), and back."""

    hexes: tuple[str, ...]
    vertices: tuple[str, ...]
    edges: tuple[str, ...]

    def find(self, text: str) -> tuple[str, int] | None:
        """`("hex" | "vertex" | "edge", id)` of a label (any case), None if none has it."""
        return _index(self).get(text.strip().upper())


@lru_cache(maxsize=256)
def _index(labels: Labels) -> dict[str, tuple[str, int]]:
    out: dict[str, tuple[str, int]] = {}
    for kind, names in (("hex", labels.hexes), ("vertex", labels.vertices),
                        ("edge", labels.edges)):
        for i, name in enumerate(names):
            out.setdefault(name.upper(), (kind, i))
    return out


@lru_cache(maxsize=64)
def labels_of(topo: Topology) -> Labels:
    """The labels of a map (shared by every game on it: they depend on its shape alone)."""
    order = sorted(range(len(topo.hexes)),
                   key=lambda h: (not topo.hex_is_land[h], topo.hexes[h][1], topo.hexes[h][0]))
    rank = {h: i for i, h in enumerate(order)}
    hex_label = [""] * len(topo.hexes)
    for h, i in rank.items():
        hex_label[h] = letters(i)
    vertex_label = [""] * len(topo.vertices)
    for v, key in enumerate(topo.vertices):
        if key[0] == key[1] == key[2]:  # a hex's centre
            centre = topo.hex_index.get(key[0])
            vertex_label[v] = f"{hex_label[centre]}0" if centre is not None else f"V{v}"
            continue
        touching = [topo.hex_index[x] for x in set(key) if x in topo.hex_index]
        if not touching:
            vertex_label[v] = f"V{v}"
            continue
        h = min(touching, key=rank.__getitem__)
        vertex_label[v] = f"{hex_label[h]}{corners(topo.hexes[h]).index(key) + 1}"
    edge_label = [""] * topo.n_edges
    for e, side in enumerate(topo.edges):
        touching = [topo.hex_index[x] for x in side if x in topo.hex_index]
        h = min(touching, key=rank.__getitem__)
        j = sides(topo.hexes[h]).index(side)
        edge_label[e] = f"{hex_label[h]}{j + 1}-{(j + 1) % 6 + 1}"
    for e in range(len(topo.edges), topo.n_edges):
        a, b = topo.edge_vertices[e]
        edge_label[e] = f"{vertex_label[a]}-{vertex_label[b]}"
    return Labels(tuple(hex_label), tuple(vertex_label), tuple(edge_label))


# The command fields that name a place, beyond `vertex`, `edge` and `hex` (a field's name
# alone says it there): a module command's own names, by its type.
MODULE_PLACE_FIELDS: dict[str, dict[str, str]] = {
    "MoveShip": {"ship": "edge", "to": "edge"},
    "AttackFortress": {"fortress": "vertex"},
    "RelocateByTreason": {"source": "hex", "target": "hex"},
    "MarchKnight": {"source": "edge", "target": "edge"},
    "MarchForeignKnight": {"target": "edge"},
    "MoveBarbarianByTokens": {"source": "hex", "target": "hex"},
}
PLACE_KINDS = ("vertex", "edge", "hex")


def place_kind(command_type: str, name: str) -> str | None:
    """`"vertex"`, `"edge"` or `"hex"` when field `name` of a `command_type` names a place."""
    if name in PLACE_KINDS:
        return name
    return MODULE_PLACE_FIELDS.get(command_type, {}).get(name)


def command_places(command: Mapping[str, object]) -> list[tuple[str, int]]:
    """The places a command (as JSON: `type` and its fields) names: (kind, id) in field order
    (a field of -1, a supply or no place, names none)."""
    t = str(command.get("type", ""))
    out = []
    for name, value in command.items():
        kind = place_kind(t, name)
        if kind is not None and isinstance(value, int) and not isinstance(value, bool) \
                and value >= 0:
            out.append((kind, value))
    return out


def nameable(board: Board) -> tuple[frozenset[int], frozenset[int], frozenset[int]]:
    """The hexes, corners and paths a move can name on `board` (what `--labels` writes): the
    land's, each hex centre (a plaza), and every path a module's map marks (a ship lane out at
    sea, a river's bridge site)."""
    topo = board.topo
    hexes = frozenset(topo.land_hexes)
    vertices = frozenset(v for v in range(len(topo.vertices))
                         if topo.vertex_is_land[v] or topo.vertices[v][0] == topo.vertices[v][2])
    marked = frozenset(e for es in board.edge_features.values() for e in es)
    edges = frozenset(e for e in range(topo.n_edges) if topo.edge_is_land[e]) | marked
    return hexes, vertices, edges


class Places:
    """A board's places in words and labels (what narration's `Places` asks for)."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.labels = labels_of(board.topo)

    # -- the words ---------------------------------------------------------------------------

    def hex_words(self, h: int) -> str:
        """`9 mountains`, `desert`, `2·3·11·12 lake`, `sea`."""
        board = self.board
        terrain = board.hex_terrain[h]
        name = TERRAIN_WORDS.get(terrain, terrain.replace("_", " "))
        numbers = "·".join(map(str, board.hex_numbers[h]))
        return f"{numbers} {name}" if numbers else name

    def hex(self, h: int) -> str:
        """`the 9 mountains (F)`."""
        if not 0 <= h < len(self.labels.hexes):
            return "off the board"
        return f"the {self.hex_words(h)} ({self.labels.hexes[h]})"

    def vertex_words(self, v: int) -> str:
        """`the 6 forest / 8 hills / 3:1 harbor corner`."""
        topo, board = self.board.topo, self.board
        key = topo.vertices[v]
        if key[0] == key[1] == key[2]:
            h = topo.hex_index.get(key[0])
            return f"the plaza of the {self.hex_words(h)}" if h is not None else "a plaza"
        land = sorted(topo.vertex_land_hexes[v], key=lambda h: (topo.hexes[h][1], topo.hexes[h][0]))
        parts = [self.hex_words(h) for h in land]
        harbor = board.vertex_harbor[v]
        if harbor is not None:
            parts.append("3:1 harbor" if harbor == "3:1" else f"2:1 {harbor} harbor")
        elif topo.vertex_is_coastal[v] or not land:
            parts.append("coast" if land else "sea")
        return f"the {' / '.join(parts)} corner"

    def vertex(self, v: int) -> str:
        """`the 6 forest / 8 hills / 3:1 harbor corner (F4)`."""
        if not 0 <= v < len(self.labels.vertices):
            return "no corner"
        return f"{self.vertex_words(v)} ({self.labels.vertices[v]})"

    def edge_words(self, e: int) -> str:
        """`the 6 forest / 8 hills path`, `the 6 forest / coast path`."""
        topo = self.board.topo
        if e >= len(topo.edges):
            a, b = topo.edge_vertices[e]
            return f"the route from corner {self.labels.vertices[a]} to corner {self.labels.vertices[b]}"
        key = topo.edges[e]
        found = [topo.hex_index[x] for x in key if x in topo.hex_index]
        land = [h for h in found if topo.hex_is_land[h]]
        parts = [self.hex_words(h) for h in sorted(land, key=lambda h: (topo.hexes[h][1],
                                                                        topo.hexes[h][0]))]
        if len(land) < 2:
            parts.append("coast" if land else "sea")
        return f"the {' / '.join(parts)} path"

    def edge(self, e: int) -> str:
        """`the 6 forest / 8 hills path (F2-3)`."""
        if not 0 <= e < len(self.labels.edges):
            return "no path"
        return f"{self.edge_words(e)} ({self.labels.edges[e]})"

    # -- labels ------------------------------------------------------------------------------

    def hex_label(self, h: int) -> str:
        return self.labels.hexes[h]

    def vertex_label(self, v: int) -> str:
        return self.labels.vertices[v]

    def edge_label(self, e: int) -> str:
        return self.labels.edges[e]


    # -- text from the rules ---------------------------------------------------------------

    def readable(self, text: str) -> str:
        """`text` (a refusal's message, say) with each place named by its coordinates —
        `(0,0)`, `(0,0)/(1,-1)`, `(0,0)/(1,-1)/(1,0)` — named as people name it."""
        topo = self.board.topo

        def name(m: re.Match[str]) -> str:
            hexes = tuple((int(q), int(r)) for q, r in PAIR.findall(m.group(0)))
            key = tuple(sorted(hexes))
            if len(key) == 3 and key in topo.vertex_index:
                return self.vertex(topo.vertex_index[key])  # type: ignore[index]
            if len(key) == 2 and key in topo.edge_index:
                return self.edge(topo.edge_index[key])  # type: ignore[index]
            if len(key) == 1 and key[0] in topo.hex_index:
                return self.hex(topo.hex_index[key[0]])
            return m.group(0)

        return PLACE_NAME.sub(name, text)


PAIR = re.compile(r"\((-?\d+),(-?\d+)\)")
PLACE_NAME = re.compile(r"\(-?\d+,-?\d+\)(?:/\(-?\d+,-?\d+\)){0,2}")

# Text a person reads never names a place by its map coordinates or an internal id.
COORDINATES = re.compile(r"\(-?\d+, ?-?\d+\)")
BARE_ID = re.compile(r"\b(?:vertex|vertices|edge|edges|hex|hexes|corner|path|tile|site)\s+#?\d+\b", re.IGNORECASE)


def unreadable_places(text: str) -> list[str]:
    """The coordinate or id place names in `text` (none in a sentence for people)."""
    return COORDINATES.findall(text) + BARE_ID.findall(text)
