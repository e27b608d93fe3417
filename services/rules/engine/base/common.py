"""Small checks shared by the base rule areas."""

from __future__ import annotations

from collections.abc import Sequence

from events.types import Bundle
from services.rules.engine.rules import reject
from services.rules.engine.state import State


def require_current(state: State, seat: int) -> None:
    if seat != state.current:
        raise reject(
            "base.turn.not_your_turn",
            f"it is {state.names[state.current]}'s turn, not {state.names[seat]}'s",
        )


def can_afford(hand: list[int], cost: tuple[int, ...]) -> bool:
    """Whether `hand` holds `cost` (vectors as wide as the ruleset's resources). The base
    five are unrolled (this is on every prompt's path); a module's resources are looked at
    only when the base ones are there. Concrete types, not `Sequence`: the compiled build then
    reads items without a generic lookup (a fifth of the main prompt's cost went here)."""
    return (hand[0] >= cost[0] and hand[1] >= cost[1] and hand[2] >= cost[2]
            and hand[3] >= cost[3] and hand[4] >= cost[4]
            and (len(cost) == 5 or all(h >= c for h, c in zip(hand[5:], cost[5:], strict=True))))


def holds_any(counts: list[int]) -> bool:
    """`any(counts)` as a plain loop. Compiled, the loop runs in C, where calling the builtin
    is a lookup in the builtins module and a generic call (a tenth of a main prompt's own
    work); interpreted, a plain loop costs about what the builtin does on a few items, where a
    generator (`any(n for n in counts)`) would cost several times more."""
    for n in counts:  # noqa: SIM110 (see above)
        if n:
            return True
    return False


def holds_any_row(rows: list[list[int]]) -> bool:
    """`holds_any` over several vectors (one per seat), for the same reasons."""
    for row in rows:
        for n in row:
            if n:
                return True
    return False


def all_at_least(counts: list[int], floor: int) -> bool:
    """`min(counts) >= floor` as a plain loop, for the reasons of `holds_any`."""
    for n in counts:  # noqa: SIM110 (see above)
        if n < floor:
            return False
    return True


def require_afford(state: State, seat: int, what: str, rule_id: str) -> None:
    cost = state.rules.cache.costs[what]
    if not can_afford(state.players[seat].hand, cost):
        raise reject(rule_id, f"a {what.replace('_', ' ')} costs {describe(state, cost)}")


def describe(state: State, vec: Sequence[int]) -> str:
    names = state.rules.vocab.resources
    parts = [f"{n} {names[i]}" for i, n in enumerate(vec) if n]
    return ", ".join(parts) if parts else "nothing"


def pay(state: State, seat: int, cost: Sequence[int]) -> None:
    hand = state.players[seat].hand
    bank = state.bank
    for i, c in enumerate(cost):
        if c:
            hand[i] -= c
            bank[i] += c


def take_from_bank(state: State, seat: int, vec: Sequence[int]) -> None:
    hand = state.players[seat].hand
    bank = state.bank
    for i, c in enumerate(vec):
        if c:
            hand[i] += c
            bank[i] -= c


def vector(state: State, bundle: Bundle, rule_id: str = "base.command.invalid") -> list[int]:
    """A bundle from a command as a vector of the ruleset's width; negative counts are
    refused."""
    vec = state.rules.vocab.vector(bundle)
    if any(n < 0 for n in vec):
        raise reject(rule_id, "card counts must not be negative")
    return vec


def check_place(state: State, kind: str, i: int) -> None:
    n = state.board.n_vertices if kind == "vertex" else (
        state.board.n_edges if kind == "edge" else len(state.board.topo.hexes)
    )
    if not 0 <= i < n:
        raise reject("base.place.unknown", f"there is no {kind} {i} on this map")
