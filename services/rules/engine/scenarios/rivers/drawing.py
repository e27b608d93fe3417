"""The scenario's marks on a rendered board (`Module.drawing`, the text and SVG boards): the
bridge sites, open or bridged."""

from __future__ import annotations

from services.rules.engine.narration import Sketch
from services.rules.engine.scenarios.rivers.common import places
from services.rules.engine.state import State


def drawing(state: State, sketch: Sketch) -> None:
    """The bridge sites: "~" while open, "B" and the owner's id once bridged (the bridge itself
    is drawn as the owner's route piece; the 12's hex shows its 2 by itself)."""
    for e in sorted(places(state).bridge_sites):
        owner = state.edge_owner[e]
        sketch.mark("edge", e, "~" if owner < 0 else f"B{owner}")
