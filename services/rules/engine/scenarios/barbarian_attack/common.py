"""Barbarian Attack's constants, board geometry, public state and the conquest test.

Conquest is never stored: a coastal hex holding three barbarians is conquered, and so is a
building whose every land hex is conquered (docs/rules/barbarian-attack.md §9.5).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final, Protocol

from events.barbarian_attack import FOREIGN, CoastalBattleWon
from events.events import Event
from services.rules.engine.board import Board
from services.rules.engine.geometry import Hex
from services.rules.engine.modstate import StateKey
from services.rules.engine.ruleset import Capability
from services.rules.engine.scenarios.barbarian_attack.state import AttackState
from services.rules.engine.state import State

EXT = "barbarian-attack"
CARD = "barbarian_attack.card"  # phase: the bought card's effect is being carried out
STEAL = "barbarian_attack.steal"  # phase: after a 7's discards, the active seat picks a victim

BARBARIANS = 30
KNIGHTS = 6
FULL = 3  # barbarians that conquer a hex
CASTLE: Hex = (-2, 2)
STARTS: tuple[Hex, ...] = ((-2, 0), (0, 2))  # the 2 and the 12 hex (§9.3)
# The end-of-turn check, clockwise from the castle's left (§9.8).
BATTLE_ORDER: tuple[Hex, ...] = (
    (-2, 1), (-2, 0), (-1, -1), (0, -2), (1, -2), (2, -1), (2, 0), (1, 1), (0, 2), (-1, 2),
)
DECK = (14, 4, 4, 4)  # knighthood, swift knight, treason, intrigue (§9.6)
KNIGHTHOOD, SWIFT_KNIGHT, TREASON, INTRIGUE = range(4)
MOVE_RANGE = 3
BOOST_RANGE = 5
GOLD_PER_RESOURCE = 2
GOLD_BUYS = 2
COMPENSATION = 3
LOSS_GOLD = 3
TREASON_GOLD = 2
TARGET = 12
# The colour die: face -> the two side indices (README.md §0.1) whose knights are lost.
LOSS_SIDES: dict[int, tuple[int, int]] = {1: (1, 4), 4: (1, 4), 2: (0, 3), 5: (0, 3),
                                         3: (2, 5), 6: (2, 5)}


class Geometry:
    """What the rules read of this map, by board id: coastal hexes (in the battle order and
    by number), the castle and its paths, and the land paths with their neighbours."""

    def __init__(self, board: Board) -> None:
        topo = board.topo
        self.coastal: tuple[int, ...] = tuple(topo.hex_index[h] for h in BATTLE_ORDER)
        self.coastal_set = frozenset(self.coastal)
        self.by_number: dict[int, int] = {board.hex_number[h]: h for h in self.coastal}
        self.castle = topo.hex_index[CASTLE]
        self.castle_edges = frozenset(topo.hex_edges[self.castle])
        self.land_edges: tuple[int, ...] = topo.land_edges
        land = set(topo.land_edges)
        self.edge_links: tuple[tuple[int, ...], ...] = tuple(
            tuple(sorted({f for v in topo.edge_vertices[e] for f in topo.vertex_edges[v]
                          if f != e and f in land})) if e in land else ()
            for e in range(topo.n_edges)
        )
        # The coastal hexes each path borders (a knight there fights for them).
        self.edge_coastal: tuple[tuple[int, ...], ...] = tuple(
            tuple(h for h in self.coastal if e in topo.hex_edges[h]) for e in range(topo.n_edges)
        )


@lru_cache(maxsize=64)
def geometry(board: Board) -> Geometry:
    return Geometry(board)


def attack(state: State) -> AttackState:
    ext: AttackState = state.ext[EXT]
    return ext


def conquered(state: State, h: int) -> bool:
    return attack(state).barbarians[h] >= FULL


def building_conquered(state: State, v: int) -> bool:
    """Every land hex of the building's vertex is conquered (a conquered hex is coastal)."""
    barbarians = attack(state).barbarians
    hexes = state.board.topo.vertex_land_hexes[v]
    return bool(hexes) and all(barbarians[h] >= FULL for h in hexes)


def on_board(state: State) -> int:
    return sum(attack(state).barbarians)


def knights_of(state: State, seat: int) -> set[int]:
    return state.players[seat].pieces.get("knight", set())


def knight_owner(state: State) -> dict[int, int]:
    """Every knight on the board: path -> seat (`FOREIGN` for Catan for Two's foreign knight)."""
    owner = {e: p.seat for p in state.players[: state.n] for e in p.pieces.get("knight", ())}
    foreign = attack(state).foreign
    if foreign >= 0:
        owner[foreign] = FOREIGN
    return owner


class LostKnightPay(Protocol):
    """What a knight lost in battle pays beyond the usual 3 gold, as the rule of a pair says
    (with Catan for Two: 2 gold and a trade token, §9.12)."""

    gold: int  # gold per knight lost

    def extra(self, state: State, e: CoastalBattleWon) -> list[Event]:
        """What the battle's losses add after it (the trade tokens)."""


# Provided by engine/combinations/barbarian_attack_catan_for_two.py.
LOST_KNIGHT_PAY: Capability[LostKnightPay] = Capability("barbarian attack: a lost knight's pay")


def refresh_harbors(state: State) -> None:
    """Harbor ratios from the buildings that are not conquered (§9.5): after any change of
    barbarians or buildings."""
    harbor = state.board.vertex_harbor
    vocab = state.rules.vocab
    for p in state.players[: state.n]:
        ratios = [4] * len(p.ratios)
        for v in (*p.settlements, *p.cities):
            kind = harbor[v]
            if kind is None or building_conquered(state, v):
                continue
            if kind == "3:1":
                ratios = [min(r, 3) for r in ratios]
            else:
                ratios[vocab.resource_index[kind]] = 2
        p.ratios = ratios


def free_paths(state: State, edges: frozenset[int] | tuple[int, ...]) -> list[int]:
    taken = knight_owner(state)
    return sorted(e for e in edges if e not in taken)


def opponents_with_cards(state: State, seat: int) -> list[int]:
    return [p.seat for p in state.players[: state.n] if p.seat != seat and p.cards > 0]


ATTACK: Final = StateKey(EXT, AttackState)  # the module's state (modstate.py)
