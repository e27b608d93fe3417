"""The scenario's marks on a rendered board (`Module.drawing`, the text and SVG boards): the
camels on their paths."""

from __future__ import annotations

from services.rules.engine.narration import Sketch
from services.rules.engine.scenarios.caravans.common import ext
from services.rules.engine.state import State


def drawing(state: State, sketch: Sketch) -> None:
    """A camel is a `C` on its path (one letter: the text board has room for no more)."""
    for edge in sorted(ext(state).camels):
        sketch.mark("edge", edge, "C")
