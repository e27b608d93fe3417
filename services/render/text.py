r"""The text board: an ASCII map of the island and a table of the players (`hexlog replay`).

Pointy-top hexes, 10 columns apart, rows 4 lines apart (axial q, r → column 10q + 5r, line 4r).
A hex shows its terrain in 3 letters (FOR forest, HIL hills, PAS pasture, FLD fields, MTN
mountains, DES desert) and its number; the robber is `(R)`. Corners and sides show pieces by
seat letter (R red = seat 0, B blue = 1, W white = 2, O orange = 3): settlement `r`, city `R`,
road `rr` (`r` on an upright side); empty corners are `.`. Harbors are written in the sea next
to their side: `3:1`, `2:1 ore`. The sea between the islands of a Seafarers map is `~~~`.

                    .         .         .
                 /     \   /     \   /     \
               .   MTN   .   PAS   .   FOR   .
               |   10    |    2    |    9    |  3:1
               r         .         .         .
            rr    \   /     \   /     \   /     \
          .   FLD   .   HIL   .   PAS   .   HIL   .

A module's marks (a bridge, a wagon, the pirate fleet …) are written in words where a hex has
room ("fleet", "fish 4") and as `*` at a corner or a path; under the board each is listed in
the words of the picture's legend with its places' labels ("ship of ann (Red): paths AJ3-4,
AK4-5"), so the board needs no decoder.

Only public facts come from the state (pieces, robber); hands and cards come from a `View`,
which already hides what the reader may not see.
"""

from __future__ import annotations

from events.prompts import View
from services.render import symbols
from services.render.narrate import COLORS, cards
from services.render.phases import phase_words
from services.render.places import labels_of
from services.rules.engine.geometry import corners, edge_endpoints
from services.rules.engine.modules import MODULES
from services.rules.engine.state import CITY, NO_ONE, State

TERRAIN = {"forest": "FOR", "hills": "HIL", "pasture": "PAS", "fields": "FLD",
           "mountains": "MTN", "desert": "DES"}
LETTERS = tuple(c[0] for c in COLORS)
# Corner offsets (column, line) from a hex centre, clockwise from north (geometry.corners).
CORNER_AT = ((0, -3), (5, -1), (5, 1), (0, 3), (-5, 1), (-5, -1))


def centre(h: tuple[int, int]) -> tuple[int, int]:
    q, r = h
    return 10 * q + 5 * r, 4 * r


class Canvas:
    def __init__(self) -> None:
        self.cells: dict[tuple[int, int], str] = {}

    def put(self, x: int, y: int, text: str) -> None:
        for i, ch in enumerate(text):
            self.cells[(x + i, y)] = ch

    def text(self) -> str:
        if not self.cells:
            return ""
        xs = [x for x, _ in self.cells]
        ys = [y for _, y in self.cells]
        lines = []
        for y in range(min(ys), max(ys) + 1):
            row = "".join(self.cells.get((x, y), " ") for x in range(min(xs), max(xs) + 1))
            lines.append(row.rstrip())
        return "\n".join(lines)


def render_board(state: State) -> str:
    board = state.board
    topo = board.topo
    canvas = Canvas()
    vpos: dict[int, tuple[int, int]] = {}
    inner_sea = frozenset(board.mapdata.sea) if board.mapdata is not None else frozenset()
    for h, hx in enumerate(topo.hexes):
        if not topo.hex_is_land[h]:
            if hx in inner_sea:  # a Seafarers map's sea between islands: waves at its centre
                cx, cy = centre(hx)
                canvas.put(cx - 1, cy, "~~~")
            continue
        cx, cy = centre(hx)
        for i, key in enumerate(corners(hx)):
            vpos[topo.vertex_index[key]] = (cx + CORNER_AT[i][0], cy + CORNER_AT[i][1])
        terrain = board.hex_terrain[h]
        canvas.put(cx - 1, cy - 1, TERRAIN.get(terrain, terrain[:3].upper()))
        if board.hex_number[h]:
            num = "/".join(map(str, board.hex_numbers[h]))  # the lake: 2/3/11/12
            canvas.put(cx - len(num) // 2, cy, num)
        if h == state.robber:
            canvas.put(cx - 1, cy + 1, "(R)")
    for e, (a, b) in enumerate(topo.edge_vertices):
        if a in vpos and b in vpos and topo.edge_is_land[e]:
            _draw_edge(canvas, vpos[a], vpos[b], state.edge_owner[e])
    for v, (x, y) in vpos.items():
        owner = state.vertex_owner[v]
        if owner == NO_ONE:
            canvas.put(x, y, ".")
        else:
            letter = LETTERS[owner % len(LETTERS)]
            canvas.put(x, y, letter if state.vertex_level[v] == CITY else letter.lower())
    for hb in board.harbors:
        _draw_harbor(canvas, hb.sea, hb.land, hb.kind)
    sketch = _Sketch(canvas, state, vpos)
    for spec in state.rules.modules:  # each module draws its own pieces and marks
        drawing = MODULES[spec.name].drawing
        if drawing is not None:
            sketch.module = spec.name
            drawing(state, sketch)
    return canvas.text() + sketch.listed()


class _Sketch:
    """A module's marks: on the board a word where a hex has room for one ("fleet", "fish
    4"), a `*` at a corner or a path's middle; under the board each in words with its place's
    label ("ship of ann (Red): paths AJ3-4, AK4-5"), as the picture's legend names them."""

    def __init__(self, canvas: Canvas, state: State, vpos: dict[int, tuple[int, int]]) -> None:
        self.canvas, self.topo, self.vpos = canvas, state.board.topo, vpos
        self.names, self.labels = state.names, labels_of(state.board.topo)
        self.module = ""
        self.where: dict[str, dict[str, list[str]]] = {}  # words → place kind → labels

    def who(self, seat: int) -> str:
        name = self.names[seat] if 0 <= seat < len(self.names) else f"seat {seat}"
        return f"{name} ({COLORS[seat % len(COLORS)]})"

    def mark(self, place: str, site: int, text: str) -> None:
        found = symbols.read(self.module, place, text)
        label = {"hex": self.labels.hexes, "vertex": self.labels.vertices,
                 "edge": self.labels.edges}[place]
        if 0 <= site < len(label):
            kinds = self.where.setdefault(symbols.words(found, self.who), {})
            kinds.setdefault(place, []).append(label[site])
        if place == "hex":
            word = symbols.short(found)
            cx, cy = centre(self.topo.hexes[site])
            self.canvas.put(cx - len(word) // 2, cy + 2, word)
            return
        ends = (site,) if place == "vertex" else self.topo.edge_vertices[site]
        points = [self.vpos[v] for v in ends if v in self.vpos]
        if points:
            x = sum(p[0] for p in points) // len(points)
            y = sum(p[1] for p in points) // len(points)
            self.canvas.put(x, y, "*")

    def listed(self) -> str:
        """The marks in words, one line a kind: what it is, then where."""
        if not self.where:
            return ""
        lines = [f"  {what}: " + "; ".join(
                     f"{PLACE_NAMES[kind][len(labels) > 1]} {', '.join(labels)}"
                     for kind, labels in kinds.items())
                 for what, kinds in self.where.items()]
        return "\n\non the board (* where a corner or a path holds one):\n" + "\n".join(lines)


PLACE_NAMES = {"hex": ("hex", "hexes"), "vertex": ("corner", "corners"),
               "edge": ("path", "paths")}


def _draw_edge(canvas: Canvas, p: tuple[int, int], q: tuple[int, int], owner: int) -> None:
    (x1, y1), (x2, y2) = sorted((p, q))
    mark = LETTERS[owner % len(LETTERS)].lower() if owner != NO_ONE else ""
    if x1 == x2:  # a vertical side
        canvas.put(x1, (y1 + y2) // 2, mark or "|")
        return
    glyph = "/" if y2 < y1 else "\\"
    xm = (x1 + x2) // 2  # the two middle columns of the side: xm, xm + 1
    if mark:
        canvas.put(xm, (y1 + y2) // 2, mark * 2)
    else:  # one stroke, on the column farther from the upper corner
        upper = x1 if y1 < y2 else x2
        canvas.put(xm if abs(xm - upper) > abs(xm + 1 - upper) else xm + 1, (y1 + y2) // 2, glyph)


def _draw_harbor(canvas: Canvas, sea: tuple[int, int], land: tuple[int, int], kind: str) -> None:
    """The label on the sea hex's middle line, pulled towards its side of the land hex and
    pushed back out until it covers nothing already drawn."""
    cx, cy = centre(land)
    ends = [CORNER_AT[corners(land).index(key)] for key in edge_endpoints(_edge(sea, land))]
    mx = cx + (ends[0][0] + ends[1][0]) / 2
    sx, sy = centre(sea)
    label = "3:1" if kind == "3:1" else f"2:1 {kind}"
    x = round(sx + 0.4 * (mx - sx)) - len(label) // 2
    step = 1 if sx > mx else -1 if sx < mx else 0
    while step and any((x + i, sy) in canvas.cells for i in range(-1, len(label) + 1)):
        x += step
    canvas.put(x, sy, label)


def _edge(a: tuple[int, int], b: tuple[int, int]) -> tuple[tuple[int, int], tuple[int, int]]:
    return (a, b) if a < b else (b, a)


def legend(state: State) -> str:
    seats = [f"{LETTERS[s % len(LETTERS)].lower()}/{LETTERS[s % len(LETTERS)]} "
             f"{state.names[s]} ({COLORS[s % len(COLORS)]})" for s in range(state.n)]
    extra = [f"{LETTERS[o % len(LETTERS)].lower()} neutral {o}"
             for o in range(state.n, len(state.players))]
    return ("pieces: settlement/city by seat letter, roads as the lower-case letter; "
            "(R) robber; . empty corner; * a module's piece (listed under the board)"
            "\n  " + "; ".join(seats + extra)
            + "\nplaces: hexes A, B … row by row; corner F4 is corner 4 of hex F (1 at the top, "
              "clockwise); path F2-3 joins corners 2 and 3 of hex F (`hexlog render GAME "
              "--labels` draws them)"
            + "".join(f"\n{spec.name}: {'; '.join(symbols.LEGEND[k] for k in kinds)}"
                      for spec in state.rules.modules
                      if (kinds := symbols.MODULE_KINDS.get(spec.name))))


def players_table(view: View) -> str:
    """One line per seat; hands and development cards only where the view shows them. VP is
    the public count, with the total in brackets where the viewer may see hidden points; with
    Harbormaster, each seat's harbor points (`hb`) and who holds the card."""
    harbor = view.ext.get("harbormaster") or {}
    head = (f"{'seat':<4} {'name':<14} {'VP':>7} {'cards':<34} {'development':<28} "
            f"{'kn':>2} {'rd':>2} {'st':>2} {'ct':>2} " + ("hb " if harbor else "") + "awards")
    lines = [head]
    for p in view.players:
        vp = f"{p.public_vp}" + (f" ({p.vp})" if p.vp is not None and p.vp != p.public_vp else "")
        hand = f"{p.cards}" + (f": {cards(p.hand)}" if p.hand is not None and p.cards else "")
        dev = f"{p.dev_cards}" + (
            f": {', '.join(f'{n} {c}' for c, n in p.dev_hand.items())}" if p.dev_hand else ""
        )
        awards = ", ".join(a for a, on in (("longest road", view.longest_road == p.seat),
                                           ("largest army", view.largest_army == p.seat),
                                           ("harbormaster", harbor.get("holder") == p.seat)) if on)
        points = f"{harbor['points'][p.seat]:>2} " if harbor else ""
        name = f"{p.name} ({COLORS[p.seat % len(COLORS)][0]})"
        lines.append(f"{p.seat:<4} {name:<14} {vp:>7} {hand:<34} {dev:<28} {p.knights:>2} "
                     f"{len(p.roads):>2} {len(p.settlements):>2} {len(p.cities):>2} {points}"
                     f"{awards}")
    return "\n".join(lines)


def status_line(view: View, who: str) -> str:
    roll = f"last roll {view.last_roll}" if view.last_roll else "no roll yet"
    state = "finished" if view.finished else f"{phase_words(view.phase)}, seat {view.current} to act"
    return (f"version {view.version} · turn {view.turn} · {state} · {roll} · bank {cards(view.bank)} "
            f"· dev deck {view.dev_deck} · as {who}")
