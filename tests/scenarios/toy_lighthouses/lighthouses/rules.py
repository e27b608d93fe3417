"""The Lighthouses' rules (docs: lighthouses.md beside this package)."""

from __future__ import annotations

from collections.abc import Callable

from events.events import GameCreated, SettlementBuilt
from lighthouses.common import BEACONS, PER_VP
from lighthouses.state import Beacons
from services.rules.engine.state import State


def init(state: State, created: GameCreated) -> Beacons:
    return Beacons(lit=[[] for _ in range(state.n)])


def lighting(
    previous: Callable[[State, SettlementBuilt], None],
) -> Callable[[State, SettlementBuilt], None]:
    """lighthouses.beacon.coastal: the base evolver of SettlementBuilt, then the beacon."""

    def evolve_settlement(state: State, e: SettlementBuilt) -> None:
        previous(state, e)
        if state.board.topo.vertex_is_coastal[e.vertex]:
            BEACONS.of(state).lit[e.seat].append(e.vertex)

    return evolve_settlement


def beacon_vp(state: State, seat: int, public: bool) -> int:
    """lighthouses.vp.beacons: 1 VP per 2 beacons (public: the beacons are on the board)."""
    if seat >= len(BEACONS.of(state).lit):
        return 0  # a board-only owner (Catan for Two's neutrals)
    return len(BEACONS.of(state).lit[seat]) // PER_VP
