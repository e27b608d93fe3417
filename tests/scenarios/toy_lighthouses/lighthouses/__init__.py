"""Scenario (a toy, for the tests): the Lighthouses. 3-4 seats, 11 VP. A settlement on the coast
lights a beacon; every 2 beacons are worth 1 VP. Built by following docs/adding-a-scenario.md
step by step; it adds no command or event of its own, so it has no wire file and no
narration (the base narrates every event it causes)."""

from __future__ import annotations

from events.events import SettlementBuilt
from lighthouses.advice import ADVICE
from lighthouses.common import BEACONS, MAP, NAME, TARGET
from lighthouses.drawing import draw_beacons
from lighthouses.rules import beacon_vp, init, lighting
from lighthouses.view import view_beacons
from services.rules.engine import hook_keys as hk
from services.rules.engine.ruleset import Module
from services.rules.engine.state import Rules, State


class Lighthouses(Module[State, None]):  # no parameters
    name = NAME
    kind = "scenario"
    title = "The Lighthouses"
    doc = "lighthouses.md"  # beside this package (a shipped module's is in docs/rules/)
    description = "A toy: settlements on the coast light beacons, 2 beacons are 1 VP (11 VP)."
    seats = (3, 4)
    map = MAP
    maps = "lighthouses.maps"
    advice = ADVICE
    drawing = staticmethod(draw_beacons)  # a plain function, not a method

    def install(self, rules: Rules, params: None) -> None:
        rules.module_state(BEACONS, init, view=view_beacons)
        rules.wrap_evolver(SettlementBuilt, lighting)
        rules.add_hook(hk.VP_BONUS, beacon_vp)
        rules.settings(target=TARGET)


MODULE = Lighthouses()
