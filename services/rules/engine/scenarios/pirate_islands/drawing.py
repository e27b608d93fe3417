"""The scenario's marks on a rendered board (`Module.drawing`, the text and SVG boards): the
pirate fleet, each fortress with its strength, each seat's site, ships and warships."""

from __future__ import annotations

from services.rules.engine.narration import Sketch
from services.rules.engine.scenarios.pirate_islands.common import pirate, places
from services.rules.engine.state import State


def drawing(state: State, sketch: Sketch) -> None:
    """The fleet on its hex, each fortress with its strength, each marked site, warships."""
    ps = pirate(state)
    pl = places(state.board)
    if ps.fleet >= 0:
        sketch.mark("hex", pl.loop[ps.fleet], "FLEET")
    for s in range(state.n):
        sp = pl.slots[s]
        if ps.strength[s] > 0:
            sketch.mark("vertex", sp.fortress, f"F{s}:{ps.strength[s]}")
        if state.vertex_owner[sp.site] < 0:
            sketch.mark("vertex", sp.site, f"site{s}")
        route = ps.routes[s]
        for i, e in enumerate(route):
            sketch.mark("edge", e, f"W{s}" if i < ps.warships[s] else f"s{s}")
