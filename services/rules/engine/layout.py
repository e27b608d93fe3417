"""Board set-up from map data (RULES.md §1.2): the beginner layout, or the variable one
(terrain shuffled, tokens A–R laid counter-clockwise from a random corner skipping the desert,
harbor kinds shuffled onto the fixed slots). All chance goes through the dealer."""

from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib import resources
from typing import Any

from events.events import Harbor, Tile
from services.rules.engine.chance import Dealer, shuffled

TERRAINS = ("forest", "hills", "pasture", "fields", "mountains", "desert")
HARBOR_KINDS = ("3:1", "lumber", "brick", "wool", "grain", "ore")


class MapError(ValueError):
    """A map file that does not describe a playable map."""


@lru_cache(maxsize=16)
def load_map(name: str) -> dict[str, Any]:
    path = resources.files("services.rules.engine.maps") / f"{name}.toml"
    if not path.is_file():
        raise MapError(f"no map named {name!r}")
    data = tomllib.loads(path.read_text())
    validate(name, data)
    return data


def validate(name: str, data: dict[str, Any]) -> None:
    land = {(q, r) for q, r, *_ in data["beginner"]}
    sea = {(q, r) for q, r in data["sea"]}
    if land & sea:
        raise MapError(f"map {name}: hexes both land and sea: {sorted(land & sea)}")
    for q, r, terrain, number in data["beginner"]:
        if terrain not in TERRAINS:
            raise MapError(f"map {name}: unknown terrain {terrain!r} at ({q},{r})")
        if (terrain == "desert") != (number == 0):
            raise MapError(f"map {name}: ({q},{r}) {terrain} with number {number}")
    for sq, sr, lq, lr, kind in data["harbors"]:
        if (sq, sr) not in sea or (lq, lr) not in land or kind not in HARBOR_KINDS:
            raise MapError(f"map {name}: bad harbor {(sq, sr, lq, lr, kind)}")
    if sorted(map(tuple, data["spiral"])) != sorted(land):
        raise MapError(f"map {name}: the token spiral must visit every land hex once")
    counts = data["terrain"]
    if sum(counts.values()) != len(land):
        raise MapError(f"map {name}: terrain counts do not match the land hexes")
    if len(data["tokens"]) != len(land) - counts.get("desert", 0):
        raise MapError(f"map {name}: one token per non-desert hex")


def sea_tiles(data: dict[str, Any]) -> list[Tile]:
    return [Tile(q, r, "sea") for q, r in data["sea"]]


def beginner(name: str = "base") -> tuple[tuple[Tile, ...], tuple[Harbor, ...]]:
    data = load_map(name)
    tiles = [Tile(q, r, t, n) for q, r, t, n in data["beginner"]] + sea_tiles(data)
    harbors = tuple(Harbor((sq, sr), (lq, lr), k) for sq, sr, lq, lr, k in data["harbors"])
    return tuple(tiles), harbors


def token_walk(data: dict[str, Any], corner: int) -> list[tuple[int, int]]:
    """The spiral rotated to start at the given corner (outer ring, then inner, then centre)."""
    spiral = [tuple(h) for h in data["spiral"]]
    outer, inner, centre = spiral[:12], spiral[12:18], spiral[18:]
    start = outer.index(tuple(data["corners"][corner]))
    # The inner ring turns with the outer one: two outer steps per inner step.
    return outer[start:] + outer[:start] + inner[start // 2 :] + inner[: start // 2] + centre  # type: ignore[return-value]


def variable(dealer: Dealer, name: str = "base") -> tuple[tuple[Tile, ...], tuple[Harbor, ...]]:
    data = load_map(name)
    terrains = [t for t, n in data["terrain"].items() for _ in range(n)]
    spiral = [tuple(h) for h in data["spiral"]]
    placed = dict(zip(spiral, shuffled(dealer, "layout:terrain", terrains), strict=True))
    corner = dealer.pick("layout:corner", range(len(data["corners"])), (1,) * len(data["corners"]))
    numbers: dict[tuple[int, int], int] = {}
    tokens = iter(data["tokens"])
    for h in token_walk(data, corner):
        numbers[h] = 0 if placed[h] == "desert" else next(tokens)
    tiles = [Tile(q, r, placed[(q, r)], numbers[(q, r)]) for q, r, *_ in data["beginner"]]
    kinds = shuffled(dealer, "layout:harbors", [k for *_, k in data["harbors"]])
    harbors = tuple(
        Harbor((sq, sr), (lq, lr), kind)
        for (sq, sr, lq, lr, _), kind in zip(data["harbors"], kinds, strict=True)
    )
    return tuple(tiles + sea_tiles(data)), harbors
