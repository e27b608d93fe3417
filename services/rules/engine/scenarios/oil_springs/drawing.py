"""Oil Springs on a rendered board: springs, metropolises, destroyed hexes and the marker."""

from __future__ import annotations

from services.rules.engine.narration import Sketch
from services.rules.engine.scenarios.oil_springs.common import oil_state
from services.rules.engine.state import State


def draw(state: State, sketch: Sketch) -> None:
    ext = oil_state(state)
    for h in ext.springs:
        sketch.mark("hex", h, "oil")
    for v in ext.metropolises:
        sketch.mark("vertex", v, "M")
    for i, h in enumerate(ext.destroyed):
        sketch.mark("hex", h, f"X{i + 1}")
    if ext.springs:
        sketch.mark("hex", ext.springs[0], f"disaster {ext.marker}/5")
