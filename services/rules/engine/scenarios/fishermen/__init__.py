"""Scenario: The Fishermen of Catan (docs/rules/fishermen.md §6).

A lake in the desert's place and six fishing grounds on the frame bring fish tokens, which buy
small favours (the robber off the board, a steal, a resource, a road, a development card); the
old boot among them raises its holder's target by one.

Design notes:
- The board: the map `fishermen` (maps/) lays the lake like the desert (no token, numbers
  2, 3, 11, 12 from `terrain_numbers`, robber off the board); `create` keeps the lake inland
  and shuffles the grounds' numbers (waters.py), recorded in `GameCreated`.
- Fish live in `state.ext["fishermen"]` (`FishState`): counts by kind (boot, 1, 2, 3) in the
  supply, the spent pile and each hand. A draw is the chance point `fish:<n>` weighted by the
  supply; no order exists anywhere, so none can leak. Token values in a hand are private
  (view.py); spent tokens and the boot are public.
- Hooks: `resolve_number` is wrapped (fish after a number's resources; Event Cards' Robber
  Flees first), `PlaceSettlement` (set-up fishing), `win_target` (+1 for the boot), the robber
  stage (a robber with no legal hex leaves the board), `extra_options` (fish actions, the boot).
- With Catan for Two (fish replace the trade tokens, the start fish, the discount) and with
  Event Cards (Robber Flees takes the robber off the board), the pair's rules live in
  engine/combinations/; the order of `--variant` flags never matters.
"""

from __future__ import annotations

from typing import Any

from events.events import GameCreated
from events.fishermen import FishDrawn
from services.rules.engine.chance import Dealer
from services.rules.engine.mapdata import load_map
from services.rules.engine.ruleset import Module
from services.rules.engine.scenarios.fishermen import actions, boot, robber, tokens
from services.rules.engine.scenarios.fishermen.advice import ADVICE
from services.rules.engine.scenarios.fishermen.common import (
    EXT,
    FISH,
    LAKE,
    MAP,
    NAME,
    RETURN,
    fish,
    starting_fish,
)
from services.rules.engine.scenarios.fishermen.drawing import drawing
from services.rules.engine.scenarios.fishermen.narration import NARRATION
from services.rules.engine.scenarios.fishermen.state import FishState
from services.rules.engine.scenarios.fishermen.view import redact_drawn, referee_ext, view_ext
from services.rules.engine.scenarios.fishermen.waters import grounds, keep_lake_inland, lay_grounds
from services.rules.engine.state import Rules, State

MAPS = __name__ + ".maps"

__all__ = ["EXT", "MODULE", "FishState", "fish"]


def init(state: State, created: GameCreated) -> FishState:
    return starting_fish(grounds(state, created), state.n)


class Fishermen(Module[State, None]):
    name = NAME
    kind = "scenario"
    title = "The Fishermen of Catan"
    description = ("The Fishermen of Catan: a lake and six fishing grounds bring fish tokens "
                   "that buy small favours; the old boot raises its holder's target by one.")
    seats = (2, 3, 4)
    map = MAP
    maps = MAPS
    advice = ADVICE
    narration = NARRATION
    stages = {RETURN: "which fish tokens a seat above the limit of 7 gives back (its excess)"}
    drawing = staticmethod(drawing)

    def create(self, created: dict[str, Any], params: None, dealer: Dealer) -> None:
        m = load_map(created["map"], (MAPS,)) if created["map"] == MAP else None
        if m is None:
            return
        keep_lake_inland(created, m, dealer)
        lay_grounds(created, m, dealer)

    def install(self, rules: Rules, params: None) -> None:
        rules.vocab.add_terrain(LAKE)  # land that yields no resource (fish: tokens.py)
        rules.module_state(FISH, init, view=view_ext, referee=referee_ext)
        tokens.install(rules)
        actions.install(rules)
        boot.install(rules)
        robber.install(rules)
        rules.redact(FishDrawn, redact_drawn)


MODULE = Fishermen()
