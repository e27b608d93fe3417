"""What an agent is paid: the game's result by default, and optionally its victory points as
they come (shaping)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reward:
    """`win` / `loss` at the end of a game another seat or this one won; `draw` at an end
    without a winner (the turn limit, an Oil Springs disaster). `vp`: paid per victory point
    the seat gains (or loses) when it happens, its hidden VP cards included (the seat knows
    them; no other seat's hidden card is read)."""

    win: float = 1.0
    loss: float = -1.0
    draw: float = 0.0
    vp: float = 0.0

    @classmethod
    def of(cls, spec: str | Reward) -> Reward:
        """`"win"` (win/loss only, the default) or `"vp"` (plus 0.1 a victory point)."""
        if isinstance(spec, Reward):
            return spec
        if spec == "win":
            return cls()
        if spec == "vp":
            return cls(vp=0.1)
        raise ValueError(f"reward {spec!r}: give 'win', 'vp' or a Reward")

    def final(self, seat: int, winner: int | None) -> float:
        if winner is None:
            return self.draw
        return self.win if winner == seat else self.loss
