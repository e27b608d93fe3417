"""The Fishermen's module state: a Struct the engine copies, dumps and loads (modstate.py). In a
file of its own: a module defining a Struct stays Python in the compiled build."""

from __future__ import annotations

import msgspec

from services.rules.engine.state import MAIN, NO_ONE


def _none_spent() -> list[int]:
    return [0, 0, 0, 0]


class FishState(msgspec.Struct):
    """The fish of a game. Token counts are kept by kind (index 0 the boot, 1-3 the fish on
    a token): the supply (face down), the spent pile (face up) and each seat's hand (hidden
    values, public count). Nothing here is an order: a draw weights the kinds left.

    `grounds` is all the game decided about the waters beyond its board (where the grounds
    lie, their shuffled numbers); what follows from it and the board (the vertices that fish,
    the lake) is worked out once per game and shared by every copy (waters.py), not copied."""

    grounds: tuple[int, ...]  # (sea hex, number) per fishing ground, flat: cheap to copy
    supply: list[int]  # by kind
    hands: list[list[int]]  # per seat, by kind
    due: list[int]  # per seat: tokens to give back now
    spent: list[int] = msgspec.field(default_factory=_none_spent)  # by kind
    boot: int = NO_ONE  # the boot's holder
    draws: int = 0  # tokens drawn so far (chance index "fish:<n>")
    resume: str = MAIN  # the phase after the returns
