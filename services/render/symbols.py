"""The pictures' symbols and their legend: what each rule module's marks (`Sketch.mark`: a short
text at a hex, corner or path) look like on the SVG board, drawn as a player of that scenario
knows them — a bridge across a river, a wagon, barbarians, a knight, the castle, the pirate
fleet, a fortress, fishing grounds, the lake, the old boot, oil springs, the disaster marker,
metropolises, camels — and the legend that explains each symbol a picture shows.

A module's marks stay short texts (the text board prints them as they are); here each is read
by its module's pattern into a symbol kind, a seat (whose colour it wears) and a note (a number
or letter written on it). A mark no pattern knows is drawn as a labelled tag and explained in
the legend by its module's name.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from html import escape

from services.render.label_layout import Box

# kind → what the legend says about it
LEGEND: dict[str, str] = {
    "settlement": "settlement (1 VP), in its owner's colour",
    "city": "city (2 VP)",
    "road": "road",
    "robber": "robber: the hex under it produces nothing",
    "token": "number: the hex yields on it (dots: odds)",
    "harbor": "harbor: trade 3:1, or 2:1 the resource named",
    "halo": "yellow ring: the last move",
    "neutral": "white and orange: the neutral players",
    "labels": "labels: hex F, its corner F4, its side F2-3",
    "target": "yellow label: a place your prompt offers",
    "river": "river: building beside it earns gold",
    "bridge-site": "bridge site over the river (open)",
    "bridge": "bridge, in its owner's colour",
    "barbarian": "barbarian: blocks the path it stands on",
    "wagon": "wagon, with the commodity it carries",
    "trade-hex": "trade hex: commodities left to load",
    "castle": "the castle (Barbarian Attack)",
    "barbarians": "barbarians landed on a coast (3 conquer)",
    "knight": "knight, in its owner's colour",
    "foreign-knight": "knight of no seat",
    "fleet": "the pirate fleet",
    "fortress": "pirate fortress of a seat, with its strength",
    "lair-site": "a seat's site on the pirate islands",
    "warship": "warship",
    "ship": "ship on a seat's route",
    "fish": "fishing ground: fish on the number shown",
    "lake": "the lake: fish on 2, 3, 11, 12",
    "boot": "the old boot: its holder needs 1 VP more",
    "oil": "oil spring",
    "disaster": "disaster marker: a disaster at its limit",
    "metropolis": "metropolis",
    "destroyed": "hex lost to a disaster, in order",
    "camel": "camel on a path (Caravans)",
    "tag": "a module's mark",
}


@dataclass(frozen=True)
class Symbol:
    kind: str
    seat: int | None = None
    note: str = ""


Reader = Callable[[str, str], Symbol | None]  # (place, text) → symbol


def _seat(text: str) -> int | None:
    return int(text) if text.isdigit() else None


def _rivers(place: str, text: str) -> Symbol | None:
    if text == "~":
        return Symbol("bridge-site")
    m = re.fullmatch(r"B(\d+)", text)
    return Symbol("bridge", _seat(m.group(1))) if m else None


def _traders(place: str, text: str) -> Symbol | None:
    if text == "X":
        return Symbol("barbarian")
    m = re.fullmatch(r"@(\d+)(\w?)", text)
    if m:
        return Symbol("wagon", _seat(m.group(1)), m.group(2))
    m = re.fullmatch(r"(\d+) left(.*)", text)
    if m:
        return Symbol("trade-hex", None, m.group(1) + m.group(2).replace("@", " @"))
    return None


def _barbarian_attack(place: str, text: str) -> Symbol | None:
    if text == "castle":
        return Symbol("castle")
    m = re.fullmatch(r"B(\d+)(!?)", text)
    if m:
        return Symbol("barbarians", None, m.group(1))
    if text == "KF":
        return Symbol("foreign-knight")
    m = re.fullmatch(r"K(\d+)", text)
    return Symbol("knight", _seat(m.group(1))) if m else None


def _pirates(place: str, text: str) -> Symbol | None:
    if text == "FLEET":
        return Symbol("fleet")
    m = re.fullmatch(r"F(\d+):(\d+)", text)
    if m:
        return Symbol("fortress", _seat(m.group(1)), m.group(2))
    m = re.fullmatch(r"site(\d+)", text)
    if m:
        return Symbol("lair-site", _seat(m.group(1)))
    m = re.fullmatch(r"([Ws])(\d+)", text)
    if m:
        return Symbol("warship" if m.group(1) == "W" else "ship", _seat(m.group(2)))
    return None


def _fishermen(place: str, text: str) -> Symbol | None:
    m = re.fullmatch(r"fish (\d+)", text)
    if m:
        return Symbol("fish", None, m.group(1))
    return Symbol(text) if text in ("lake", "boot") else None


def _oil(place: str, text: str) -> Symbol | None:
    m = re.fullmatch(r"oil · disaster (\d+)/(\d+)", text)
    if m:
        return Symbol("oil", None, f"{m.group(1)}/{m.group(2)}")
    if text == "oil":
        return Symbol("oil")
    if text == "M":
        return Symbol("metropolis")
    m = re.fullmatch(r"X(\d+)", text)
    return Symbol("destroyed", None, m.group(1)) if m else None


def _caravans(place: str, text: str) -> Symbol | None:
    return Symbol("camel") if text == "C" else None


READERS: dict[str, Reader] = {
    "rivers": _rivers,
    "traders-and-barbarians": _traders,
    "barbarian-attack": _barbarian_attack,
    "pirate-islands": _pirates,
    "fishermen": _fishermen,
    "oil-springs": _oil,
    "caravans": _caravans,
}
# The kinds each module may draw (the legend's room is kept for them at every version).
MODULE_KINDS: dict[str, tuple[str, ...]] = {
    "rivers": ("river", "bridge-site", "bridge"),
    "traders-and-barbarians": ("barbarian", "wagon", "trade-hex"),
    "barbarian-attack": ("castle", "barbarians", "knight", "foreign-knight"),
    "pirate-islands": ("fleet", "fortress", "lair-site", "warship", "ship"),
    "fishermen": ("fish", "lake", "boot"),
    "oil-springs": ("oil", "disaster", "metropolis", "destroyed"),
    "caravans": ("camel",),
}


def read(module: str, place: str, text: str) -> Symbol:
    reader = READERS.get(module)
    found = reader(place, text) if reader is not None else None
    return found or Symbol("tag", None, text)


def draw(kind: str, x: float, y: float, fill: str, stroke: str, note: str = "") -> str:
    """One symbol centred at (x, y), as SVG."""
    n = escape(note)
    small = (f'<text x="{x:.1f}" y="{y + 3.5:.1f}" font-size="9" font-weight="bold" '
             f'text-anchor="middle" fill="#fff">{n}</text>') if note else ""
    if kind == "bridge-site":
        return (f'<rect x="{x - 9:.1f}" y="{y - 3:.1f}" width="18" height="6" rx="2" '
                'fill="#d7b98e" stroke="#5d4037" stroke-dasharray="2 1.5"/>')
    if kind == "bridge":
        return (f'<rect x="{x - 11:.1f}" y="{y - 4:.1f}" width="22" height="8" rx="2" '
                f'fill="{fill}" stroke="#5d4037" stroke-width="2"/>')
    if kind in ("barbarian", "barbarians"):
        body = (f'<circle cx="{x:.1f}" cy="{y - 5:.1f}" r="4" fill="#3e2723"/>'
                f'<path d="M{x - 7:.1f},{y + 8:.1f} L{x:.1f},{y - 2:.1f} L{x + 7:.1f},'
                f'{y + 8:.1f} Z" fill="#3e2723"/>')
        if kind == "barbarians":
            return (body + f'<circle cx="{x + 9:.1f}" cy="{y - 7:.1f}" r="6" fill="#b71c1c"/>'
                    f'<text x="{x + 9:.1f}" y="{y - 4:.1f}" font-size="9" font-weight="bold" '
                    f'text-anchor="middle" fill="#fff">{n}</text>')
        return body
    if kind == "wagon":
        return (f'<rect x="{x - 9:.1f}" y="{y - 7:.1f}" width="18" height="10" rx="2" '
                f'fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>'
                f'<circle cx="{x - 5:.1f}" cy="{y + 5:.1f}" r="3" fill="#333"/>'
                f'<circle cx="{x + 5:.1f}" cy="{y + 5:.1f}" r="3" fill="#333"/>'
                + (f'<text x="{x:.1f}" y="{y + 1:.1f}" font-size="8" font-weight="bold" '
                   f'text-anchor="middle" fill="{stroke}">{n.upper()}</text>' if note else ""))
    if kind == "trade-hex":
        half = _trade_half(note)
        return (f'<rect x="{x - half:.1f}" y="{y - 7:.1f}" width="{2 * half:.1f}" height="14" '
                f'rx="3" fill="#6d4c41" stroke="#3e2723"/>'
                f'<text x="{x:.1f}" y="{y + 3.5:.1f}" font-size="9" font-weight="bold" '
                f'text-anchor="middle" fill="#fff">{escape(note.split()[0])} left</text>')
    if kind == "castle":
        return (f'<path d="M{x - 12:.1f},{y + 9:.1f} V{y - 7:.1f} h5 v4 h4 v-4 h6 v4 h4 v-4 '
                f'h5 V{y + 9:.1f} Z" fill="#9e9e9e" stroke="#37474f" stroke-width="1.5"/>')
    if kind in ("knight", "foreign-knight"):
        colour = fill if kind == "knight" else "#9e9e9e"
        return (f'<path d="M{x - 6:.1f},{y - 7:.1f} h12 v6 q0,8 -6,10 q-6,-2 -6,-10 Z" '
                f'fill="{colour}" stroke="{stroke}" stroke-width="1.5"/>')
    if kind == "fleet":
        return (f'<path d="M{x - 13:.1f},{y + 2:.1f} h26 l-5,7 h-16 Z" fill="#212121"/>'
                f'<path d="M{x:.1f},{y + 2:.1f} V{y - 12:.1f} l9,8 Z" fill="#212121"/>'
                f'<circle cx="{x - 5:.1f}" cy="{y - 6:.1f}" r="3" fill="#fff"/>')
    if kind == "fortress":
        return (f'<path d="M{x - 9:.1f},{y + 8:.1f} V{y - 6:.1f} h4 v3 h3 v-3 h4 v3 h3 v-3 '
                f'h4 V{y + 8:.1f} Z" fill="#424242" stroke="{fill}" stroke-width="2"/>' + small)
    if kind == "lair-site":
        return (f'<circle cx="{x:.1f}" cy="{y:.1f}" r="6" fill="none" stroke="{fill}" '
                'stroke-width="2" stroke-dasharray="3 2"/>')
    if kind in ("warship", "ship"):
        hull = fill if kind == "warship" else "#fafafa"
        return (f'<path d="M{x - 9:.1f},{y:.1f} h18 l-4,6 h-10 Z" fill="{hull}" '
                f'stroke="{stroke}" stroke-width="1.2"/>'
                f'<path d="M{x:.1f},{y:.1f} V{y - 9:.1f} l6,6 Z" fill="{hull}" '
                f'stroke="{stroke}" stroke-width="1"/>')
    if kind == "fish":
        return (f'<path d="M{x - 12:.1f},{y:.1f} q7,-9 16,0 l6,-5 v10 l-6,-5 q-9,9 -16,0 Z" '
                f'fill="#4fc3f7" stroke="#01579b" stroke-width="1.2"/>'
                f'<text x="{x - 3:.1f}" y="{y + 3.5:.1f}" font-size="9" font-weight="bold" '
                f'text-anchor="middle" fill="#01579b">{n}</text>')
    if kind == "lake":
        return (f'<ellipse cx="{x:.1f}" cy="{y:.1f}" rx="12" ry="6" fill="#81d4fa" '
                'stroke="#01579b"/>')
    if kind == "boot":
        return (f'<path d="M{x - 4:.1f},{y - 9:.1f} h7 v10 h6 v5 h-13 Z" fill="#795548" '
                'stroke="#3e2723" stroke-width="1.2"/>')
    if kind == "oil":
        drop = (f'<path d="M{x:.1f},{y - 10:.1f} q8,10 0,16 q-8,-6 0,-16 Z" fill="#111" '
                'stroke="#ffeb3b" stroke-width="1"/>')
        if note:
            drop += (f'<rect x="{x + 6:.1f}" y="{y - 8:.1f}" width="22" height="13" rx="3" '
                     f'fill="#b71c1c"/><text x="{x + 17:.1f}" y="{y + 1.5:.1f}" font-size="8" '
                     f'font-weight="bold" text-anchor="middle" fill="#fff">{n}</text>')
        return drop
    if kind == "metropolis":
        return (f'<path d="M{x - 6:.1f},{y + 8:.1f} V{y - 10:.1f} l6,-5 l6,5 V{y + 8:.1f} Z" '
                'fill="#ffd54f" stroke="#6d4c41" stroke-width="1.5"/>')
    if kind == "destroyed":
        return (f'<path d="M{x - 8:.1f},{y - 8:.1f} L{x + 8:.1f},{y + 8:.1f} M{x + 8:.1f},'
                f'{y - 8:.1f} L{x - 8:.1f},{y + 8:.1f}" stroke="#b71c1c" stroke-width="4"/>'
                f'<text x="{x + 12:.1f}" y="{y + 4:.1f}" font-size="9" font-weight="bold" '
                f'fill="#b71c1c">{n}</text>')
    if kind == "camel":
        return (f'<path d="M{x - 9:.1f},{y + 6:.1f} v-6 q2,-6 5,0 q3,-7 6,0 l3,-4 h2 v3 '
                f'l-2,1 v6 Z" fill="#c8a165" stroke="#5d4037" stroke-width="1.2"/>')
    # a mark no pattern knows: its text in a tag
    width = 6.5 * len(note) + 8
    return (f'<rect x="{x - width / 2:.1f}" y="{y - 8:.1f}" width="{width:.1f}" height="15" '
            f'rx="4" fill="#fffde7" stroke="#333" opacity="0.92"/>'
            f'<text x="{x:.1f}" y="{y + 3:.1f}" font-size="10" text-anchor="middle">{n}</text>')


# Half-width, top and bottom (from the centre) of each symbol `draw` makes, for what must keep
# clear of it; a kind not named here fits in 13 px around its centre.
_EXTENT: dict[str, tuple[float, float, float]] = {
    "bridge-site": (9, -3, 3), "bridge": (11, -4, 4), "barbarian": (7, -9, 8),
    "barbarians": (15, -13, 8), "wagon": (9, -7, 8),
    "castle": (12, -7, 9), "knight": (7, -8, 10), "foreign-knight": (7, -8, 10),
    "fleet": (13, -12, 9), "fortress": (10, -7, 9), "lair-site": (7, -7, 7),
    "warship": (9, -9, 6), "ship": (9, -9, 6), "fish": (12, -6, 6), "lake": (12, -6, 6),
    "boot": (10, -10, 7), "metropolis": (7, -15, 9), "destroyed": (26, -9, 9),
    "camel": (9, -8, 6),
}


def extent(kind: str, x: float, y: float, note: str = "") -> Box:
    """The box a symbol drawn at (x, y) covers."""
    if kind == "oil":
        right = 29.0 if note else 9.0
        return Box(x - 9, y - 11, x + right, y + 7)
    if kind == "trade-hex":
        return Box(x - _trade_half(note), y - 7, x + _trade_half(note), y + 7)
    if kind == "tag":
        half = (6.5 * len(note) + 8) / 2
        return Box(x - half, y - 8, x + half, y + 7)
    half, top, bottom = _EXTENT.get(kind, (13, -13, 13))
    return Box(x - half, y + top, x + half, y + bottom)


def _trade_half(note: str) -> float:
    """Half the width of a trade hex's tag: "9 left" fits 32 px, each more digit 7 more."""
    return 16 + 3.5 * max(0, len(note.split()[0]) - 1) if note else 16


COMMODITIES = {"s": "sand", "t": "tools", "g": "glass", "m": "marble"}


def words(found: Symbol, who: Callable[[int], str]) -> str:
    """A symbol in the words of its legend, for a text with no pictures (`who` names a seat):
    "bridge of ann (Red)", "wagon of bob (Blue) carrying tools", "fishing ground on 4"."""
    kind, note = found.kind, found.note
    owner = f" of {who(found.seat)}" if found.seat is not None else ""
    number = note.split()[0] if note else ""
    if kind == "tag":
        return note
    if kind == "wagon":
        load = COMMODITIES.get(note.lower(), note)
        return f"wagon{owner}" + (f" carrying {load}" if load else "")
    if kind == "trade-hex":  # and the wagons standing on its plaza: "12 @1s @2"
        wagons = [words(Symbol("wagon", _seat(m.group(1)), m.group(2)), who)
                  for m in re.finditer(r"@(\d+)(\w?)", note)]
        return (f"trade hex, {number} commodities left to load"
                + "".join(f", {w} at its plaza" for w in wagons))
    if kind == "barbarians":
        return f"{number} barbarians landed (3 conquer)"
    if kind == "fortress":
        return f"pirate fortress{owner}, strength {note}"
    if kind == "fish":
        return f"fishing ground on {note}"
    if kind == "oil":
        return "oil spring" + (f" with the disaster marker at {note}" if note else "")
    if kind == "destroyed":
        return f"hex lost to a disaster (number {number})" if number else "hex lost to a disaster"
    name = NAMES.get(kind) or LEGEND[kind].split(":")[0].split(",")[0].split(" (")[0]
    return f"{name}{owner}"


# A symbol's name where its legend's first words say more than the name.
NAMES = {"bridge-site": "open bridge site", "lair-site": "pirate island settlement site",
         "ship": "ship", "camel": "camel", "foreign-knight": "knight of no seat"}


def short(found: Symbol) -> str:
    """A symbol in a word or two, where a text board has room for them (a hex's lower line)."""
    number = found.note.split()[0] if found.note else ""
    return {"fleet": "fleet", "fish": f"fish {number}", "lake": "lake", "boot": "boot",
            "oil": f"oil {found.note}".strip(), "destroyed": f"lost {number}".strip(),
            "castle": "castle", "barbarians": f"{number} barb.", "trade-hex": f"{number} left",
            "tag": found.note}.get(found.kind, "*")
