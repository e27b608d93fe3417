"""Barbarian Attack's module state: a Struct the engine copies, dumps and loads (modstate.py).
In a file of its own: a module defining a Struct stays Python in the compiled build."""

from __future__ import annotations

import msgspec


class AttackState(msgspec.Struct):
    """The scenario's public state (`state.ext[EXT]`). A Struct: copied, dumped and loaded by
    the engine from its fields (modstate.py); a field added later takes its default when an
    older dump is loaded."""

    barbarians: list[int]  # per hex id (coastal hexes only ever hold any)
    prisoners: list[int]  # per seat
    gold: list[int]  # per seat
    supply: int  # barbarians not on the board
    deck: list[int]  # cards left before the reshuffle (public: all are shown)
    draws: int = 0  # chance index of `devcard:<n>`
    throws: int = 0  # of `landing:<n>`
    prisoner_throws: int = 0  # of `prisoners:<n>`
    dice: int = 0  # of `lossdie:<n>`
    card: int = -1  # the card being carried out (phase CARD), else -1
    treason_left: int = 0  # relocations still due
    treason_used: list[int] = msgspec.field(default_factory=list)  # hexes this Treason used
    marching: bool = False  # knights have started moving: no more trading or building
    moved: list[int] = msgspec.field(default_factory=list)  # paths of knights moved this turn
    gold_buys: int = 0  # resources bought with gold this turn
    # Catan for Two (§9.12): the shared foreign knight's path (-1: not in play yet) and
    # whether it has marched this turn (after it, the seat's own knights stay).
    foreign: int = -1
    foreign_moved: bool = False
