"""Landings (docs/rules/barbarian-attack.md §9.4): every settlement and city built after set-up
brings barbarians ashore by the dice.

A deriver: after a `SettlementBuilt` or `CityBuilt` outside set-up it throws (chance key
`landing:<n>`, every throw recorded, 7s and repeats included) until three different non-7
totals are thrown; each total's coastal hex takes a barbarian unless it holds three already
(the total still counts: it is not thrown again) or the supply is empty (the landing stops).
"""

from __future__ import annotations

from events.barbarian_attack import BarbariansLanded
from events.events import CityBuilt, Event, SettlementBuilt
from services.rules.engine.chance import DICE_OUTCOMES, DICE_WEIGHTS, Dealer
from services.rules.engine.scenarios.barbarian_attack.common import (
    FULL,
    attack,
    geometry,
    refresh_harbors,
)
from services.rules.engine.state import SETUP, Rules, State

TOTALS = 3
MAX_THROWS = 1000  # a landing needs a handful; a dealer that never gives 3 totals is broken


def land(state: State, dealer: Dealer) -> BarbariansLanded:
    """One landing, from the state as it is now."""
    a = attack(state)
    by_number = geometry(state.board).by_number
    counts = a.barbarians[:]
    supply = a.supply
    throws: list[tuple[int, int]] = []
    totals: list[int] = []
    hexes: list[int] = []
    while len(totals) < TOTALS and supply > 0:
        if len(throws) >= MAX_THROWS:
            raise RuntimeError("a landing without three different totals")
        d1, d2 = dealer.pick(f"landing:{a.throws + len(throws)}", DICE_OUTCOMES, DICE_WEIGHTS)
        throws.append((d1, d2))
        total = d1 + d2
        if total == 7 or total in totals:
            continue
        totals.append(total)
        h = by_number[total]
        if counts[h] >= FULL:
            continue  # a full hex takes no more (barbarian_attack.landing.full_hex)
        counts[h] += 1
        supply -= 1
        hexes.append(h)
    return BarbariansLanded(throws=tuple(throws), hexes=tuple(hexes), n=a.throws)


def derive_landing(state: State, dealer: Dealer) -> list[Event]:
    """A build outside set-up brings one landing (barbarian_attack.landing.trigger)."""
    if state.phase == SETUP or attack(state).supply <= 0:
        return []
    return [land(state, dealer)]


def evolve_landed(state: State, e: BarbariansLanded) -> None:
    a = attack(state)
    a.throws += len(e.throws)
    for h in e.hexes:
        a.barbarians[h] += 1
        a.supply -= 1
    refresh_harbors(state)


def install(rules: Rules) -> None:
    rules.derive((SettlementBuilt, CityBuilt), derive_landing)
    rules.evolve_with(BarbariansLanded, evolve_landed)
