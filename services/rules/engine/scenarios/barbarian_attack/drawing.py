"""The scenario's marks on a rendered board (`Module.drawing`, the text and SVG boards): the
castle, the barbarians landed on each coast, each knight and the foreign knight."""

from __future__ import annotations

from services.rules.engine.narration import Sketch
from services.rules.engine.scenarios.barbarian_attack.common import attack, geometry
from services.rules.engine.state import State


def drawing(state: State, sketch: Sketch) -> None:
    a = attack(state)
    g = geometry(state.board)
    sketch.mark("hex", g.castle, "castle")
    for h in g.coastal:
        if a.barbarians[h]:
            sketch.mark("hex", h, f"B{a.barbarians[h]}" + ("!" if a.barbarians[h] >= 3 else ""))
    for p in state.players[: state.n]:
        for e in sorted(p.pieces.get("knight", ())):
            sketch.mark("edge", e, f"K{p.seat}")
    if a.foreign >= 0:
        sketch.mark("edge", a.foreign, "KF")
