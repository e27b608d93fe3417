"""The Lighthouses' module state (step 3 of docs/adding-a-scenario.md): Structs only."""

from __future__ import annotations

import msgspec


class Beacons(msgspec.Struct):
    """The module state: the corners where each seat lit a beacon, in the order lit."""

    lit: list[list[int]]
