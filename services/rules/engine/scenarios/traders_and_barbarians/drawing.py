"""The scenario's pieces on a rendered board (`Module.drawing`, the text and SVG boards): each
barbarian as X on its path, each wagon as @ and its seat at its vertex (with the first letter of
the commodity it carries), each trade hex with the tokens left in its stack and the wagons
standing on its plaza (a hex's centre has no corner position of its own on the boards)."""

from __future__ import annotations

from services.rules.engine.narration import Sketch
from services.rules.engine.scenarios.traders_and_barbarians.common import EXT, places
from services.rules.engine.state import State


def draw(state: State, sketch: Sketch) -> None:
    t = state.ext.get(EXT)
    if t is None:
        return
    at = places(state.board)
    for e in t.barbarians:
        sketch.mark("edge", e, "X")
    wagons = {f"@{seat}{t.cargo[seat][:1]}": v for seat, v in enumerate(t.wagon) if v >= 0}
    for text, v in wagons.items():
        if v not in at.plaza_of:
            sketch.mark("vertex", v, text)
    for h, plaza, stack in zip(at.trade_hexes, at.plazas, t.stacks, strict=True):
        here = " ".join(text for text, v in wagons.items() if v == plaza)
        sketch.mark("hex", h, f"{sum(stack)} left" + (f" {here}" if here else ""))
