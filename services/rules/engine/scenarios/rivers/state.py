"""The Rivers' module state: a Struct the engine copies, dumps and loads (modstate.py). In a
file of its own: a module defining a Struct stays Python in the compiled build."""

from __future__ import annotations

import msgspec

from services.rules.engine.state import MAIN


class RiversState(msgspec.Struct):
    """Public module state: gold, the turn's purchases, the places already paid in gold, and
    the neutral bridge owed (with Catan for Two: engine/combinations/rivers_catan_for_two.py).
    A Struct: copied, dumped and loaded by the engine from its fields (modstate.py)."""

    gold: list[int]
    bought: int = 0  # resources bought with gold this turn
    # roads and bridges that have earned their gold
    paid_edges: set[int] = msgspec.field(default_factory=set)
    paid_vertices: set[int] = msgspec.field(default_factory=set)  # settlements paid
    owed: bool = False  # a neutral bridge is owed (phase NEUTRAL_BRIDGE)
    resume: str = MAIN  # the phase after it
