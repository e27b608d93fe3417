"""The Pirate Islands' module state: Structs the engine copies, dumps and loads (modstate.py).
In a file of their own: a module defining a Struct stays Python in the compiled build."""

from __future__ import annotations

import msgspec


class FleetReward(msgspec.Struct):
    """A seat stronger than the fleet names its resource (phase REWARD); the attacks of the
    roll wait for it: the seats still to be attacked, the fleet's strength, the roll's total."""

    seat: int
    remaining: tuple[int, ...]
    strength: int
    total: int


class PirateState(msgspec.Struct):
    """The scenario's public state (`state.ext[EXT]`). A Struct: copied, dumped and loaded by
    the engine from its fields (modstate.py). The map's places, fixed for the game, are not
    kept here (common.places, cached per board)."""

    routes: list[list[int]]  # per seat its ships in route order: the pre-placed one first, the front last
    warships: list[int]  # per seat (they are the rear-most ships)
    strength: list[int]  # per seat its fortress's strength (0: captured)
    gold: list[int]  # per seat, resources still due from the gold fields
    fleet: int = 0  # the fleet's loop index (-1: removed)
    built: set[int] = msgspec.field(default_factory=set)  # ships built this turn
    moved: bool = False  # a ship was moved this turn
    looted: int = 0  # chance index of `fleetloss:<n>`
    throws: int = 0  # chance index of `fortress:<n>` (attacks on the fortress)
    reward: FleetReward | None = None
