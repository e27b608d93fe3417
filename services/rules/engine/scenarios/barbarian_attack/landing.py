"""Landings (docs/rules/barbarian-attack.md §9.4): every settlement and city built after set-up
brings barbarians ashore by the dice.

A deriver: after a `SettlementBuilt` or `CityBuilt` outside set-up it draws three different
non-7 totals; each total's coastal hex takes a barbarian unless it holds three already (the
total still counts: it is not thrown again) or the supply is empty (the landing stops).

Decision (hexlog): throwing two dice until a total is new and not 7 is drawing that total
among the new non-7 totals with the two dice's odds (2 and 12: 1 way, 6 and 8: 5 ways), so
each total is one chance point `landing:<n>` with those weights: the same distribution, and
a finite one for search (`chance_outcomes`).
"""

from __future__ import annotations

from events.barbarian_attack import BarbariansLanded
from events.events import CityBuilt, Event, SettlementBuilt
from services.rules.engine.chance import Dealer
from services.rules.engine.scenarios.barbarian_attack.common import (
    FULL,
    attack,
    geometry,
    refresh_harbors,
)
from services.rules.engine.state import SETUP, Rules, State

TOTALS = 3
WAYS = {t: 6 - abs(t - 7) for t in range(2, 13) if t != 7}  # two-dice combinations per total


def land(state: State, dealer: Dealer) -> BarbariansLanded:
    """One landing, from the state as it is now."""
    a = attack(state)
    by_number = geometry(state.board).by_number
    counts = a.barbarians[:]
    supply = a.supply
    totals: list[int] = []
    hexes: list[int] = []
    while len(totals) < TOTALS and supply > 0:
        new = [t for t in WAYS if t not in totals]
        total = dealer.pick(f"landing:{a.throws + len(totals)}", new, [WAYS[t] for t in new])
        totals.append(total)
        h = by_number[total]
        if counts[h] >= FULL:
            continue  # a full hex takes no more (barbarian_attack.landing.full_hex)
        counts[h] += 1
        supply -= 1
        hexes.append(h)
    return BarbariansLanded(totals=tuple(totals), hexes=tuple(hexes), n=a.throws)


def derive_landing(state: State, dealer: Dealer) -> list[Event]:
    """A build outside set-up brings one landing (barbarian_attack.landing.trigger)."""
    if state.phase == SETUP or attack(state).supply <= 0:
        return []
    return [land(state, dealer)]


def evolve_landed(state: State, e: BarbariansLanded) -> None:
    a = attack(state)
    a.throws += len(e.totals)
    for h in e.hexes:
        a.barbarians[h] += 1
        a.supply -= 1
    refresh_harbors(state)


def install(rules: Rules) -> None:
    rules.derive((SettlementBuilt, CityBuilt), derive_landing)
    rules.evolve_with(BarbariansLanded, evolve_landed)
