"""Helpers for the Barbarian Attack tests: a table on the scenario's fixed layout with an empty
board (set-up skipped), places by hex and corner/side index, barbarians and knights put down.

Fixed layout (maps/barbarian-attack.toml): castle (-2,2), desert (2,-2); the east coast
(1,-2) 9, (2,-1) 10, (2,0) 6, (1,1) 5, (0,2) 12. Corners of a hex run clockwise from the north
(0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW); sides clockwise from the north-east (0 NE … 5 NW).
"""

from __future__ import annotations

from events.events import ModuleSpec
from services.rules.engine import pieces
from services.rules.engine.geometry import Hex
from services.rules.engine.scenarios.barbarian_attack.common import (
    AttackState,
    attack,
    refresh_harbors,
)
from services.rules.engine.state import MAIN
from services.rules.engine.testing import Table

SPEC = ModuleSpec(name="barbarian-attack")


def table(seats: int = 3, setup: bool = False, seed: bytes = b"table",
          more: tuple[ModuleSpec, ...] = ()) -> Table:
    """A table on the fixed layout; without set-up: an empty board, seat 0's turn, rolled."""
    t = Table(seats=seats, modules=[SPEC, *more], setup=setup, seed=seed)
    if not setup:
        s = t.state
        s.setup_pos = len(s.setup_order)
        s.turn = 1
        t.turn_of(0, rolled=True)
    return t


def ext(t: Table) -> AttackState:
    return attack(t.state)


def hx(t: Table, h: Hex) -> int:
    return t.state.board.hex_id(h)


def side(t: Table, h: Hex, i: int) -> int:
    return t.state.board.topo.hex_edges[hx(t, h)][i]


def corner(t: Table, h: Hex, i: int) -> int:
    return t.state.board.topo.hex_vertices[hx(t, h)][i]


def barbarians(t: Table, counts: dict[Hex, int]) -> None:
    """Put exactly these barbarians on the board (the rest in the supply)."""
    a = ext(t)
    total = sum(a.barbarians) + a.supply
    a.barbarians = [0] * len(a.barbarians)
    for h, n in counts.items():
        a.barbarians[hx(t, h)] = n
    a.supply = total - sum(counts.values())
    refresh_harbors(t.state)


def knight(t: Table, seat: int, edge: int) -> None:
    pieces.place(t.state, seat, "knight", edge)
    t.state.players[seat].knights += 1  # knights in play


def knights(t: Table, seat: int) -> set[int]:
    return set(t.state.players[seat].pieces.get("knight", set()))


def in_main(t: Table, seat: int = 0) -> None:
    t.turn_of(seat, rolled=True)
    assert t.state.phase == MAIN
