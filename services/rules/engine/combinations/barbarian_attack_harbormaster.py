"""Barbarian Attack with Harbormaster (docs/rules/combinations.md §13.3): the card is looked at
again whenever barbarians arrive or leave (a landing, a battle, Treason, Intrigue, the token
action), not only after a build; a conquered building counts no harbor points (Barbarian
Attack's own `building_void`, which Harbormaster asks)."""

from __future__ import annotations

from events.barbarian_attack import (
    BarbarianCapturedByIntrigue,
    BarbarianMovedByTokens,
    BarbarianRelocatedByTreason,
    BarbariansLanded,
    CoastalBattleWon,
)
from services.rules.engine.combinations import Combination
from services.rules.engine.state import Rules
from services.rules.engine.variants import harbormaster

BARBARIANS_MOVED = (BarbariansLanded, CoastalBattleWon, BarbarianRelocatedByTreason,
                    BarbarianCapturedByIntrigue, BarbarianMovedByTokens)


def install(rules: Rules) -> None:
    rules.derive(BARBARIANS_MOVED, harbormaster.derive_harbormaster)


COMBINATION = Combination(pair=("barbarian-attack", "harbormaster"), install=install,
                          description="Harbormaster re-checked whenever barbarians move")
