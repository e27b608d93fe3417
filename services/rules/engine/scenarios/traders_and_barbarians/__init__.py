"""Scenario: Traders & Barbarians (docs/rules/traders-and-barbarians.md §10).

Three trade hexes (castle, marble quarry, glassworks) with a plaza at their centre joined to
their land corners by spoke paths (the map file `maps/traders-and-barbarians.toml`). Each seat
drives a wagon between the plazas, paying MP per path and gold tolls on other seats' roads,
delivers commodities for a point and gold, upgrades its wagon card, and fights three barbarians
standing on paths; a 7 and a Knight move a barbarian instead of a robber (there is none). Play
to 13 VP. Settlement, then city in set-up; no Longest Road; gold buys and sells resources.

Layout of the package: `data` (the fixed numbers, wagon.toml, the rule ids), `common` (the
scenario state, its phases, the board's trade places), `board` (placement limits), `wagon`,
`barbarians`, `gold`, `cards` (the deck, Swift Journey), `prompts`, `install` (the hooks),
`advice`, `narration`, `drawing`.
"""

from __future__ import annotations

from services.rules.engine.ruleset import Module
from services.rules.engine.scenarios.traders_and_barbarians import install as rules_install
from services.rules.engine.scenarios.traders_and_barbarians.advice import ADVICE
from services.rules.engine.scenarios.traders_and_barbarians.common import BARBARIAN, WAGON
from services.rules.engine.scenarios.traders_and_barbarians.data import NAME
from services.rules.engine.scenarios.traders_and_barbarians.drawing import draw
from services.rules.engine.scenarios.traders_and_barbarians.narration import NARRATION
from services.rules.engine.state import Rules, State

NO_ROBBER = ("there is no robber in Traders & Barbarians (combinations.md §13.3): the three "
             "barbarians take its place")


class TradersAndBarbarians(Module[State, None]):
    name = NAME
    kind = "scenario"
    title = "Traders & Barbarians"
    description = ("Wagons carry commodities between a castle, a quarry and a glassworks; "
                   "tolls, gold, barbarians on paths; 13 VP.")
    seats = (2, 3, 4)
    map = NAME
    maps = "services.rules.engine.scenarios.traders_and_barbarians.maps"
    advice = ADVICE
    narration = NARRATION
    stages = {
        WAGON: "the wagon part of the turn, after building and trading: move the wagon, pay "
               "for more movement, drive off a barbarian, play a Knight, or end the turn",
        BARBARIAN: "where a barbarian goes: to a path without one (after a 7, a Knight, or a "
                   "barbarian driven off)",
    }
    conflicts = {"friendly-robber": NO_ROBBER}

    def __init__(self) -> None:
        self.drawing = draw  # an instance attribute: called as a plain function

    def install(self, rules: Rules, params: None) -> None:
        rules_install.install(rules, params)


SCENARIO = TradersAndBarbarians()
MODULE = SCENARIO
