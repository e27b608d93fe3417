"""The board as a picture: one SVG document for a game at one version, as one viewer sees it.

Layout: pointy-top hexes in axial coordinates (pixel x = size·√3·(q + r/2), y = size·1.5·r),
each vertex at the mean of its three hexes' centres (a hex-centre vertex at the centre). The
board — terrain, number tokens with their probability dots, harbors, pieces, the robber — comes
from the state: those are public facts. The side panel — hands, development cards, VP — comes
from a `View`, which already hides what the viewer may not see; nothing secret is drawn and then
hidden. Each rule module draws its own pieces and markers through its `drawing` hook, the same
hook the text board uses (`Sketch.mark`): here a mark is a small labelled tag at its place.

Plain strings rather than a drawing library: a board is ~300 elements and this path renders one
in about a millisecond (benchmarks/README.md), fast enough to post a picture after every move.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

from events.prompts import PlayerView, View
from events.types import Resource
from services.render import symbols
from services.render.label_layout import Box, Wanted, around, place
from services.render.narrate import COLORS
from services.render.phases import phase_words
from services.render.places import Labels, labels_of, nameable
from services.rules.engine import score
from services.rules.engine.board import Topology
from services.rules.engine.modules import MODULES
from services.rules.engine.state import CITY, NO_ONE, State

SIZE = 46.0  # hex radius, px
PANEL = 340.0  # side panel width, px
MARGIN = 24.0
SQ3 = math.sqrt(3.0)

TERRAIN_FILL = {
    "forest": "#2f7d32", "hills": "#c0642d", "pasture": "#9ccc65", "fields": "#f2c94c",
    "mountains": "#8d8f99", "desert": "#e8d7a5", "sea": "#3d8ec9", "lake": "#5aa9e6",
    "gold": "#d4af37", "swamp": "#6b705c", "oasis": "#c7b26b", "castle": "#7a6f8f",
    "quarry": "#a1887f", "glassworks": "#80cbc4", "oil_spring": "#37474f",
}
SEAT_FILL = ("#d32f2f", "#1e63c4", "#f5f5f5", "#ef7d00", "#2e7d32", "#6d4c41")
SEAT_STROKE = ("#5f0f0f", "#0b2a59", "#555555", "#6b3800", "#0d3b10", "#2b1d18")


def pips(n: int) -> int:
    """Probability dots under a number token: the ways two dice make n (6 for 6 and 8)."""
    return 6 - abs(7 - n) if 2 <= n <= 12 and n != 7 else 0


@dataclass(frozen=True)
class Highlight:
    """Places touched by the last move, drawn with a halo."""

    vertices: frozenset[int] = frozenset()
    edges: frozenset[int] = frozenset()
    hexes: frozenset[int] = frozenset()


@dataclass
class _Doc:
    parts: list[str] = field(default_factory=list)

    def add(self, text: str) -> None:
        self.parts.append(text)


def hex_centre(q: int, r: int) -> tuple[float, float]:
    return SIZE * SQ3 * (q + r / 2), SIZE * 1.5 * r


@dataclass(frozen=True)
class Frame:
    """The picture's outer box (viewBox origin and size; the panel starts at `panel_x`)."""

    left: float
    top: float
    width: float
    height: float
    panel_x: float


def frame_of(state: State) -> Frame:
    centres = [hex_centre(*h) for h in state.board.topo.hexes]
    xs = [x for x, _ in centres]
    ys = [y for _, y in centres]
    left, top = min(xs) - SIZE - MARGIN, min(ys) - SIZE - MARGIN
    board_w = max(xs) - min(xs) + 2 * (SIZE + MARGIN)
    height = max(max(ys) - min(ys) + 2 * (SIZE + MARGIN) + legend_rows(state) * LEGEND_ROW + 18,
                 panel_height(state))
    return Frame(left, top, board_w + PANEL, height, left + board_w)


def board_svg(state: State, seen: View, *, highlight: Highlight | None = None,
              title: str = "", narration: str = "", labels: bool = False,
              targets: Sequence[Target] = ()) -> str:
    """The picture of `state` (board) with `seen`'s side panel; `highlight` marks the last
    move's places; `title` and `narration` are printed above the panel; `labels` writes every
    place's label (services/render/places.py), `targets` marks a prompt's places."""
    f = frame_of(state)
    extra = {k: symbols.LEGEND[k] for k, on in (("labels", labels), ("target", bool(targets)))
             if on}
    return (svg_open(state, f) + terrain_layer(state)
            + pieces_layer(state, seen, highlight=highlight, title=title, narration=narration,
                           extra_legend=extra)
            + labels_layer(state, every=labels, targets=targets)
            + "</svg>")


@dataclass(frozen=True)
class Target:
    """A place a prompt offers (a corner, a path or a hex), drawn with the label its option
    uses."""

    place: str  # "vertex", "edge" or "hex"
    site: int


def labels_layer(state: State, *, every: bool = False, targets: Sequence[Target] = ()) -> str:
    """The places' labels: with `every`, each hex, corner and path a move can name
    (places.nameable: the land's and the paths a module's map marks, ship lanes at sea
    included); each of `targets` as a bright tag (what a prompt offers). A label sits at its
    place unless a piece, a symbol, a token, a harbor or another label is there: then it moves
    the least it takes (services/render/label_layout.py)."""
    if not every and not targets:
        return ""
    topo = state.board.topo
    names = labels_of(topo)
    vpos = _vertex_positions(state)
    centres = [hex_centre(*h) for h in topo.hexes]
    by_letter = {names.hexes[h]: centres[h] for h in range(len(topo.hexes))}

    def toward(text: str, x: float, y: float) -> tuple[float, float]:
        letter = text.rstrip("0123456789-").split("-")[0].rstrip("0123456789")
        return by_letter.get(letter, (x, y))

    # (x, y, text, size, class, ink, paper, attributes): targets first, they matter most.
    wanted: list[tuple[float, float, str, float, str, str, str, str]] = []
    for t in targets:
        x, y, text = _place_of(t.place, t.site, names, topo, vpos, centres)
        wanted.append((x, y, text, 11, "target", "#000000", "#ffeb3b",
                       f' data-place="{t.place}" data-site="{t.site}"'))
    if every:
        hexes, vertices, edges = nameable(state.board)
        for h in sorted(hexes):
            cx, cy = centres[h]
            wanted.append((cx - SIZE * 0.42, cy - SIZE * 0.42, names.hexes[h], 12, "hex-label",
                           "#12263f", "#ffffff", ""))
        for v in sorted(vertices):
            x, y = vpos[v]
            wanted.append((x, y, names.vertices[v], 8, "vertex-label", "#1a237e", "#ffffff",
                           ""))
        for e in sorted(edges):
            x, y, text = _place_of("edge", e, names, topo, vpos, centres)
            wanted.append((x, y, text, 7, "edge-label", "#37474f", "#eceff1", ""))
    asks = []
    for x, y, text, size, *_ in wanted:
        tx, ty = toward(text, x, y)
        asks.append(Wanted(x, y, *_label_size(text, size), tx, ty))
    spots = place(asks, _obstacles(state, vpos, centres))
    doc = _Doc()
    doc.add('<g class="labels">')
    for spot, (_, _, text, size, cls, ink, paper, extra) in zip(spots, wanted, strict=True):
        doc.add(_label(spot.x, spot.y, text, size * spot.scale, cls, ink, paper, extra))
    doc.add("</g>")
    return "".join(doc.parts)


def _place_of(place: str, site: int, names: Labels, topo: Topology,
              vpos: Mapping[int, tuple[float, float]],
              centres: Sequence[tuple[float, float]]) -> tuple[float, float, str]:
    """Where a place's label wants to sit (a hex's above its token, a corner's on it, a
    path's at its middle), and the label."""
    if place == "hex":
        x, y = centres[site]
        return x, y - SIZE * 0.5, names.hexes[site]
    if place == "vertex":
        x, y = vpos[site]
        return x, y, names.vertices[site]
    a, b = topo.edge_vertices[site]
    return (vpos[a][0] + vpos[b][0]) / 2, (vpos[a][1] + vpos[b][1]) / 2, names.edges[site]


def _label_size(text: str, size: float) -> tuple[float, float]:
    """A label's box: its bold text and a little paper around it."""
    return text_width(text, size, True) + 4, size + 3


def _obstacles(state: State, vpos: Mapping[int, tuple[float, float]],
               centres: Sequence[tuple[float, float]]) -> list[Box]:
    """What a label must not cover: buildings, module symbols, number tokens, harbors and the
    robber (roads and ships' lanes are paths: a path's own label sits on it)."""
    out: list[Box] = []
    for v, owner in enumerate(state.vertex_owner):
        if owner != NO_ONE:
            x, y = vpos[v]
            out.append(Box(x - 11, y - 17, x + 11, y + 8) if state.vertex_level[v] == CITY
                       else Box(x - 8, y - 11, x + 8, y + 7))
    board = state.board
    for h, numbers in enumerate(board.hex_numbers):
        if numbers:  # a round token: a cross of two boxes leaves its corners free
            out += [around(*centres[h], 30, 20), around(*centres[h], 20, 30)]
    if 0 <= state.robber < len(centres):
        cx, cy = centres[state.robber]
        out.append(Box(cx + 9, cy - 21, cx + 23, cy + 8))
    for hb in board.harbors:
        x, y = _harbor_spot(hb.sea, hb.land)
        half = _harbor_half(hb.kind)
        out.append(Box(x - half, y - 10, x + half, y + 9))
    sketch = _SvgSketch(_Doc(), state, vpos, centres)
    for spec in state.rules.modules:
        drawing = MODULES[spec.name].drawing
        if drawing is not None:
            sketch.module = spec.name
            drawing(state, sketch)
    out += sketch.boxes
    return out


def _label(x: float, y: float, text: str, size: float, cls: str, ink: str, paper: str,
           extra: str = "") -> str:
    width = text_width(text, size, True) + 4
    height = size + 3
    return (f'<g class="{cls}"{extra}><rect x="{x - width / 2:.1f}" y="{y - height / 2:.1f}" '
            f'width="{width:.1f}" height="{height:.1f}" rx="2" fill="{paper}" '
            f'stroke="{ink}" stroke-width="0.6" opacity="0.9"/>'
            f'<text x="{x:.1f}" y="{y + size * 0.36:.1f}" font-size="{size}" font-weight="bold" '
            f'text-anchor="middle" fill="{ink}">{escape(text)}</text></g>')


def svg_open(state: State, f: Frame, *, background: bool = True) -> str:
    """The document's opening tag, and the sea-blue background unless a layer goes over one."""
    back = (f'<rect x="{f.left:.1f}" y="{f.top:.1f}" width="{f.width:.1f}" '
            f'height="{f.height:.1f}" fill="#1d3557"/>') if background else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{f.left:.1f} {f.top:.1f} '
            f'{f.width:.1f} {f.height:.1f}" width="{f.width:.0f}" height="{f.height:.0f}" '
            f'font-family="DejaVu Sans, Verdana, sans-serif" '
            f'data-game="{escape(state.game_id)}">{back}')


def terrain_layer(state: State) -> str:
    """What changes rarely: hexes, number tokens, harbors (a replay page stores it once per
    change, not per step)."""
    doc = _Doc()
    doc.add('<g class="terrain">')
    centres = [hex_centre(*h) for h in state.board.topo.hexes]
    _hexes(doc, state, centres)
    _harbors(doc, state, _vertex_positions(state))
    doc.add("</g>")
    return "".join(doc.parts)


def _shows(kind: str, state: State, mark: Highlight) -> bool:
    """Whether the picture shows a base symbol (the legend explains only what is there)."""
    if kind == "settlement":
        return any(o != NO_ONE and lv != CITY
                   for o, lv in zip(state.vertex_owner, state.vertex_level, strict=False))
    if kind == "city":
        return any(lv == CITY and o != NO_ONE
                   for o, lv in zip(state.vertex_owner, state.vertex_level, strict=False))
    if kind == "road":
        return any(o != NO_ONE for o in state.edge_owner)
    if kind == "robber":
        return 0 <= state.robber < len(state.board.topo.hexes)
    if kind == "token":
        return any(state.board.hex_numbers)
    if kind == "harbor":
        return bool(state.board.harbors)
    if kind == "neutral":
        return len(state.players) > state.n
    return bool(mark.vertices or mark.edges or mark.hexes)


def pieces_layer(state: State, seen: View, *, highlight: Highlight | None = None,
                 title: str = "", narration: str = "",
                 extra_legend: Mapping[str, str] | None = None) -> str:
    """What a move changes: the robber, roads, buildings, module marks, the highlight of the
    last move and the side panel."""
    f = frame_of(state)
    vpos = _vertex_positions(state)
    centres = [hex_centre(*h) for h in state.board.topo.hexes]
    mark = highlight or Highlight()
    doc = _Doc()
    doc.add(f'<g class="pieces" data-version="{state.version}">')
    for h in sorted(mark.hexes):
        if 0 <= h < len(centres):
            doc.add(f'<polygon class="halo" points="{_polygon(*centres[h], SIZE - 3)}" '
                    'fill="none" stroke="#ffeb3b" stroke-width="5"/>')
    _robber(doc, state, centres)
    _roads(doc, state, vpos, mark)
    _buildings(doc, state, vpos, mark)
    used = _module_marks(doc, state, vpos, centres)
    shown = {k: symbols.LEGEND[k] for k in BASE_LEGEND if _shows(k, state, mark)}
    _legend(doc, f, state, {**shown, **used, **(extra_legend or {})})
    _panel(doc, seen, state, f.panel_x, f.top, f.height, title, narration)
    doc.add("</g>")
    return "".join(doc.parts)


def _vertex_positions(state: State) -> dict[int, tuple[float, float]]:
    topo = state.board.topo
    out: dict[int, tuple[float, float]] = {}
    for v, key in enumerate(topo.vertices):
        points = [hex_centre(*h) for h in key]
        out[v] = (sum(p[0] for p in points) / 3, sum(p[1] for p in points) / 3)
    return out


def _polygon(cx: float, cy: float, radius: float) -> str:
    return " ".join(f"{cx + radius * math.cos(math.radians(60 * i - 30)):.1f},"
                    f"{cy + radius * math.sin(math.radians(60 * i - 30)):.1f}" for i in range(6))


def _hexes(doc: _Doc, state: State, centres: list[tuple[float, float]]) -> None:
    board = state.board
    for h, (cx, cy) in enumerate(centres):
        terrain = board.hex_terrain[h]
        fill = TERRAIN_FILL.get(terrain, "#b0bec5")
        doc.add(f'<polygon class="hex" data-hex="{h}" data-terrain="{escape(terrain)}" '
                f'points="{_polygon(cx, cy, SIZE - 1)}" fill="{fill}" stroke="#12263f" '
                'stroke-width="2"/>')
        numbers = board.hex_numbers[h]
        if numbers:
            _token(doc, cx, cy, numbers)


def _robber(doc: _Doc, state: State, centres: list[tuple[float, float]]) -> None:
    h = state.robber
    if 0 <= h < len(centres):
        cx, cy = centres[h]
        doc.add(f'<g class="robber" data-hex="{h}"><circle cx="{cx + 16:.1f}" '
                f'cy="{cy - 14:.1f}" r="7" fill="#222"/><rect x="{cx + 10:.1f}" '
                f'y="{cy - 8:.1f}" width="12" height="16" rx="4" fill="#222"/></g>')


def _token(doc: _Doc, cx: float, cy: float, numbers: tuple[int, ...]) -> None:
    label = "·".join(map(str, numbers))
    red = any(n in (6, 8) for n in numbers)
    size = 15 if len(numbers) == 1 else 10
    doc.add(f'<g class="token"><circle cx="{cx:.1f}" cy="{cy:.1f}" r="15" fill="#fff3d6" '
            f'stroke="#5d4037"/><text x="{cx:.1f}" y="{cy + 2:.1f}" font-size="{size}" '
            f'text-anchor="middle" font-weight="bold" fill="{"#c62828" if red else "#222"}">'
            f'{label}</text>')
    if len(numbers) == 1 and pips(numbers[0]):
        # All dots in one path: a picture is rasterised element by element.
        dots = pips(numbers[0])
        arcs = "".join(f"M{cx + (i - (dots - 1) / 2) * 3.6 - 1.3:.1f},{cy + 9:.1f}"
                       "a1.3,1.3 0 1,0 2.6,0a1.3,1.3 0 1,0 -2.6,0" for i in range(dots))
        doc.add(f'<path class="pips" d="{arcs}" fill="#222"/>')
    doc.add("</g>")


def _harbors(doc: _Doc, state: State, vpos: dict[int, tuple[float, float]]) -> None:
    board = state.board
    for hb in board.harbors:
        x, y = _harbor_spot(hb.sea, hb.land)
        edge = board.edge_id(hb.sea, hb.land)
        for v in board.topo.edge_vertices[edge]:
            vx, vy = vpos[v]
            doc.add(f'<line x1="{x:.1f}" y1="{y:.1f}" x2="{vx:.1f}" y2="{vy:.1f}" '
                    f'stroke="#f5f5dc" stroke-width="3" stroke-dasharray="4 3"/>')
        # The resource's own name (as the bank and hands say it); the box fits the label.
        label = _harbor_label(hb.kind)
        half = _harbor_half(hb.kind)
        doc.add(f'<g class="harbor" data-kind="{escape(hb.kind)}"><rect x="{x - half:.1f}" '
                f'y="{y - 10:.1f}" width="{2 * half:.1f}" height="19" rx="6" fill="#f5f5dc" '
                f'stroke="#4e342e"/>'
                f'<text x="{x:.1f}" y="{y + 4:.1f}" font-size="11" text-anchor="middle">'
                f'{escape(label)}</text></g>')


def _harbor_spot(sea: tuple[int, int], land: tuple[int, int]) -> tuple[float, float]:
    """A harbor's tag: out at sea, a little past the sea hex's centre (buildings stay clear)."""
    sx, sy = hex_centre(*sea)
    lx, ly = hex_centre(*land)
    return sx - 0.05 * (lx - sx), sy - 0.05 * (ly - sy)


def _harbor_label(kind: str) -> str:
    return "3:1" if kind == "3:1" else f"2:1 {kind}"


def _harbor_half(kind: str) -> float:
    """Half the width of a harbor's tag (it fits the label)."""
    return 3.3 * len(_harbor_label(kind)) + 6


def _roads(doc: _Doc, state: State, vpos: dict[int, tuple[float, float]], mark: Highlight) -> None:
    for e, owner in enumerate(state.edge_owner):
        if owner == NO_ONE:
            continue
        a, b = state.board.topo.edge_vertices[e]
        (x1, y1), (x2, y2) = vpos[a], vpos[b]
        # Drawn a little short of the corners, so the buildings stay readable.
        dx, dy = (x2 - x1) * 0.14, (y2 - y1) * 0.14
        if e in mark.edges:
            doc.add(f'<line x1="{x1 + dx:.1f}" y1="{y1 + dy:.1f}" x2="{x2 - dx:.1f}" '
                    f'y2="{y2 - dy:.1f}" stroke="#ffeb3b" stroke-width="14" stroke-linecap="round"/>')
        doc.add(f'<line class="road" data-edge="{e}" data-seat="{owner}" x1="{x1 + dx:.1f}" '
                f'y1="{y1 + dy:.1f}" x2="{x2 - dx:.1f}" y2="{y2 - dy:.1f}" '
                f'stroke="{_stroke(owner)}" stroke-width="9" stroke-linecap="round"/>'
                f'<line x1="{x1 + dx:.1f}" y1="{y1 + dy:.1f}" x2="{x2 - dx:.1f}" '
                f'y2="{y2 - dy:.1f}" stroke="{_fill(owner)}" stroke-width="6" '
                f'stroke-linecap="round"/>')


def _buildings(doc: _Doc, state: State, vpos: dict[int, tuple[float, float]],
               mark: Highlight) -> None:
    for v, owner in enumerate(state.vertex_owner):
        if owner == NO_ONE:
            continue
        x, y = vpos[v]
        city = state.vertex_level[v] == CITY
        if v in mark.vertices:
            doc.add(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="17" fill="none" stroke="#ffeb3b" '
                    'stroke-width="5"/>')
        if city:
            shape = (f"{x - 11:.1f},{y + 8:.1f} {x - 11:.1f},{y - 4:.1f} {x - 3:.1f},{y - 4:.1f} "
                     f"{x - 3:.1f},{y - 12:.1f} {x + 3:.1f},{y - 17:.1f} {x + 9:.1f},{y - 12:.1f} "
                     f"{x + 11:.1f},{y + 8:.1f}")
        else:
            shape = (f"{x - 8:.1f},{y + 7:.1f} {x - 8:.1f},{y - 3:.1f} {x:.1f},{y - 11:.1f} "
                     f"{x + 8:.1f},{y - 3:.1f} {x + 8:.1f},{y + 7:.1f}")
        kind = "city" if city else "settlement"
        doc.add(f'<polygon class="{kind}" data-vertex="{v}" data-seat="{owner}" points="{shape}" '
                f'fill="{_fill(owner)}" stroke="{_stroke(owner)}" stroke-width="2"/>')


class _SvgSketch:
    """A module's marks as symbols (services/render/symbols.py): a bridge, a wagon, a knight …
    at a vertex, an edge's middle or a hex; the kinds drawn are kept for the legend."""

    def __init__(self, doc: _Doc, state: State, vpos: Mapping[int, tuple[float, float]],
                 centres: Sequence[tuple[float, float]]) -> None:
        self.doc, self.topo, self.vpos, self.centres = doc, state.board.topo, vpos, centres
        self.module = ""
        self.used: dict[str, str] = {}  # kind → legend text
        self.river_edges: list[int] = []
        self.boxes: list[Box] = []  # where the symbols are (labels keep clear of them)

    def mark(self, place: str, site: int, text: str) -> None:
        if place == "hex":
            if not 0 <= site < len(self.centres):
                return
            x, y = self.centres[site]
            y += SIZE * 0.55
        else:
            ends = (site,) if place == "vertex" else self.topo.edge_vertices[site]
            points = [self.vpos[v] for v in ends if v in self.vpos]
            if not points:
                return
            x = sum(p[0] for p in points) / len(points)
            y = sum(p[1] for p in points) / len(points)
        found = symbols.read(self.module, place, text)
        seat = found.seat
        fill = _fill(seat) if seat is not None else "#9e9e9e"
        stroke = _stroke(seat) if seat is not None else "#333333"
        if found.kind in ("bridge-site", "bridge"):
            self.river_edges.append(site)
        legend = symbols.LEGEND[found.kind]
        if found.kind == "tag":
            legend = f"{self.module.replace('-', ' ')}: {text}"
        self.used.setdefault(found.kind if found.kind != "tag" else f"tag:{text}", legend)
        if found.kind == "oil" and found.note:
            self.used.setdefault("disaster", symbols.LEGEND["disaster"])
        self.boxes.append(symbols.extent(found.kind, x, y, found.note))
        seat_attr = f' data-seat="{seat}"' if seat is not None else ""
        self.doc.add(f'<g class="mark symbol" data-kind="{found.kind}" data-place="{place}" '
                     f'data-site="{site}"{seat_attr}><title>{escape(text)}</title>'
                     f'{symbols.draw(found.kind, x, y, fill, stroke, found.note)}</g>')

    def rivers(self) -> str:
        """The rivers: from each bridge site to the centres of the hexes on its two sides, a
        blue band under the pieces."""
        if not self.river_edges:
            return ""
        out = []
        for e in self.river_edges:
            if e >= len(self.topo.edges):
                continue
            a, b = self.topo.edge_vertices[e]
            mx = (self.vpos[a][0] + self.vpos[b][0]) / 2
            my = (self.vpos[a][1] + self.vpos[b][1]) / 2
            for h in self.topo.edges[e]:
                i = self.topo.hex_index.get(h)
                if i is not None and self.topo.hex_is_land[i]:
                    cx, cy = self.centres[i]
                    d = math.hypot(cx - mx, cy - my) or 1.0
                    ex, ey = cx - (cx - mx) * 19 / d, cy - (cy - my) * 19 / d  # the token's edge
                    out.append(f"M{mx:.1f},{my:.1f} L{ex:.1f},{ey:.1f}")
        self.used.setdefault("river", symbols.LEGEND["river"])
        return (f'<path class="river" d="{" ".join(out)}" stroke="#4fc3f7" stroke-width="7" '
                'stroke-linecap="round" opacity="0.85" fill="none"/>')


def _module_marks(doc: _Doc, state: State, vpos: dict[int, tuple[float, float]],
                  centres: list[tuple[float, float]]) -> dict[str, str]:
    """Every module's marks; the symbols used (kind → legend text)."""
    marks = _Doc()
    sketch = _SvgSketch(marks, state, vpos, centres)
    for spec in state.rules.modules:
        drawing = MODULES[spec.name].drawing
        if drawing is not None:
            sketch.module = spec.name
            drawing(state, sketch)
    doc.add(sketch.rivers())
    doc.parts.extend(marks.parts)
    return sketch.used


def legend_rows(state: State) -> int:
    """The legend's rows: the base game's symbols and every one the game's modules may draw
    (the same at every version of a game)."""
    kinds = len(BASE_LEGEND) + 2  # and the labels, and a prompt's places
    for spec in state.rules.modules:
        kinds += len(symbols.MODULE_KINDS.get(spec.name, ("tag", "tag", "tag")))
    return (kinds + 1) // 2


BASE_LEGEND = ("settlement", "city", "road", "robber", "token", "harbor", "halo", "neutral")
LEGEND_ROW = 18.0


def _legend(doc: _Doc, f: Frame, state: State, used: Mapping[str, str]) -> None:
    """The legend under the board: each symbol the picture shows, drawn and explained."""
    top = f.top + f.height - legend_rows(state) * LEGEND_ROW - 14
    width = f.panel_x - f.left
    col = width / 2
    doc.add(f'<g id="legend" class="legend"><rect x="{f.left:.1f}" y="{top - 4:.1f}" '
            f'width="{width:.1f}" height="{f.top + f.height - top + 4:.1f}" fill="#14263f"/>')
    for i, (kind, text) in enumerate(used.items()):
        x = f.left + 20 + (i % 2) * col
        y = top + 10 + (i // 2) * LEGEND_ROW
        shape = kind.split(":", 1)[0]
        sample = _legend_sample(shape, x, y, kind)
        room = col - 50
        size = 10.0
        while size > 7 and text_width(text, size) > room:
            size -= 0.5
        shown = text if text_width(text, size) <= room else fit(text, room, size)[0] + "…"
        doc.add(f'<g class="legend-entry" data-kind="{escape(kind)}">{sample}'
                f'<text x="{x + 28:.1f}" y="{y + 3.5:.1f}" font-size="{size}" fill="#f1faee">'
                f'{escape(shown)}</text></g>')
    doc.add("</g>")


def _legend_sample(kind: str, x: float, y: float, full: str) -> str:
    fill, stroke = _fill(0), _stroke(0)
    if kind == "settlement":
        return (f'<polygon points="{x - 6:.1f},{y + 5:.1f} {x - 6:.1f},{y - 2:.1f} {x:.1f},'
                f'{y - 8:.1f} {x + 6:.1f},{y - 2:.1f} {x + 6:.1f},{y + 5:.1f}" fill="{fill}" '
                f'stroke="{stroke}"/>')
    if kind == "city":
        return (f'<polygon points="{x - 8:.1f},{y + 6:.1f} {x - 8:.1f},{y - 2:.1f} {x - 2:.1f},'
                f'{y - 2:.1f} {x - 2:.1f},{y - 8:.1f} {x + 2:.1f},{y - 11:.1f} {x + 6:.1f},'
                f'{y - 8:.1f} {x + 8:.1f},{y + 6:.1f}" fill="{fill}" stroke="{stroke}"/>')
    if kind == "road":
        return (f'<line x1="{x - 9:.1f}" y1="{y + 4:.1f}" x2="{x + 9:.1f}" y2="{y - 4:.1f}" '
                f'stroke="{fill}" stroke-width="6" stroke-linecap="round"/>')
    if kind == "robber":
        return (f'<circle cx="{x:.1f}" cy="{y - 5:.1f}" r="4" fill="#222"/><rect x="{x - 4:.1f}"'
                f' y="{y - 2:.1f}" width="8" height="10" rx="3" fill="#222"/>')
    if kind == "token":
        return (f'<circle cx="{x:.1f}" cy="{y:.1f}" r="8" fill="#fff3d6" stroke="#5d4037"/>'
                f'<text x="{x:.1f}" y="{y + 3:.1f}" font-size="8" font-weight="bold" '
                f'text-anchor="middle" fill="#c62828">8</text>')
    if kind == "harbor":
        return (f'<rect x="{x - 10:.1f}" y="{y - 6:.1f}" width="20" height="12" rx="4" '
                f'fill="#f5f5dc" stroke="#4e342e"/><text x="{x:.1f}" y="{y + 3:.1f}" '
                f'font-size="7" text-anchor="middle">3:1</text>')
    if kind == "halo":
        return (f'<circle cx="{x:.1f}" cy="{y:.1f}" r="7" fill="none" stroke="#ffeb3b" '
                'stroke-width="3"/>')
    if kind == "neutral":
        return (f'<rect x="{x - 9:.1f}" y="{y - 5:.1f}" width="8" height="10" fill="{_fill(2)}" '
                f'stroke="{_stroke(2)}"/><rect x="{x + 1:.1f}" y="{y - 5:.1f}" width="8" '
                f'height="10" fill="{_fill(3)}" stroke="{_stroke(3)}"/>')
    if kind == "labels":
        return _label(x, y, "F4", 8, "legend-label", "#1a237e", "#ffffff")
    if kind == "target":
        return _label(x, y, "F4", 9, "legend-label", "#000000", "#ffeb3b")
    if kind == "river":
        return (f'<line x1="{x - 9:.1f}" y1="{y:.1f}" x2="{x + 9:.1f}" y2="{y:.1f}" '
                'stroke="#4fc3f7" stroke-width="6" stroke-linecap="round"/>')
    note = {"fortress": "3", "fish": "4", "barbarians": "2", "destroyed": "1",
            "wagon": "s", "trade-hex": "9", "disaster": "2/5"}.get(kind, "")
    if kind == "disaster":
        return symbols.draw("oil", x - 8, y, fill, stroke, note)
    if kind == "tag":
        return symbols.draw("tag", x, y, fill, stroke, "…")
    return symbols.draw(kind, x, y, fill, stroke, note)


PANEL_TOP = 150.0  # title, status lines, the last move's narration
NARRATION_LINES = 6
SEAT_ROWS = 8  # name and VP, cards, development, knights and road, VP sum and holdings (2 each)
ROW = 14.0
SEAT_BOX = SEAT_ROWS * ROW + 12
BANK_ROWS = 3


def panel_height(state: State) -> float:
    """The panel's height: the same at every version of a game (a replay page keeps one
    frame), whatever the narration or the hands."""
    return (PANEL_TOP + NARRATION_LINES * ROW + 10 + state.n * (SEAT_BOX + 8)
            + BANK_ROWS * ROW + MARGIN)


def _panel(doc: _Doc, seen: View, state: State, x0: float, top: float, height: float,
           title: str, narration: str) -> None:
    x = x0 + 10
    inner = PANEL - 20
    y = top + 22
    doc.add(f'<rect x="{x0:.1f}" y="{top:.1f}" width="{PANEL:.1f}" height="{height:.1f}" '
            'fill="#f1faee"/>')
    title = title or f"game {seen.game_id}"
    size = 14
    while size > 10 and text_width(title, size, True) > inner:
        size -= 1
    for chunk in fit(title, inner, size, True)[:2]:
        doc.add(_text(x, y, chunk, size, "bold", "title"))
        y += size + 5
    lines = [(f"version {seen.version} · turn {seen.turn} · {phase_words(seen.phase)}", 11, ""),
             (f"last roll {seen.last_roll or '–'} · target {seen.vp_target} VP", 11, "")]
    if seen.finished:
        winner = "no winner" if seen.winner is None else f"winner: {seen.players[seen.winner].name}"
        lines.append((f"game over · {winner}", 13, "bold"))
    for text, size, weight in lines:
        for chunk in fit(text, inner, size, bool(weight))[:2]:
            doc.add(_text(x, y, chunk, size, weight, "status"))
            y += size + 6
    y = max(y, top + PANEL_TOP - 14)
    if narration:
        for chunk in fit(narration, inner, 10, False)[:NARRATION_LINES]:
            doc.add(_text(x, y, chunk, 10, "", "narration"))
            y += ROW
    y = top + PANEL_TOP + NARRATION_LINES * ROW + 10 + 12
    final = score(state) if state.finished else None
    for p in seen.players:
        y = _player(doc, p, seen, state, x, y, final)
    bank = "bank: " + _bundle(seen.bank) + f" · development deck {seen.dev_deck}"
    for chunk in fit(bank, inner, 10, False)[:BANK_ROWS]:
        doc.add(_text(x, y, chunk, 10, "", "bank"))
        y += ROW


def _player(doc: _Doc, p: PlayerView, seen: View, state: State, x: float, y: float,
            final: tuple[int, ...] | None) -> float:
    """A seat's box; once the game is over its VP is the final score (hidden points
    included), with how it adds up."""
    doc.add(f'<g class="player" data-seat="{p.seat}"><rect x="{x:.1f}" y="{y - 12:.1f}" '
            f'width="{PANEL - 20:.1f}" height="{SEAT_BOX:.0f}" rx="6" fill="#fff" '
            f'stroke="{_stroke(p.seat)}"/>'
            f'<rect x="{x:.1f}" y="{y - 12:.1f}" width="8" height="{SEAT_BOX:.0f}" rx="3" '
            f'fill="{_fill(p.seat)}" stroke="{_stroke(p.seat)}"/>')
    hidden = final is not None or p.vp is not None
    if final is not None:
        vp = f"{final[p.seat]} VP final"
    elif p.vp is None or p.vp == p.public_vp:
        vp = f"{p.public_vp} VP"
    else:
        vp = f"{p.vp} VP ({p.public_vp} public)"
    awards = [a for a, holder in (("Longest Road", seen.longest_road),
                                  ("Largest Army", seen.largest_army)) if holder == p.seat]
    rows = [
        (f"{p.name} — {vp}", 12, "bold", "seat-vp"),
        (f"cards {p.cards}: {_bundle(p.hand)}" if p.hand is not None else f"cards {p.cards}", 10,
         "", ""),
        (f"development {p.dev_cards}: {_bundle(p.dev_hand)}" if p.dev_hand is not None
         else f"development {p.dev_cards}", 10, "", ""),
        (f"knights {p.knights} · road {p.road_length}" + (f" · {', '.join(awards)}" if awards else ""),
         10, "", ""),
        ("VP: " + " · ".join(vp_parts(state, p.seat, hidden)), 10, "", "vp-sum"),
    ]
    held = holdings(seen, p.seat)
    if held:
        rows.append((held, 10, "", "holdings"))
    ty = y + 2
    width = PANEL - 20 - 20
    shown = [(line, size, weight, cls) for text, size, weight, cls in rows
             for line in fit(text, width, size, bool(weight))]
    if len(shown) > SEAT_ROWS:
        line, size, weight, cls = shown[SEAT_ROWS - 1]
        while line and text_width(line + " …", size, bool(weight)) > width:
            line = line[:-1]
        shown[SEAT_ROWS - 1:] = [(line + " …", size, weight, cls)]
    for text, size, weight, cls in shown:
        doc.add(_text(x + 14, ty, text, size, weight, cls))
        ty += ROW
    doc.add("</g>")
    return y + SEAT_BOX + 8


# A module's VP (`vp_bonus`) by the function that counts it: what a player calls those points.
BONUS_NAMES = {
    "settlers_vp": "Wealthiest/Poor Settler",
    "fortress_vp": "fortresses",
    "held_vp_cards": "VP cards count as knights here",  # Pirate Islands, 4 seats
    "between_camels": "camel roads",
    "oil_vp": "oil",
    "card_vp": "Harbormaster",
}


def vp_parts(state: State, seat: int, hidden: bool) -> list[str]:
    """How a seat's VP add up: pieces, awards, VP cards (when the reader may see them) and
    each module's points; the parts sum to its VP (`score()` when `hidden`)."""
    player = state.players[seat]
    parts = []
    if player.settlements:
        n = len(player.settlements)
        parts.append(f"{n} settlement{'s' * (n > 1)} {n}")
    if player.cities:
        parts.append(f"{len(player.cities)} cit{'ies' if len(player.cities) > 1 else 'y'} "
                     f"{2 * len(player.cities)}")
    if state.longest_holder == seat:
        parts.append("Longest Road 2")
    if state.army_holder == seat:
        parts.append("Largest Army 2")
    if hidden:
        cards = sum(player.dev[c] for c in state.rules.vocab.point_cards)
        if cards:
            parts.append(f"{cards} VP card{'s' * (cards > 1)} {cards}")
    for bonus in vp_bonuses(state):
        points = bonus(state, seat, not hidden)
        if points:
            name = getattr(bonus, "__name__", "")
            module = str(getattr(bonus, "__module__", "")).split(".")
            words = BONUS_NAMES.get(name) or (module[4].replace("_", " ") if len(module) > 4
                                              else "module")
            parts.append(f"{words} {points:+d}")
    return parts or ["nothing built 0"]


def vp_bonuses(state: State) -> list[Callable[[State, int, bool], int]]:
    """The modules' VP counters (the `vp_bonus` hook list, wherever the ruleset keeps it)."""
    table: Any = getattr(state.rules, "hooks", state.rules)
    return list(getattr(table, "vp_bonus", ()))


# A module's per-seat holdings in its view (`ext`): the list (one entry a seat) and what a
# player calls it; and the seat-valued titles (the seat holding it).
HOLDINGS = {"gold": "gold", "oil": "oil", "tokens": "fish tokens", "prisoners": "prisoners",
            "levels": "wagon level", "cargo": "wagon carries", "delivered": "delivered",
            "sequestered": "oil sequestered", "warships": "warships",
            "strength": "fortress strength", "knights": "knights on the board",
            "points": "harbor points"}
# … where a module calls the same key otherwise.
MODULE_HOLDINGS = {("catan-for-two", "tokens"): "trade tokens"}


def holding_words(module: str, key: str) -> str:
    return MODULE_HOLDINGS.get((module, key), HOLDINGS[key])


TITLES = {("rivers", "wealthiest"): "Wealthiest Settler", ("rivers", "poor"): "Poor Settler",
          ("harbormaster", "holder"): "Harbormaster", ("fishermen", "boot"): "the old boot",
          ("oil-springs", "champion"): "Champion of the Environment"}


def holdings(seen: View, seat: int) -> str:
    """A seat's scenario holdings as its view shows them: gold, oil, fish, prisoners, wagon
    and commodities, knights, warships …, and the titles it holds."""
    found: list[str] = []
    n = len(seen.players)
    for module, ext in sorted(seen.ext.items()):
        if not isinstance(ext, dict):
            continue
        for key in HOLDINGS:
            words = holding_words(module, key)
            values = ext.get(key)
            if not isinstance(values, list) or len(values) != n:
                continue
            mine = values[seat]
            if isinstance(mine, list):
                mine = len(mine)
            if isinstance(mine, dict):
                shown = _bundle({str(k): v for k, v in mine.items() if isinstance(v, int)})
                if shown != "none":
                    found.append(f"{words}: {shown}")
            elif isinstance(mine, bool):
                continue
            elif isinstance(mine, int) and mine:
                found.append(f"{words} {mine}")
            elif isinstance(mine, str) and mine:
                found.append(f"{words} {mine.replace('_', ' ')}")
        for (name, key), title in TITLES.items():
            if name != module:
                continue
            holder = ext.get(key)
            if holder == seat or (isinstance(holder, list) and seat in holder):
                found.append(title)
    return " · ".join(found)


def _bundle(bundle: Mapping[str, int] | Mapping[Resource, int] | None) -> str:
    if not bundle:
        return "none"
    items: list[tuple[str, int]] = sorted((str(k), int(n)) for k, n in bundle.items())
    return ", ".join(f"{n} {name.replace('_', ' ')}" for name, n in items if n)


# Approximate advance widths (em) of DejaVu Sans, the pictures' font: enough to keep a text
# inside its box (the browser test measures the real boxes).
_NARROW = set("fijlrtI.,:;'!|()[] ·")
_WIDE = set("mwMW@%—")


def text_width(text: str, size: float, bold: bool = False) -> float:
    em = 0.0
    for ch in text:
        if ch in _NARROW:
            em += 0.36
        elif ch in _WIDE:
            em += 0.95
        elif ch.isupper() or ch.isdigit():
            em += 0.70
        else:
            em += 0.62
    return em * size * (1.1 if bold else 1.0)


def fit(text: str, width: float, size: float, bold: bool = False) -> list[str]:
    """`text` in lines no wider than `width` (words kept whole where they fit a line)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        while text_width(word, size, bold) > width:  # a word longer than a line: cut it
            cut = len(word)
            while cut > 1 and text_width(word[:cut], size, bold) > width:
                cut -= 1
            if line:
                lines.append(line)
                line = ""
            lines.append(word[:cut])
            word = word[cut:]
        candidate = f"{line} {word}".strip()
        if line and text_width(candidate, size, bold) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    if line:
        lines.append(line)
    return lines


def _text(x: float, y: float, text: str, size: int, weight: str, cls: str = "") -> str:
    w = f' font-weight="{weight}"' if weight else ""
    c = f' class="{cls}"' if cls else ""
    return f'<text{c} x="{x:.1f}" y="{y:.1f}" font-size="{size}"{w} fill="#1d1d1d">{escape(text)}</text>'


def _fill(seat: int) -> str:
    return SEAT_FILL[seat % len(SEAT_FILL)]


def _stroke(seat: int) -> str:
    return SEAT_STROKE[seat % len(SEAT_STROKE)]


def seat_colours(n: int) -> Iterable[tuple[str, str]]:
    """(colour name, fill) of the first n seats, for legends."""
    return ((COLORS[i % len(COLORS)], _fill(i)) for i in range(n))
