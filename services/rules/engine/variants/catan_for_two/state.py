"""Catan for Two's module state: a Struct the engine copies, dumps and loads (modstate.py). In a
file of its own: a module defining a Struct stays Python in the compiled build."""

from __future__ import annotations

import msgspec

from services.rules.engine.state import MAIN, NO_ONE


class TwoState(msgspec.Struct):
    """Public module state: tokens, the turn's roll step and flags, the owed neutral piece.
    A Struct: copied, dumped and loaded by the engine from its fields (modstate.py)."""

    tokens: list[int]
    supply: int
    step: int = 0  # rolls resolved this turn (0, 1, 2)
    first: int = 0  # the first roll's total
    action_used: bool = False
    knight_used: bool = False
    due: str = ""  # "road" / "settlement" while a neutral piece is owed
    resume: str = MAIN  # the phase after the neutral piece
    victim: int = NO_ONE  # forced trade in progress: who gets the cards back
    trades: int = 0  # forced trades so far (chance index)

    @property
    def in_play(self) -> bool:
        """Whether trade tokens are used (20 of them always exist unless none were dealt)."""
        return self.supply > 0 or any(self.tokens)
