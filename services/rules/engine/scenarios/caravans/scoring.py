"""Camels in the score and the robber (docs/rules/caravans.md §8.3, §8.7, §8.8)."""

from __future__ import annotations

from services.rules.engine import hook_keys as hk
from services.rules.engine.scenarios.caravans import camels
from services.rules.engine.scenarios.caravans.common import WIN_TARGET, ext
from services.rules.engine.state import Rules, State


def route_weight(state: State, seat: int, edge: int) -> int:
    """caravans.road.camel_double: a road sharing its path with a camel counts 2."""
    return 2 if edge in ext(state).camels else 1


def between_camels(state: State, seat: int, public: bool) -> int:
    """caravans.vp.between_camels: +1 per building on a vertex two or more camels touch."""
    doubles = ext(state).doubles
    if not doubles:
        return 0
    p = state.players[seat]
    return len(doubles & p.settlements) + len(doubles & p.cities)


def install(rules: Rules) -> None:
    rules.set_hook(hk.ROUTE_WEIGHT, route_weight)
    rules.add_hook(hk.VP_BONUS, between_camels)
    # caravans.win.target: the base number becomes 12; the victory-points option replaces it
    # and Harbormaster adds its 1 on top, as for any target.
    rules.settings(target=WIN_TARGET)
    previous = rules.hook(hk.ROBBER_HEXES)

    def robber_hexes(state: State, seat: int) -> list[int]:
        """caravans.robber.not_oasis (the robber enters from off the board on the first 7 or
        Knight: the base offers every land hex but the one it stands on)."""
        oasis = camels.geometry(state.board).oasis
        return [h for h in previous(state, seat) if h != oasis]

    def refusal(state: State, seat: int, h: int, victim: int | None) -> str | None:
        if victim is None and h == camels.geometry(state.board).oasis:
            return "caravans.robber.not_oasis"
        return None

    rules.set_hook(hk.ROBBER_HEXES, robber_hexes, wraps=True)
    rules.add_hook(hk.ROBBER_REFUSAL, refusal)
