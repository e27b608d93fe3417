"""The base game's prompt stages: what a seat is asked to decide (a `Prompt.stage`).

A stage is a name a bot may branch on, so each one is declared with what is decided: the base
game's here, a module's in its `Module.stages`. `modules.declared_stages()` gathers them, and
docs/protocol.md's table of stages is made from them (`hexlog schemas`). Most base stages
share their name with the phase they are asked in (`state.ROLL` …); set-up and a trade offer
ask two different things within one phase.
"""

from __future__ import annotations

from typing import Final

from services.rules.engine.state import DISCARD, MAIN, ROAD_BUILDING, ROBBER, ROLL, TRADE

SETUP_SETTLEMENT: Final = "setup_settlement"
SETUP_ROAD: Final = "setup_road"
TRADE_ANSWER: Final = "trade_answer"

STAGES: Final[dict[str, str]] = {
    SETUP_SETTLEMENT: "where the seat's next set-up settlement goes (snake order)",
    SETUP_ROAD: "where the road beside the set-up settlement just placed goes",
    ROLL: "roll the dice, or first play a Knight (or what else a module allows before the "
          "roll)",
    DISCARD: "which cards to give up after a 7 (more than 7 in hand): `discard` cards of "
             "`hand`; every seat concerned is asked at once",
    ROBBER: "where the robber goes, and whom it robs there",
    MAIN: "the turn's next action: build, buy or play a card, trade, or end the turn",
    ROAD_BUILDING: "where the next free road of a Road Building card goes",
    TRADE: "the proposer of an open offer: close the deal with a seat that accepted or "
           "countered, or cancel it",
    TRADE_ANSWER: "an open offer made to this seat: accept, reject, or counter it "
                  "(`may_trade`)",
}
