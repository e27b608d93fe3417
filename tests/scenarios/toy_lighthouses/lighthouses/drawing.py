"""The Lighthouses on a rendered board: a beacon mark on each lit corner."""

from __future__ import annotations

from lighthouses.common import BEACONS
from services.rules.engine.narration import Sketch
from services.rules.engine.state import State


def draw_beacons(state: State, sketch: Sketch) -> None:
    for beacons in BEACONS.of(state).lit:
        for vertex in beacons:
            sketch.mark("vertex", vertex, "B")
