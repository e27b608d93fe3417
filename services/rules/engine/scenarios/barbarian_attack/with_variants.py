"""Barbarian Attack with the variants it combines with (docs/rules/combinations.md §13.3).

Harbormaster: a conquered building counts no harbor points (`building_void`), and the card is
looked at again whenever barbarians arrive or leave (a landing, a battle, Treason, Intrigue),
not only after a build. The look-up happens when a command is decided, so the order in which
the modules are listed does not matter.
"""

from __future__ import annotations

from events.barbarian_attack import (
    BarbarianCapturedByIntrigue,
    BarbarianRelocatedByTreason,
    BarbariansLanded,
    CoastalBattleWon,
)
from events.events import Event
from services.rules.engine.chance import Dealer
from services.rules.engine.scenarios.barbarian_attack.common import building_conquered
from services.rules.engine.state import Rules, State
from services.rules.engine.variants import harbormaster

BARBARIANS_MOVED = (BarbariansLanded, CoastalBattleWon, BarbarianRelocatedByTreason,
                    BarbarianCapturedByIntrigue)


def conquered_building(state: State, seat: int, v: int) -> bool:
    return building_conquered(state, v)


def derive_harbormaster(state: State, dealer: Dealer) -> list[Event]:
    if harbormaster.EXT not in state.ext:
        return []
    return harbormaster.derive_harbormaster(state, dealer)


def install(rules: Rules) -> None:
    rules.building_void.append(conquered_building)
    rules.derive(BARBARIANS_MOVED, derive_harbormaster)
