"""Scenario: Oil Springs (docs/rules/oil-springs.md §12). 3–4 seats, 12 VP.

Oil is a sixth resource (vocabulary: bank 15 = the supply, hand limit 4) produced by three oil
springs on the beginner island. It is refined into resources or builds metropolises, each unit
moving the disaster marker; a turn that ends with the marker at 5 brings a flood or industrial
pollution. Oil may instead be sequestered for VP and the Champion of the Environment.

Design notes:
- The `oil_spring` terrain yields no base resource, so the base's production, set-up resources
  and random robbery never see oil; `production.py` pays a number's oil in rounds and records
  it in `OilProduced` (§12.3's round-robin is oil's own).
- Oil is a resource of the vocabulary: it travels in the base commands and events, and this
  module only changes what the base does with it (robbery.py: the thief's `take`; cards.py:
  the limit on Year of Plenty, Monopoly's rounds; trade.py: the limit in trades, no maritime
  trade).
- A metropolis is a token on a city: the city piece stays (it counts for the 4 cities and its
  2 VP), the vertex's production level becomes 3 and the token adds 1 VP.
- Oil held is public (§12.3): every seat's oil is in the view (`ext["oil-springs"]`).
- Module state (`OilState`, public): the marker, sequestered oil, oil removed from the game,
  the Champion, destroyed hexes (in track order), metropolises and the turn's flags.
"""

from __future__ import annotations

import msgspec

from events.events import GameCreated
from services.rules.engine import hook_keys as hk
from services.rules.engine.ruleset import Module
from services.rules.engine.scenarios.oil_springs import (
    cards,
    disaster,
    production,
    robbery,
    trade,
    using,
)
from services.rules.engine.scenarios.oil_springs.advice import ADVICE
from services.rules.engine.scenarios.oil_springs.common import (
    EXT,
    HAND_LIMIT,
    NAME,
    OIL,
    OIL_STATE,
    SPRING,
    STARTING,
    SUPPLY,
    WIDE_OPEN,
    oil_state,
)
from services.rules.engine.scenarios.oil_springs.disaster import ABANDONED
from services.rules.engine.scenarios.oil_springs.drawing import draw
from services.rules.engine.scenarios.oil_springs.narration import NARRATION
from services.rules.engine.scenarios.oil_springs.state import OilState
from services.rules.engine.scenarios.oil_springs.view import view_ext
from services.rules.engine.state import NO_ONE, Rules, State

__all__ = ["EXT", "MODULE", "NAME", "OilMode", "OilSprings", "OilState"]


class OilMode(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """`oil_mode`: "starting" (a turn uses oil or sequesters, not both) or "wide_open"."""

    oil_mode: str = STARTING

    def __post_init__(self) -> None:
        if self.oil_mode not in (STARTING, WIDE_OPEN):
            raise ValueError(f"oil_mode must be {STARTING!r} or {WIDE_OPEN!r}, not {self.oil_mode!r}")


def abandoned(state: State) -> str:
    """Why a game ended by disaster: nobody wins; the Champion is named."""
    champion = oil_state(state).champion
    who = "nobody" if champion == NO_ONE else f"seat {champion}"
    return (f"no winner: the island was abandoned after its disasters (Champion of the "
            f"environment: {who})")


def off_the_board(state: State) -> int | None:
    """Where "to the desert" sends the robber (Friendly Robber, Robber Flees): off the board."""
    return NO_ONE


class OilSprings(Module[State, OilMode]):
    name = NAME
    kind = "scenario"
    title = "Oil Springs"
    description = ("Oil springs: oil refines into resources and builds metropolises, but every "
                   "fifth unit burnt brings a flood or pollution; sequester oil for VP "
                   "(oil_mode=starting|wide_open, default starting; as a --variant to set it).")
    Params = OilMode
    seats = (3, 4)
    conflicts = {"catan-for-two": "Oil Springs is played with 3–4 players"}
    map = "oil-springs"
    maps = "services.rules.engine.scenarios.oil_springs.maps"
    advice = ADVICE
    narration = NARRATION
    end_reasons = {ABANDONED: abandoned}

    def __init__(self) -> None:
        self.drawing = draw  # an instance attribute: a plain function, not a method

    def install(self, rules: Rules, params: OilMode) -> None:
        vocab = rules.vocab
        oil = vocab.add_resource(OIL, bank=SUPPLY, hand_limit=HAND_LIMIT)
        vocab.add_terrain(SPRING)  # produces oil through this module only (production.py)
        mode = params.oil_mode

        def init(state: State, created: GameCreated) -> OilState:
            return OilState(oil=oil, mode=mode, sequestered=[0] * state.n)

        rules.module_state(OIL_STATE, init, view=view_ext)
        rules.set_hook(hk.ROBBER_HOME, off_the_board)  # the desert is a spring here (§12.9)
        production.install(rules)
        robbery.install(rules)
        using.install(rules)
        cards.install(rules)
        trade.install(rules)
        disaster.install(rules)


MODULE = OilSprings()
