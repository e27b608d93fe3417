"""Deciding a map's layout: the fixed layout, or the variable one (terrain shuffled over the
spiral, tokens laid counter-clockwise from a random corner skipping the hexes that take none,
harbor kinds shuffled onto their slots). All chance goes
through the dealer, in the same order and under the same keys for every map.

A tile's terrain on the wire is a name (`events.types.Terrain`), but the tiles hold the base
terrains only (`events.types.TERRAINS`); a hex of a module's terrain (lake, swamp, oasis, gold,
…) is written into `GameCreated.setup` under `terrain:<name>` as flat (q, r, number) triples, as
it always was: an audit re-creates a game's `GameCreated` and compares it with the log's.
"""

from __future__ import annotations

from typing import cast

from events.events import Harbor, Tile
from events.types import TERRAINS
from services.rules.engine.chance import Dealer, shuffled
from services.rules.engine.geometry import Hex
from services.rules.engine.mapdata import MapData, load_map

WIRE_TERRAINS = frozenset(TERRAINS)
SPECIAL = "terrain:"
# More numbers for hexes, decided with the layout by a module (Rivers: the 2 joins the hex
# that received the 12): flat (q, r, number) triples in `GameCreated.setup`.
EXTRA_NUMBERS = "numbers:extra"

# A laid hex: (q, r, terrain, token number or 0).
Laid = tuple[int, int, str, int]


def fixed(m: MapData) -> list[Laid]:
    return [(h.q, h.r, h.terrain, h.numbers[0] if h.numbers else 0) for h in m.fixed]


def token_walk(m: MapData, corner: int) -> list[Hex]:
    """The spiral rotated to start at the given corner: each ring turns with the outer one."""
    assert m.variable is not None
    v = m.variable
    start = v.spiral.index(v.corners[corner])
    walk: list[Hex] = []
    at = 0
    for size in v.rings:
        ring = list(v.spiral[at : at + size])
        shift = start * size // v.rings[0]
        walk += ring[shift:] + ring[:shift]
        at += size
    return walk


def variable(dealer: Dealer, m: MapData) -> tuple[list[Laid], list[str]]:
    """A variable layout: the laid hexes (in the map's fixed order) and the harbor kinds."""
    v = m.variable
    assert v is not None
    placed: dict[Hex, str] = {}
    for i, (hexes, counts) in enumerate(v.pools or ((v.spiral, v.terrain),)):
        terrains = [t for t, n in counts for _ in range(n)]
        key = "layout:terrain" if i == 0 else f"layout:terrain:{i}"
        placed.update(zip(hexes, shuffled(dealer, key, terrains), strict=True))
    numbers: dict[Hex, int] = {}
    if v.numbers == "walk":
        corner = dealer.pick("layout:corner", range(len(v.corners)), (1,) * len(v.corners))
        tokens = iter(v.tokens)
        for h in token_walk(m, corner):
            numbers[h] = 0 if placed[h] in v.no_token else next(tokens)
    laid = [
        (h.q, h.r, placed[(h.q, h.r)], numbers.get((h.q, h.r), h.numbers[0] if h.numbers else 0))
        if (h.q, h.r) in placed else (h.q, h.r, h.terrain, h.numbers[0] if h.numbers else 0)
        for h in m.fixed
    ]
    kinds = [k for *_, k in m.harbors]
    if v.shuffle_harbors:
        kinds = shuffled(dealer, "layout:harbors", kinds)
    return laid, kinds


def lay(m: MapData, dealer: Dealer, use_fixed: bool) -> tuple[list[Laid], tuple[Harbor, ...]]:
    """The map's layout, fixed or variable, with its harbors."""
    if use_fixed or m.layout == "fixed" or m.variable is None:
        laid, kinds = fixed(m), [k for *_, k in m.harbors]
        if m.shuffle_harbors:  # harbors shuffled onto printed places (Pirate Islands)
            kinds = shuffled(dealer, "layout:harbors", kinds)
    else:
        laid, kinds = variable(dealer, m)
    harbors = tuple(
        Harbor(sea, shore, kind)
        for (sea, shore, _), kind in zip(m.harbors, kinds, strict=True)
    )
    return laid, harbors


def to_wire(m: MapData, laid: list[Laid]) -> tuple[tuple[Tile, ...], dict[str, list[int]]]:
    """Tiles of base terrains (plus the sea), and the module-terrain hexes for `setup`."""
    tiles: list[Tile] = []
    special: dict[str, list[int]] = {}
    for q, r, terrain, number in laid:
        if terrain in WIRE_TERRAINS:
            tiles.append(Tile(q, r, terrain, number))
        else:
            special.setdefault(SPECIAL + terrain, []).extend((q, r, number))
    tiles += [Tile(q, r, "sea") for q, r in m.frame + m.sea]
    return tuple(tiles), special


def from_setup(setup: dict[str, list[int]]) -> list[Laid]:
    """The module-terrain hexes `to_wire` wrote into `GameCreated.setup`."""
    out: list[Laid] = []
    for key, flat in setup.items():
        if key.startswith(SPECIAL):
            terrain = key[len(SPECIAL):]
            out.extend((flat[i], flat[i + 1], terrain, flat[i + 2]) for i in range(0, len(flat), 3))
    return out


def extra_numbers(setup: dict[str, list[int]]) -> list[tuple[Hex, int]]:
    """The numbers a module added to hexes with the layout (`EXTRA_NUMBERS`)."""
    flat = setup.get(EXTRA_NUMBERS, [])
    return [((flat[i], flat[i + 1]), flat[i + 2]) for i in range(0, len(flat), 3)]


def beginner(name: str = "base") -> tuple[tuple[Tile, ...], tuple[Harbor, ...]]:
    """The fixed layout of a map (the base map's beginner layout), as tiles and harbors."""
    m = load_map(name)
    laid, harbors = lay(m, cast(Dealer, None), use_fixed=True)
    return to_wire(m, laid)[0], harbors
