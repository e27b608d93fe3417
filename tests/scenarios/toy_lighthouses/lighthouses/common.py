"""The Lighthouses' names: rule ids, the module state and its typed key (step 2 of
docs/adding-a-scenario.md)."""

from __future__ import annotations

from typing import Final

from lighthouses.state import Beacons
from services.rules.engine.modstate import StateKey

NAME = "toy-lighthouses"
MAP = "lighthouse-isle"
TARGET = 11  # lighthouses.win.target
PER_VP = 2  # lighthouses.vp.beacons: beacons per victory point

# Rule ids and their one-line texts (a shipped module passes them to rules.register at import;
# the toy's test registers them for the test only, so that they never leak into other tests).
RULE_IDS: Final = {
    "lighthouses.beacon.coastal": (
        "Lighthouses: a settlement built on a coastal corner (set-up included) lights a beacon."),
    "lighthouses.vp.beacons": "Lighthouses: every 2 beacons a player has lit are worth 1 VP.",
    "lighthouses.win.target": "Lighthouses: the game is won with 11 VP.",
}


BEACONS: Final = StateKey(NAME, Beacons)
