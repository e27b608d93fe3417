"""Variant: the Friendly Robber (docs/rules/friendly-robber.md §2).

A player with only the VP they started with is *protected*: the robber may not go next to any of
their buildings and they are never robbed. If that leaves no hex, the robber goes to the desert,
or stays there if it already is (the 7 or the Knight still resolves). Discards are unchanged.

Design notes:
- "VP" is public VP (docs/rules/README.md §0.3), so a hidden VP card does not lift protection, while a
  public module bonus (the Harbormaster card) does.
- `protected(p) = public VP <= start_vp` (DECISION §2.1: `<=`, so a player pushed below the
  start stays protected); `start_vp` is a parameter because scenarios start with other totals.
- Only hooks are wrapped (`robber_hexes`, `robber_victims`) plus a `robber_refusal` explanation,
  so prompts, bots and the move check all see the same narrowed choices.
- Protection is judged against *every* protected player, the mover included: the rule names the
  hex, not the victim (literal reading of "may not be moved to a hex next to a settlement of a
  player who has only 2 VP").
"""

from __future__ import annotations

import msgspec

from services.rules.engine import hook_keys as hk
from services.rules.engine.base.scoring import public_vp
from services.rules.engine.base.turn import robber_refuges
from services.rules.engine.rules import register
from services.rules.engine.ruleset import Module
from services.rules.engine.state import NO_ONE, Rules, State

register({
    "friendly_robber.hex.protected": (
        "Friendly Robber: the robber may not go next to a building of a player with only "
        "the starting VP (2 in the base game)."
    ),
    "friendly_robber.hex.desert": (
        "Friendly Robber: when every hex is next to a protected player, the robber goes to "
        "the desert (or stays there)."
    ),
    "friendly_robber.victim.protected": (
        "Friendly Robber: a player with only the starting VP (2 in the base game) is never "
        "robbed, not even on the desert."
    ),
})


class FriendlyRobberParams(msgspec.Struct, forbid_unknown_fields=True):
    start_vp: int = 2  # the VP a player has right after set-up (docs/rules/friendly-robber.md §2.1)

    def __post_init__(self) -> None:
        if not 0 <= self.start_vp <= 10:
            raise ValueError("friendly-robber: start_vp must be between 0 and 10")


def protected_seats(state: State, start_vp: int) -> set[int]:
    return {s for s in range(state.n) if public_vp(state, s) <= start_vp}


def touches(state: State, h: int, seats: set[int]) -> bool:
    """Whether hex `h` has a building of one of `seats` on a corner."""
    owner = state.vertex_owner
    return any(owner[v] in seats for v in state.board.topo.hex_vertices[h])


def fallback_hexes(state: State) -> list[int]:
    """Where the robber goes when no hex is open: the desert, else the scenario's place for it
    (`robber_refuges`: off the board, a swamp …; docs/rules/friendly-robber.md §2.3), else
    nowhere new (it stays)."""
    refuges = list(robber_refuges(state))
    if refuges:
        return refuges
    return [state.robber] if state.robber != NO_ONE else []


class FriendlyRobber(Module[State, FriendlyRobberParams]):
    name = "friendly-robber"
    title = "Friendly Robber"
    description = (
        "The robber spares players with only their starting VP (start_vp=N, default 2); "
        "with no hex left it goes to the desert."
    )
    Params = FriendlyRobberParams

    def install(self, rules: Rules, params: FriendlyRobberParams) -> None:
        start_vp = params.start_vp
        previous_hexes = rules.hook(hk.ROBBER_HEXES)
        previous_victims = rules.hook(hk.ROBBER_VICTIMS)

        def open_hexes(state: State, seat: int) -> tuple[list[int], set[int]]:
            """The hexes the base (and earlier modules) allow that touch no protected player."""
            shielded = protected_seats(state, start_vp)
            hexes = previous_hexes(state, seat)
            return [h for h in hexes if not touches(state, h, shielded)], shielded

        def robber_hexes(state: State, seat: int) -> list[int]:
            return open_hexes(state, seat)[0] or fallback_hexes(state)

        def robber_victims(state: State, seat: int, h: int) -> list[int]:
            victims = previous_victims(state, seat, h)
            return [v for v in victims if public_vp(state, v) > start_vp]

        def refusal(state: State, seat: int, h: int, victim: int | None) -> str | None:
            if victim is not None:
                if victim in previous_victims(state, seat, h) and public_vp(state, victim) <= start_vp:
                    return "friendly_robber.victim.protected"
                return None
            if h not in previous_hexes(state, seat):
                return None  # refused for a reason of the base or another module
            hexes, shielded = open_hexes(state, seat)
            if not touches(state, h, shielded):
                return None
            return "friendly_robber.hex.protected" if hexes else "friendly_robber.hex.desert"

        rules.set_hook(hk.ROBBER_HEXES, robber_hexes, wraps=True)
        rules.set_hook(hk.ROBBER_VICTIMS, robber_victims, wraps=True)
        rules.add_hook(hk.ROBBER_REFUSAL, refusal)


MODULE = FriendlyRobber()
