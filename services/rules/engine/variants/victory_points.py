"""Table option: play to a different number of victory points (the base game plays to 10).

The smallest possible module, and the proof of the extension points: a parameter struct with
a default, and one wrapped hook. The base rules never learn that it exists.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from services.rules.engine import hook_keys as hk
from services.rules.engine.ruleset import Module
from services.rules.engine.state import Rules, State


class VictoryPointsParams(msgspec.Struct, forbid_unknown_fields=True):
    target: int = 10

    def __post_init__(self) -> None:
        if not 3 <= self.target <= 30:
            raise ValueError("victory-points: target must be between 3 and 30")


class VictoryPoints(Module[State, VictoryPointsParams]):
    name = "victory-points"
    title = "Victory Points"
    doc = "table.md"
    description = "Play to another number of victory points (target=N, default 10)."
    Params = VictoryPointsParams

    def install(self, rules: Rules, params: VictoryPointsParams) -> None:
        target = params.target
        previous: Callable[[State, int], int] = rules.hook(hk.WIN_TARGET)

        # Replace the base target but keep what other modules add on top (e.g. +1).
        def win_target(state: State, seat: int) -> int:
            return previous(state, seat) - state.vp_target + target

        rules.set_hook(hk.WIN_TARGET, win_target, wraps=True)


MODULE = VictoryPoints()
