"""Scenario: The Caravans (docs/rules/caravans.md §8). 2–4 seats, 12 VP.

An oasis replaces the desert at the centre; camels leave it along three caravans. A turn in
which the active player built ends with a camel vote (vote.py: public bids of wool and grain in
seat order, sealed choices of placement, revealed together); a road beside a camel counts 2 for
Longest Road (the `route_weight` hook) and a building touched by two camels is worth a point
more (`vp_bonus`). The robber starts off the board and never stands on the oasis.

Design notes:
- Camels belong to nobody, so they are module state (`state.ext["caravans"]`, common.py), not a
  seat's pieces; placing one recomputes every route length (camels.py).
- Combinations (docs/rules/combinations.md §13.3): the variants' "robber to the desert" places
  become "off the board" on a map whose robber starts off it (base/turn.py `robber_refuges`),
  which covers Friendly Robber, Event Cards' Robber Flees and Catan for Two's token action;
  Catan for Two's two camels per vote are in vote.py (read from the installed module's marker,
  so the order of the modules does not matter).
"""

from __future__ import annotations

from events.caravans import CamelPathNamed
from events.events import GameCreated
from services.rules.engine.ruleset import Module
from services.rules.engine.scenarios.caravans import scoring, vote
from services.rules.engine.scenarios.caravans.advice import ADVICE
from services.rules.engine.scenarios.caravans.common import (
    ARROWS,
    BID,
    CARAVANS,
    NAME,
    NAME_PATH,
    SECOND,
)
from services.rules.engine.scenarios.caravans.drawing import drawing
from services.rules.engine.scenarios.caravans.narration import NARRATION
from services.rules.engine.scenarios.caravans.state import CaravanState
from services.rules.engine.scenarios.caravans.view import redact_named, view_ext
from services.rules.engine.state import Rules, State

__all__ = ["MODULE", "Caravans"]


def init(state: State, created: GameCreated) -> CaravanState:
    return CaravanState(caravans=[None] * ARROWS, started=[False] * ARROWS)


class Caravans(Module[State, None]):
    name = NAME
    kind = "scenario"
    title = "The Caravans"
    description = ("The Caravans: camels leave the central oasis; each turn with a build ends "
                   "with a wool-and-grain vote on the next camel; 12 VP.")
    seats = (2, 3, 4)
    map = "caravans"
    maps = "services.rules.engine.scenarios.caravans.maps"
    advice = ADVICE
    narration = NARRATION
    stages = {
        BID: "a camel vote: this seat's one open bid of wool and grain (each seat in turn, "
             "from the builder)",
        NAME_PATH: "a camel vote: where this voter wants the camel (caravan and path), sealed "
                   "until every voter has named one",
        SECOND: "with Catan for Two: where the vote's second camel goes, in another caravan",
    }
    drawing = staticmethod(drawing)

    def install(self, rules: Rules, params: None) -> None:
        rules.vocab.add_terrain("oasis")  # caravans.board.oasis: land, produces nothing
        rules.module_state(CARAVANS, init, view=view_ext)
        rules.redact(CamelPathNamed, redact_named)
        scoring.install(rules)
        vote.install(rules)


MODULE = Caravans()
