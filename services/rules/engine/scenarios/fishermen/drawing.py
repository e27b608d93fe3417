"""The scenario's marks on a rendered board (`Module.drawing`, the text and SVG boards): the
fishing grounds with their numbers, the lake, the old boot."""

from __future__ import annotations

from services.rules.engine.narration import Sketch
from services.rules.engine.scenarios.fishermen.common import fish
from services.rules.engine.scenarios.fishermen.waters import waters
from services.rules.engine.state import NO_ONE, State


def drawing(state: State, sketch: Sketch) -> None:
    """The grounds and their numbers on the sea, the lake, the boot at a building of its holder."""
    f = fish(state)
    w = waters(state)
    for h, n, _ in w.grounds:
        sketch.mark("hex", h, f"fish {n}")
    if w.lake != NO_ONE:
        sketch.mark("hex", w.lake, "lake")
    if f.boot != NO_ONE:
        for v in sorted(state.players[f.boot].settlements | state.players[f.boot].cities)[:1]:
            sketch.mark("vertex", v, "boot")
