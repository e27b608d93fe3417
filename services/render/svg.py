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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from html import escape

from events.prompts import View
from events.types import Resource
from services.render.narrate import COLORS
from services.rules.engine.modules import MODULES
from services.rules.engine.state import CITY, NO_ONE, State

SIZE = 46.0  # hex radius, px
PANEL = 300.0  # side panel width, px
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
    height = max(max(ys) - min(ys) + 2 * (SIZE + MARGIN), 600.0)
    return Frame(left, top, board_w + PANEL, height, left + board_w)


def board_svg(state: State, seen: View, *, highlight: Highlight | None = None,
              title: str = "", narration: str = "") -> str:
    """The picture of `state` (board) with `seen`'s side panel; `highlight` marks the last
    move's places; `title` and `narration` are printed above the panel."""
    f = frame_of(state)
    return (svg_open(state, f) + terrain_layer(state)
            + pieces_layer(state, seen, highlight=highlight, title=title, narration=narration)
            + "</svg>")


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


def pieces_layer(state: State, seen: View, *, highlight: Highlight | None = None,
                 title: str = "", narration: str = "") -> str:
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
    _module_marks(doc, state, vpos, centres)
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
        sx, sy = hex_centre(*hb.sea)
        lx, ly = hex_centre(*hb.land)
        x, y = sx + 0.2 * (lx - sx), sy + 0.2 * (ly - sy)  # out at sea: buildings stay clear
        edge = board.edge_id(hb.sea, hb.land)
        for v in board.topo.edge_vertices[edge]:
            vx, vy = vpos[v]
            doc.add(f'<line x1="{x:.1f}" y1="{y:.1f}" x2="{vx:.1f}" y2="{vy:.1f}" '
                    f'stroke="#f5f5dc" stroke-width="3" stroke-dasharray="4 3"/>')
        # The resource's own name (as the bank and hands say it); the box fits the label.
        label = "3:1" if hb.kind == "3:1" else f"2:1 {hb.kind}"
        half = 3.3 * len(label) + 6
        doc.add(f'<g class="harbor" data-kind="{escape(hb.kind)}"><rect x="{x - half:.1f}" '
                f'y="{y - 10:.1f}" width="{2 * half:.1f}" height="19" rx="6" fill="#f5f5dc" '
                f'stroke="#4e342e"/>'
                f'<text x="{x:.1f}" y="{y + 4:.1f}" font-size="11" text-anchor="middle">'
                f'{escape(label)}</text></g>')


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
    """A module's marks: a small labelled tag at a vertex, an edge's middle or a hex."""

    def __init__(self, doc: _Doc, state: State, vpos: dict[int, tuple[float, float]],
                 centres: list[tuple[float, float]]) -> None:
        self.doc, self.topo, self.vpos, self.centres = doc, state.board.topo, vpos, centres

    def mark(self, place: str, site: int, text: str) -> None:
        if place == "hex":
            x, y = self.centres[site]
            y += SIZE * 0.55
        else:
            ends = (site,) if place == "vertex" else self.topo.edge_vertices[site]
            points = [self.vpos[v] for v in ends if v in self.vpos]
            if not points:
                return
            x = sum(p[0] for p in points) / len(points)
            y = sum(p[1] for p in points) / len(points)
        width = 7 * len(text) + 8
        self.doc.add(f'<g class="mark" data-place="{place}" data-site="{site}">'
                     f'<rect x="{x - width / 2:.1f}" y="{y - 8:.1f}" width="{width:.1f}" '
                     f'height="15" rx="4" fill="#fffde7" stroke="#333" opacity="0.92"/>'
                     f'<text x="{x:.1f}" y="{y + 3:.1f}" font-size="10" text-anchor="middle">'
                     f'{escape(text)}</text></g>')


def _module_marks(doc: _Doc, state: State, vpos: dict[int, tuple[float, float]],
                  centres: list[tuple[float, float]]) -> None:
    sketch = _SvgSketch(doc, state, vpos, centres)
    for spec in state.rules.modules:
        drawing = MODULES[spec.name].drawing
        if drawing is not None:
            drawing(state, sketch)


def _panel(doc: _Doc, seen: View, state: State, x0: float, top: float, height: float,
           title: str, narration: str) -> None:
    x = x0 + 10
    y = top + 26
    doc.add(f'<rect x="{x0:.1f}" y="{top:.1f}" width="{PANEL:.1f}" height="{height:.1f}" '
            'fill="#f1faee"/>')
    lines = [(title or f"game {seen.game_id}", 14, "bold"),
             (f"version {seen.version} · turn {seen.turn} · {seen.phase.replace('_', ' ')}", 11, ""),
             (f"last roll {seen.last_roll or '–'} · target {seen.vp_target} VP", 11, "")]
    if seen.finished:
        winner = "no winner" if seen.winner is None else f"winner: {seen.players[seen.winner].name}"
        lines.append((winner, 13, "bold"))
    for text, size, weight in lines:
        doc.add(_text(x, y, text, size, weight))
        y += size + 7
    if narration:
        for chunk in _wrap(narration, 44)[:3]:
            doc.add(_text(x, y, chunk, 10, "", "narration"))
            y += 14
    y += 6
    for p in seen.players:
        y = _player(doc, p, seen, x, y)
    for chunk in _wrap("bank: " + _bundle(seen.bank) + f" · development deck {seen.dev_deck}", 46):
        doc.add(_text(x, y + 4, chunk, 10, ""))
        y += 14


def _player(doc: _Doc, p: object, seen: View, x: float, y: float) -> float:
    from events.prompts import PlayerView

    assert isinstance(p, PlayerView)
    doc.add(f'<g class="player" data-seat="{p.seat}"><rect x="{x:.1f}" y="{y - 12:.1f}" '
            f'width="{PANEL - 20:.1f}" height="74" rx="6" fill="#fff" stroke="{_stroke(p.seat)}"/>'
            f'<rect x="{x:.1f}" y="{y - 12:.1f}" width="8" height="74" rx="3" '
            f'fill="{_fill(p.seat)}" stroke="{_stroke(p.seat)}"/>')
    vp = f"{p.public_vp} VP" if p.vp is None or p.vp == p.public_vp else f"{p.vp} VP ({p.public_vp} public)"
    awards = [a for a, holder in (("Longest Road", seen.longest_road),
                                  ("Largest Army", seen.largest_army)) if holder == p.seat]
    rows = [
        (f"{p.name} — {vp}", 12, "bold"),
        (f"cards {p.cards}: {_bundle(p.hand)}" if p.hand is not None else f"cards {p.cards}", 10, ""),
        (f"development {p.dev_cards}: {_bundle(p.dev_hand)}" if p.dev_hand is not None
         else f"development {p.dev_cards}", 10, ""),
        (f"knights {p.knights} · road {p.road_length}" + (f" · {', '.join(awards)}" if awards else ""),
         10, ""),
    ]
    ty = y + 2
    for text, size, weight in rows:
        doc.add(_text(x + 14, ty, text, size, weight))
        ty += 15
    doc.add("</g>")
    return y + 84


def _bundle(bundle: Mapping[str, int] | Mapping[Resource, int] | None) -> str:
    if not bundle:
        return "none"
    items: list[tuple[str, int]] = sorted((str(k), int(n)) for k, n in bundle.items())
    return ", ".join(f"{n} {name.replace('_', ' ')}" for name, n in items if n)


def _text(x: float, y: float, text: str, size: int, weight: str, cls: str = "") -> str:
    w = f' font-weight="{weight}"' if weight else ""
    c = f' class="{cls}"' if cls else ""
    return f'<text{c} x="{x:.1f}" y="{y:.1f}" font-size="{size}"{w} fill="#1d1d1d">{escape(text)}</text>'


def _wrap(text: str, width: int) -> list[str]:
    words, lines, line = text.split(), [], ""
    for w in words:
        if len(line) + len(w) + 1 > width and line:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}".strip()
    if line:
        lines.append(line)
    return lines


def _fill(seat: int) -> str:
    return SEAT_FILL[seat % len(SEAT_FILL)]


def _stroke(seat: int) -> str:
    return SEAT_STROKE[seat % len(SEAT_STROKE)]


def seat_colours(n: int) -> Iterable[tuple[str, str]]:
    """(colour name, fill) of the first n seats, for legends."""
    return ((COLORS[i % len(COLORS)], _fill(i)) for i in range(n))
