"""The scenario's state (`state.ext["traders-and-barbarians"]`), its phases, and the board's
trade places: trade hexes, plazas, sea-only corners, sea sides and the paths wagons and
barbarians use (docs/rules/traders-and-barbarians.md §10.2).

Everything in the scenario state is public (README.md §0.3, chance-and-hidden-information.md
§14.10): gold, wagons, commodities, the stacks' counts and the barbarians."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Protocol

from events.events import GameCreated
from services.rules.engine.board import Board
from services.rules.engine.modstate import StateKey
from services.rules.engine.ruleset import Capability
from services.rules.engine.scenarios.traders_and_barbarians.data import (
    BARBARIAN_START,
    BARBARIANS,
    COMMODITIES,
    NAME,
    STACKS,
    START_GOLD,
    TRADE_HEXES,
)
from services.rules.engine.scenarios.traders_and_barbarians.state import TradersState
from services.rules.engine.state import NO_ONE, State

EXT = NAME
WAGON = "traders_and_barbarians.wagon"  # the wagon part of the turn (§10.13 step 3)
BARBARIAN = "traders_and_barbarians.barbarian"  # a barbarian is to be relocated

SEVEN, KNIGHT, DRIVE_OFF = "seven", "knight", "drive_off"


def new_turn(t: TradersState) -> None:
    """The turn's wagon part, drive-off tries and gold purchases start afresh."""
    t.mp = 0
    t.moving = t.over = t.second = t.grain_paid = False
    t.tried = [False] * BARBARIANS
    t.buys = 0


class NeutralToll(Protocol):
    """With neutral owners (Catan for Two): who gets the toll of `gold` paid by `seat` for a
    neutral road — (gold paid, the seat paid or None, the part going to the supply)."""

    def __call__(self, state: State, seat: int, gold: int, /) -> tuple[int, int | None, int]: ...


# What the rule of a pair gives this scenario's tolls (provided by
# engine/combinations/traders_and_barbarians_catan_for_two.py).
NEUTRAL_TOLL: Capability[NeutralToll] = Capability("traders & barbarians: toll on a neutral road")


def tb(state: State) -> TradersState:
    ext: TradersState = state.ext[EXT]
    return ext


def init(state: State, created: GameCreated) -> TradersState:
    n = state.n
    return TradersState(
        gold=[START_GOLD] * n,
        wagon=[NO_ONE] * n,
        level=[1] * n,
        cargo=[""] * n,
        delivered=[[0] * len(COMMODITIES) for _ in range(n)],
        stacks=[[STACKS[t].get(c, 0) for c in COMMODITIES] for t in TRADE_HEXES],
        barbarians=[state.board.parse_edge(e) for e in BARBARIAN_START],
        tried=[False] * BARBARIANS,
    )


# --- the board's trade places ---------------------------------------------------------------


@dataclass(frozen=True)
class TradePlaces:
    trade_hexes: tuple[int, ...]  # hex ids, in TRADE_HEXES order
    plazas: tuple[int, ...]  # the plaza vertex of each trade hex
    plaza_of: dict[int, int]  # plaza vertex -> index into TRADE_HEXES
    sea_only: frozenset[int]  # corners of a trade hex touching no other land
    sea_sides: frozenset[int]  # sides between a trade hex and the sea
    paths: tuple[int, ...]  # every edge a wagon or a barbarian may use
    is_path: tuple[bool, ...]


@lru_cache(maxsize=64)
def places(board: Board) -> TradePlaces:
    topo = board.topo
    by_terrain = {t: i for i, t in enumerate(board.hex_terrain)}
    trade = tuple(by_terrain[t] for t in TRADE_HEXES)
    plazas = tuple(board.parse_vertex("/".join([board.hex_name(h)] * 3)) for h in trade)
    sea_only = frozenset(
        v for h in trade for v in topo.hex_vertices[h]
        if set(topo.vertex_land_hexes[v]) == {h}
    )
    n_sides = len(topo.edges)
    sea_sides = frozenset(
        e for h in trade for e in topo.hex_edges[h]
        if e < n_sides and not all(
            topo.hex_is_land[topo.hex_index[x]] for x in topo.edges[e] if x in topo.hex_index)
    )
    is_path = tuple(topo.edge_is_land[e] and e not in sea_sides for e in range(topo.n_edges))
    return TradePlaces(
        trade_hexes=trade,
        plazas=plazas,
        plaza_of={v: i for i, v in enumerate(plazas)},
        sea_only=sea_only,
        sea_sides=sea_sides,
        paths=tuple(e for e in range(topo.n_edges) if is_path[e]),
        is_path=is_path,
    )


def other_end(state: State, edge: int, v: int) -> int:
    a, b = state.board.topo.edge_vertices[edge]
    return b if a == v else a


TRADERS: Final = StateKey(EXT, TradersState)  # the module's state (modstate.py)
