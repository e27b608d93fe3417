"""The scenario's pieces on a rendered board (`Module.drawing`, the text and SVG boards): each
barbarian as X on its path, each wagon as @ and its seat at its vertex (with the first letter of
the commodity it carries), each trade hex with the tokens left in its stack."""

from __future__ import annotations

from services.rules.engine.narration import Sketch
from services.rules.engine.scenarios.traders_and_barbarians.common import EXT, places
from services.rules.engine.state import State


def draw(state: State, sketch: Sketch) -> None:
    t = state.ext.get(EXT)
    if t is None:
        return
    for e in t.barbarians:
        sketch.mark("edge", e, "X")
    for seat, v in enumerate(t.wagon):
        if v >= 0:
            cargo = t.cargo[seat][:1]
            sketch.mark("vertex", v, f"@{seat}{cargo}")
    for h, stack in zip(places(state.board).trade_hexes, t.stacks, strict=True):
        sketch.mark("hex", h, f"{sum(stack)} left")
