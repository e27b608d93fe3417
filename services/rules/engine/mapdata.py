"""The map schema: a map is a TOML file, loaded and checked here (layouts are decided in
layout.py, boards built in board.py).

    name, description
    layout = "variable" | "fixed"        the default layout of the map
    fixed = [[q, r, terrain, number], …] the fixed layout's land hexes; number 0 = none, or a
                                         list of numbers ([2, 12]: produces on both)
    frame = [[q, r], …]                  the sea frame (sea hexes around the island)
    sea = [[q, r], …]                    sea hexes inside the map (Seafarers)
    harbors = [[sq, sr, lq, lr, kind]]   harbor slots (sea hex, land hex) with the fixed kind
    robber = "desert" | "none" | [q, r]  where the robber starts ("none": off the board)
    terrain_numbers = {lake = [2, 3, 11, 12]}  numbers a terrain always produces on
    extra_numbers = [[q, r, n], …]       more numbers for one hex (beside its token)
    edges = [[q1, r1, q2, r2, feature]]  edge features (river, bridge_site, lane:0, …)
    centres = [[q, r], …]                a vertex at the hex's centre (named "(q,r)/(q,r)/(q,r)")
    paths = [[vertex, vertex], …]        explicit paths (edges) between two vertices by name
    [[slots]] pieces = [[kind, place]], marks = [[name, place]]
                                         per-seat start slots: seat i takes slot i, its pieces
                                         pre-placed before set-up (any piece kind of the
                                         ruleset), its marks named places its module reads
                                         (a ● site, a fortress)
    shuffle_harbors = false              shuffle the harbor kinds even in the fixed layout
    [variable]                           the variable layout (omit for fixed-only maps)
      spiral, rings = [12, 6, 1]         the token walk and its rings (outer first)
      corners                            hexes a walk may start at (a random one is chosen)
      tokens, terrain = {name = count}   number tokens in order; terrain pool shuffled
      pools = [{hexes = [[q, r], …], terrain = {…}}]   instead of `terrain` over the spiral:
                                         pools each shuffled over their own hexes
      numbers = "walk" | "fixed"         tokens laid along the spiral, or each hex keeps the
                                         fixed layout's numbers (tokens printed in place)
      keep = [[q, r], …]                 hexes keeping their fixed terrain (not shuffled)
      no_token = ["desert"]              terrains the tokens skip
      shuffle_harbors = true

Terrain names are checked against the ruleset's vocabulary when a game is made (a module
adds terrains); everything else is checked here, at load. Maps are found by name in the
engine's maps/, then in each module's `maps` package (`load_map`); a map made in code (a test,
a generated map) is `register_map`ped.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any, NamedTuple

from services.rules.engine.geometry import Hex

ENGINE_MAPS = "services.rules.engine.maps"


class MapError(ValueError):
    """A map file that does not describe a playable map."""


# A hex of the fixed layout: axial q, r, its terrain and its numbers (none, one or several).
class FixedHex(NamedTuple):
    q: int
    r: int
    terrain: str
    numbers: tuple[int, ...]


@dataclass(frozen=True)
class Variable:
    spiral: tuple[Hex, ...]
    rings: tuple[int, ...]
    corners: tuple[Hex, ...]
    tokens: tuple[int, ...]
    terrain: tuple[tuple[str, int], ...]
    keep: frozenset[Hex] = frozenset()
    no_token: frozenset[str] = frozenset({"desert"})
    shuffle_harbors: bool = True
    pools: tuple[tuple[tuple[Hex, ...], tuple[tuple[str, int], ...]], ...] = ()
    numbers: str = "walk"

    @property
    def shuffled_hexes(self) -> list[Hex]:
        return [h for hexes, _ in self.pools for h in hexes] if self.pools else list(self.spiral)


@dataclass(frozen=True)
class Slot:
    """A seat's start slot: its pre-placed pieces and its marked places (by name)."""

    pieces: tuple[tuple[str, str], ...] = ()
    marks: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class MapData:
    name: str
    description: str
    layout: str
    fixed: tuple[FixedHex, ...]
    frame: tuple[Hex, ...]
    sea: tuple[Hex, ...]
    harbors: tuple[tuple[Hex, Hex, str], ...]
    robber: str | Hex
    variable: Variable | None = None
    shuffle_harbors: bool = False
    terrain_numbers: dict[str, tuple[int, ...]] = field(default_factory=dict)
    extra_numbers: tuple[tuple[Hex, int], ...] = ()
    edges: tuple[tuple[Hex, Hex, str], ...] = ()
    centres: tuple[Hex, ...] = ()
    paths: tuple[tuple[str, str], ...] = ()
    slots: tuple[Slot, ...] = ()

    @property
    def land(self) -> frozenset[Hex]:
        return frozenset((h.q, h.r) for h in self.fixed)

    def edge_features(self, feature: str) -> tuple[tuple[Hex, Hex], ...]:
        """The edges (as hex pairs) with this feature."""
        return tuple((a, b) for a, b, f in self.edges if f == feature)


def _hex(v: object) -> Hex:
    if not isinstance(v, list | tuple) or len(v) != 2:
        raise ValueError(f"a hex is [q, r], not {v!r}")
    q, r = v
    return (int(q), int(r))


def _numbers(n: object) -> tuple[int, ...]:
    if isinstance(n, list):
        return tuple(int(x) for x in n)
    if not n:
        return ()
    if not isinstance(n, int):
        raise TypeError(f"a number token is an int or a list of them, not {n!r}")
    return (n,)


def _counts(table: object) -> tuple[tuple[str, int], ...]:
    if not isinstance(table, dict):
        raise TypeError(f"counts are a table of name = n, not {table!r}")
    return tuple((str(k), int(n)) for k, n in table.items())


# A map's TOML data: any shape a file holds, so `Any`; `_parse` reads it and `parse` turns
# every wrong shape (a KeyError, TypeError or ValueError) into a MapError.
def parse(name: str, data: dict[str, Any]) -> MapData:
    """A map from its TOML data, checked; raises MapError with the reason."""
    try:
        m = _parse(data)
    except (KeyError, TypeError, ValueError) as exc:
        raise MapError(f"map {name}: malformed ({exc!r})") from exc
    validate(name, m)
    return m


def _parse(data: dict[str, Any]) -> MapData:
    var = data.get("variable")
    variable = None
    if var is not None:
        spiral = var.get("spiral", [])
        variable = Variable(
            spiral=tuple(_hex(h) for h in spiral),
            rings=tuple(var.get("rings", [len(spiral)])),
            corners=tuple(_hex(h) for h in var.get("corners", [])),
            tokens=tuple(var.get("tokens", [])),
            terrain=_counts(var.get("terrain", {})),
            keep=frozenset(_hex(h) for h in var.get("keep", [])),
            no_token=frozenset(var.get("no_token", ["desert"])),
            shuffle_harbors=bool(var.get("shuffle_harbors", True)),
            pools=tuple((tuple(_hex(h) for h in p["hexes"]), _counts(p["terrain"]))
                        for p in var.get("pools", [])),
            numbers=str(var.get("numbers", "walk")),
        )
    robber = data.get("robber", "desert")
    return MapData(
        name=data["name"],
        description=data.get("description", ""),
        layout=data.get("layout", "variable" if variable else "fixed"),
        fixed=tuple(FixedHex(int(q), int(r), str(t), _numbers(n)) for q, r, t, n in data["fixed"]),
        frame=tuple(_hex(h) for h in data.get("frame", [])),
        sea=tuple(_hex(h) for h in data.get("sea", [])),
        harbors=tuple(((sq, sr), (lq, lr), str(k)) for sq, sr, lq, lr, k in data.get("harbors", [])),
        robber=robber if isinstance(robber, str) else _hex(robber),
        variable=variable,
        shuffle_harbors=bool(data.get("shuffle_harbors", False)),
        terrain_numbers={k: tuple(v) for k, v in data.get("terrain_numbers", {}).items()},
        extra_numbers=tuple(((q, r), n) for q, r, n in data.get("extra_numbers", [])),
        edges=tuple(((a, b), (c, d), str(f)) for a, b, c, d, f in data.get("edges", [])),
        centres=tuple(_hex(h) for h in data.get("centres", [])),
        paths=tuple((str(a), str(b)) for a, b in data.get("paths", [])),
        slots=tuple(
            Slot(tuple((str(k), str(p)) for k, p in s.get("pieces", [])),
                 tuple((str(k), str(p)) for k, p in s.get("marks", [])))
            for s in data.get("slots", [])
        ),
    )


def validate(name: str, m: MapData) -> None:
    land = m.land
    water = set(m.frame) | set(m.sea)
    if len(land) != len(m.fixed):
        raise MapError(f"map {name}: a land hex is listed twice")
    if land & water:
        raise MapError(f"map {name}: hexes both land and sea: {sorted(land & water)}")
    if m.layout not in ("fixed", "variable") or (m.layout == "variable" and m.variable is None):
        raise MapError(f"map {name}: layout {m.layout!r} is not described")
    for sea, shore, kind in m.harbors:
        if sea not in water or shore not in land or not kind:
            raise MapError(f"map {name}: bad harbor {(sea, shore, kind)}")
    if isinstance(m.robber, tuple) and m.robber not in land:
        raise MapError(f"map {name}: the robber starts off the land at {m.robber}")
    for centre in m.centres:
        if centre not in land:
            raise MapError(f"map {name}: a centre vertex on {centre}, which is not land")
    v = m.variable
    if v is None:
        return
    if sorted(v.shuffled_hexes) != sorted(land - v.keep):
        raise MapError(f"map {name}: the shuffle must cover every land hex not kept, once")
    for hexes, counts in v.pools or ((v.spiral, v.terrain),):
        if sum(n for _, n in counts) != len(hexes):
            raise MapError(f"map {name}: terrain counts do not match the hexes they go on")
    if v.numbers == "fixed":
        return
    if v.numbers != "walk" or sorted(v.spiral) != sorted(land - v.keep):
        raise MapError(f"map {name}: the token walk must visit every shuffled land hex once")
    if sum(v.rings) != len(v.spiral):
        raise MapError(f"map {name}: the rings do not add up to the spiral")
    if not v.corners or any(c not in v.spiral[: v.rings[0]] for c in v.corners):
        raise MapError(f"map {name}: a start corner is not on the outer ring")
    terrain = dict(t for _, pool in v.pools for t in pool) if v.pools else dict(v.terrain)
    tokened = len(v.spiral) - sum(n for t, n in terrain.items() if t in v.no_token)
    if len(v.tokens) != tokened:
        raise MapError(f"map {name}: {len(v.tokens)} tokens for {tokened} hexes that take one")


REGISTERED: dict[str, MapData] = {}


def register_map(m: MapData) -> None:
    """A map made in code, found by `load_map` before any file."""
    REGISTERED[m.name] = m
    load_map.cache_clear()


@lru_cache(maxsize=64)
def load_map(name: str, packages: tuple[str, ...] = (ENGINE_MAPS,)) -> MapData:
    """The map `name`: a registered one, else from the first of `packages` with `name.toml`."""
    if name in REGISTERED:
        return REGISTERED[name]
    for package in packages:
        path = resources.files(package) / f"{name}.toml"
        if path.is_file():
            return parse(name, tomllib.loads(path.read_text()))
    raise MapError(f"no map named {name!r}")
