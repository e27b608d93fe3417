"""Traders & Barbarians' module state: a Struct the engine copies, dumps and loads
(modstate.py). In a file of its own: a module defining a Struct stays Python in the compiled
build."""

from __future__ import annotations

import msgspec

from services.rules.engine.state import NO_ONE


class TradersState(msgspec.Struct):
    """Per-seat gold, wagons and commodities; the stacks; the barbarians; the turn's wagon
    (`state.ext[EXT]`, all public). A Struct: copied, dumped and loaded by the engine from its
    fields (modstate.py). The board's trade places, fixed for the game, are not kept here
    (common.places, cached per board)."""

    gold: list[int]  # per seat
    wagon: list[int]  # per seat, the vertex its wagon stands on
    level: list[int]  # per seat, its face-up wagon card
    cargo: list[str]  # per seat, the commodity carried ("": none)
    delivered: list[list[int]]  # per seat, per commodity (COMMODITIES order)
    stacks: list[list[int]]  # per trade hex (TRADE_HEXES order), commodities left
    barbarians: list[int]  # the path (edge) of each barbarian
    tried: list[bool]  # per barbarian, whether a drive-off was tried this turn
    # The turn's wagon part: MP left in the current movement, whether it has begun, whether
    # the current movement ended at a plaza, whether a second movement is due.
    mp: int = 0
    moving: bool = False
    over: bool = False
    second: bool = False
    grain_paid: bool = False
    buys: int = 0  # gold purchases this turn
    pending: str = ""  # why a barbarian is being relocated (SEVEN, KNIGHT, DRIVE_OFF)
    pending_barbarian: int = NO_ONE  # the driven-off barbarian
    resume: str = ""  # the phase a Knight's relocation returns to
    draws: int = 0  # commodity draws so far (chance keys)
    throws: int = 0  # drive-off throws so far (chance keys)
    built: tuple[int, int] = (NO_ONE, NO_ONE)  # (seat, vertex) of the last building placed
