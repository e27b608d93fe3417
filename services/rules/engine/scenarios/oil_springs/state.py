"""Oil Springs' module state: a Struct the engine copies, dumps and loads (modstate.py). In a
file of its own: a module defining a Struct stays Python in the compiled build."""

from __future__ import annotations

import msgspec

from services.rules.engine.state import NO_ONE


class OilState(msgspec.Struct):
    """Public module state. The oil supply is the bank's oil entry; oil in hands is the
    hands' oil entry (vocab index `oil`). The springs are the board's (common.springs)."""

    oil: int  # the resource index of oil
    mode: str  # the game's oil_mode: "starting" or "wide_open"
    sequestered: list[int]  # per seat
    marker: int = 0  # the disaster marker, 0..5
    removed: int = 0  # oil out of the game (polluted springs)
    champion: int = NO_ONE
    # Hexes whose token is on the track, in order.
    destroyed: list[int] = msgspec.field(default_factory=list)
    metropolises: dict[int, int] = msgspec.field(default_factory=dict)  # vertex -> owner
    used: bool = False  # oil used this turn
    sequestered_now: bool = False  # oil sequestered this turn
    disasters: int = 0  # disaster rolls so far (chance index)
    pollutions: int = 0  # pollution hex draws so far (chance index)
