"""The scenario's state (`state.ext["traders-and-barbarians"]`), its phases, and the board's
trade places: trade hexes, plazas, sea-only corners, sea sides and the paths wagons and
barbarians use (docs/rules/traders-and-barbarians.md §10.2).

Everything in the scenario state is public (README.md §0.3, chance-and-hidden-information.md
§14.10): gold, wagons, commodities, the stacks' counts and the barbarians."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final, Protocol

from mypy_extensions import mypyc_attr

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
from services.rules.engine.state import NO_ONE, State

EXT = NAME
WAGON = "traders_and_barbarians.wagon"  # the wagon part of the turn (§10.13 step 3)
BARBARIAN = "traders_and_barbarians.barbarian"  # a barbarian is to be relocated

SEVEN, KNIGHT, DRIVE_OFF = "seven", "knight", "drive_off"


# The attribute names, for copies and dumps (compiled classes have no __slots__ to read).
TRADERS_FIELDS = ("gold", "wagon", "level", "cargo", "delivered", "stacks", "barbarians",
                  "mp", "moving", "over", "second", "grain_paid", "tried", "buys",
                  "pending", "pending_barbarian", "resume", "draws", "throws", "built")


# Copies start from `TradersState.__new__`, without __init__: compiled, that takes a class whose
# `__new__` does not call `__init__` (and interpreted code, the scenario and tests, still
# constructs it with its arguments: hence not mypyc's serializable=True, which skips __init__
# then).
@mypyc_attr(allow_interpreted_subclasses=True)
class TradersState:
    """Per-seat gold, wagons and commodities; the stacks; the barbarians; the turn's wagon."""

    __slots__ = TRADERS_FIELDS

    def __init__(self, seats: int, barbarians: list[int]) -> None:
        self.gold = [START_GOLD] * seats
        self.wagon = [NO_ONE] * seats  # the vertex each wagon stands on
        self.level = [1] * seats  # the face-up wagon card
        self.cargo = [""] * seats  # the commodity carried ("" : none)
        self.delivered = [[0] * len(COMMODITIES) for _ in range(seats)]
        self.stacks = [[STACKS[t].get(c, 0) for c in COMMODITIES] for t in TRADE_HEXES]
        self.barbarians = barbarians  # the path (edge) of each barbarian
        # The turn's wagon part: MP left in the current movement, whether it has begun, whether
        # the current movement ended at a plaza, whether a second movement is due.
        self.mp = 0
        self.moving = False
        self.over = False
        self.second = False
        self.grain_paid = False
        self.tried = [False] * BARBARIANS  # drive-off tries this turn, per barbarian
        self.buys = 0  # gold purchases this turn
        self.pending = ""  # why a barbarian is being relocated (SEVEN, KNIGHT, DRIVE_OFF)
        self.pending_barbarian = NO_ONE  # the driven-off barbarian
        self.resume = ""  # the phase a Knight's relocation returns to
        self.draws = 0  # commodity draws so far (chance keys)
        self.throws = 0  # drive-off throws so far (chance keys)
        self.built = (NO_ONE, NO_ONE)  # (seat, vertex) of the last building placed

    def copy(self) -> TradersState:
        t = TradersState.__new__(TradersState)
        for name in TRADERS_FIELDS:
            value = getattr(self, name)
            if isinstance(value, list | tuple):
                value = [v[:] if isinstance(v, list) else v for v in value]
                if name == "built":
                    value = (value[0], value[1])
            setattr(t, name, value)
        return t

    def dump(self) -> dict[str, Any]:
        return {name: getattr(self.copy(), name) for name in TRADERS_FIELDS}

    @staticmethod
    def load(data: dict[str, Any]) -> TradersState:
        t = TradersState.__new__(TradersState)
        for name in TRADERS_FIELDS:
            value = data[name]
            # `built` is a pair (JSON gives a list, which a compiled class refuses).
            setattr(t, name, (value[0], value[1]) if name == "built" else value)
        return t.copy()

    def new_turn(self) -> None:
        self.mp = 0
        self.moving = self.over = self.second = self.grain_paid = False
        self.tried = [False] * BARBARIANS
        self.buys = 0


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
    board = state.board
    return TradersState(state.n, [board.parse_edge(e) for e in BARBARIAN_START])


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
