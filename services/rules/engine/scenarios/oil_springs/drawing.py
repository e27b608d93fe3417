"""Oil Springs on a rendered board: springs (the first carries the disaster marker, since a mark
per place is what a renderer shows), metropolises and destroyed hexes in track order."""

from __future__ import annotations

from services.rules.engine.narration import Sketch
from services.rules.engine.scenarios.oil_springs.common import MARKER_MAX, oil_state, springs
from services.rules.engine.state import State


def draw(state: State, sketch: Sketch) -> None:
    ext = oil_state(state)
    for i, h in enumerate(springs(state)):
        sketch.mark("hex", h, f"oil · disaster {ext.marker}/{MARKER_MAX}" if i == 0 else "oil")
    for v in ext.metropolises:
        sketch.mark("vertex", v, "M")
    for i, h in enumerate(ext.destroyed):
        sketch.mark("hex", h, f"X{i + 1}")
