"""What seats see of the scenario (all public: the fleet, routes, warships, fortresses, gold
due), the redaction of the fleet's loot, and the scenario's marks on a drawn board."""

from __future__ import annotations

from typing import TypedDict

import msgspec

from events.events import Event
from events.pirate_islands import FleetLooted
from services.rules.engine.scenarios.pirate_islands.common import pirate, places
from services.rules.engine.state import State


class PirateView(TypedDict):
    """What every seat sees of the scenario (`view["ext"]["pirate-islands"]`)."""

    fleet: int | None  # the fleet's hex (None: removed)
    fleet_index: int  # its index in `loop` (-1: removed)
    loop: list[int]
    routes: list[list[int]]
    warships: list[int]
    fortresses: list[int]
    strength: list[int]
    sites: list[int]
    gold: list[int]
    reward: int | None  # the seat naming its fleet reward


def view_ext(state: State, seat: int | None) -> PirateView:
    ps = pirate(state)
    pl = places(state.board)
    return {
        "fleet": None if ps.fleet < 0 else pl.loop[ps.fleet],
        "fleet_index": ps.fleet,
        "loop": list(pl.loop),
        "routes": [r[:] for r in ps.routes],
        "warships": ps.warships[:],
        "fortresses": [pl.slots[s].fortress for s in range(state.n)],
        "strength": ps.strength[:],
        "sites": [pl.slots[s].site for s in range(state.n)],
        "gold": ps.gold[:],
        "reward": None if ps.reward is None else ps.reward.seat,
    }


def redact_looted(e: FleetLooted, seat: int | None) -> Event:
    if seat == e.seat:
        return e
    return msgspec.structs.replace(e, resources=None)
