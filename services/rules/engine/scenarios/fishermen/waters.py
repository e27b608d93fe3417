"""The board of the Fishermen (docs/rules/fishermen.md §6.2): the lake kept inland and the six
fishing grounds, decided when the game is created (chance keys `layout:lake`,
`layout:grounds:<i>`) and recorded in `GameCreated` (tiles, `setup`); what follows from them
(the vertices that fish, `Waters`) is worked out once per game."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from events.events import GameCreated, Tile
from services.rules.engine.board import Board
from services.rules.engine.chance import Dealer, shuffled
from services.rules.engine.layout import SPECIAL
from services.rules.engine.mapdata import MapData
from services.rules.engine.scenarios.fishermen.common import (
    GROUND_FRAME_INDICES,
    GROUND_NUMBERS,
    GROUNDS_KEY,
    LAKE,
    fish,
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


class Waters:
    """Where fish come from, fixed for a game: the fishing grounds (sea hex, number, the land
    vertices that fish there) and the lake (hex, its corners)."""

    __slots__ = ("grounds", "lake", "lake_vertices", "fishing_vertices")

    def __init__(self, grounds: tuple[tuple[int, int, tuple[int, ...]], ...], lake: int,
                 lake_vertices: tuple[int, ...]) -> None:
        self.grounds = grounds
        self.lake = lake
        self.lake_vertices = lake_vertices
        self.fishing_vertices = frozenset(lake_vertices).union(*(vs for _, _, vs in grounds))


def grounds(state: State, created: GameCreated) -> tuple[int, ...]:
    """The fishing grounds `created` laid, as (sea hex, number) pairs, flat: what the state
    keeps (`FishState.grounds`)."""
    hex_id = state.board.hex_id
    flat = created.setup.get(GROUNDS_KEY, [])
    out: list[int] = []
    for i in range(0, len(flat), 3):
        out += [hex_id((flat[i], flat[i + 1])), flat[i + 2]]
    return tuple(out)


def waters(state: State) -> Waters:
    """The grounds and the lake of this game, with the land vertices that fish at each."""
    return _waters(state.board, fish(state).grounds)


# Fixed for a game, so worked out once per game (from its board and grounds) and shared, not
# kept in the state: a state copy (every step of a search) copies only the grounds' 12 ints.
@lru_cache(maxsize=64)
def _waters(board: Board, laid: tuple[int, ...]) -> Waters:
    topo = board.topo
    fishing = tuple(
        (h, number, tuple(v for v in topo.hex_vertices[h] if topo.vertex_is_land[v]))
        for h, number in zip(laid[::2], laid[1::2], strict=True)
    )
    lakes = [h for h, t in enumerate(board.hex_terrain) if t == LAKE]
    lake = lakes[0] if lakes else NO_ONE
    lake_vertices = topo.hex_vertices[lake] if lakes else ()
    return Waters(fishing, lake, tuple(lake_vertices))
