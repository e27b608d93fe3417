"""The board of the Fishermen (docs/rules/fishermen.md §6.2): the lake kept inland and the six
fishing grounds, decided when the game is created (chance keys `layout:lake`,
`layout:grounds:<i>`) and recorded in `GameCreated` (tiles, `setup`)."""

from __future__ import annotations

from typing import Any

from events.events import GameCreated, Tile
from services.rules.engine.chance import Dealer, shuffled
from services.rules.engine.layout import SPECIAL
from services.rules.engine.mapdata import MapData
from services.rules.engine.scenarios.fishermen.common import (
    GROUND_FRAME_INDICES,
    GROUND_NUMBERS,
    GROUNDS_KEY,
    LAKE,
    Waters,
)
from services.rules.engine.state import NO_ONE, State

LAKE_KEY = SPECIAL + LAKE


def keep_lake_inland(created: dict[str, Any], m: MapData, dealer: Dealer) -> None:
    """A lake shuffled onto the outer ring swaps places with a random hex of the inner ring or
    the centre; the two hexes take their tokens with them (DECISION §6.2)."""
    assert m.variable is not None
    outer = set(m.variable.spiral[: m.variable.rings[0]])
    inner = list(m.variable.spiral[m.variable.rings[0]:])
    flat: list[int] = created["setup"][LAKE_KEY]
    lake = (flat[0], flat[1])
    if lake not in outer:
        return
    q, r = dealer.pick("layout:lake", inner, (1,) * len(inner))
    tiles: tuple[Tile, ...] = created["tiles"]
    created["tiles"] = tuple(
        Tile(lake[0], lake[1], t.terrain, t.number) if (t.q, t.r) == (q, r) else t for t in tiles
    )
    created["setup"][LAKE_KEY] = [q, r, flat[2]]


def lay_grounds(created: dict[str, Any], m: MapData, dealer: Dealer) -> None:
    numbers = shuffled(dealer, "layout:grounds", GROUND_NUMBERS)
    flat: list[int] = []
    for i, n in zip(GROUND_FRAME_INDICES, numbers, strict=True):
        q, r = m.frame[i]
        flat += [q, r, n]
    created["setup"][GROUNDS_KEY] = flat


def waters(state: State, created: GameCreated) -> Waters:
    """The grounds and the lake of a game, with the land vertices that fish at each."""
    board = state.board
    topo = board.topo
    flat = created.setup.get(GROUNDS_KEY, [])
    grounds = []
    for i in range(0, len(flat), 3):
        h = board.hex_id((flat[i], flat[i + 1]))
        vertices = tuple(v for v in topo.hex_vertices[h] if topo.vertex_is_land[v])
        grounds.append((h, flat[i + 2], vertices))
    lakes = [h for h, t in enumerate(board.hex_terrain) if t == LAKE]
    lake = lakes[0] if lakes else NO_ONE
    lake_vertices = topo.hex_vertices[lake] if lakes else ()
    return Waters(tuple(grounds), lake, tuple(lake_vertices))
