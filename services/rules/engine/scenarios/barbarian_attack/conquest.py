"""Conquest (docs/rules/barbarian-attack.md §9.5), read from the board: a conquered hex
produces nothing and takes no road on its paths and no settlement on its corners; a building
whose land hexes are all conquered scores nothing (it still stands and blocks). Prisoners
score in pairs (§9.8). Harbor ratios are refreshed where barbarians move (common.py)."""

from __future__ import annotations

from services.rules.engine import hook_keys as hk
from services.rules.engine.hooks import Production
from services.rules.engine.scenarios.barbarian_attack.common import (
    FULL,
    attack,
    building_conquered,
    geometry,
)
from services.rules.engine.state import Rules, State


def wrap_production(previous: Production[State]) -> Production[State]:
    """Take back what conquered hexes would have produced (barbarian_attack.conquest.production)."""

    def production(state: State, total: int) -> list[list[int]]:
        gains = previous(state, total)
        board = state.board
        barbarians = attack(state).barbarians
        owner = state.vertex_owner
        level = state.vertex_level
        for h in board.number_hexes.get(total, ()):
            r = board.hex_resource[h]
            if barbarians[h] < FULL or r < 0:
                continue
            for v in board.topo.hex_vertices[h]:
                o = owner[v]
                if 0 <= o < state.n:
                    gains[o][r] = max(0, gains[o][r] - level[v])
        return gains

    return production


def road_blocked(state: State, seat: int, edge: int) -> str | None:
    barbarians = attack(state).barbarians
    for h in geometry(state.board).edge_coastal[edge]:
        if barbarians[h] >= FULL:
            return "barbarian_attack.conquest.road"
    return None


def settlement_blocked(state: State, seat: int, vertex: int) -> str | None:
    barbarians = attack(state).barbarians
    for h in state.board.topo.vertex_land_hexes[vertex]:
        if barbarians[h] >= FULL:
            return "barbarian_attack.conquest.settlement"
    return None


def vp_bonus(state: State, seat: int, public: bool) -> int:
    """Pairs of prisoners, less the points of conquered buildings (all public)."""
    p = state.players[seat]
    lost = sum(1 for v in p.settlements if building_conquered(state, v))
    lost += sum(2 for v in p.cities if building_conquered(state, v))
    return attack(state).prisoners[seat] // 2 - lost


def install(rules: Rules) -> None:
    rules.wrap_hook(hk.PRODUCTION, wrap_production)
    rules.add_hook(hk.ROAD_BLOCKED, road_blocked)
    rules.add_hook(hk.SETTLEMENT_BLOCKED, settlement_blocked)
    rules.add_hook(hk.VP_BONUS, vp_bonus)
