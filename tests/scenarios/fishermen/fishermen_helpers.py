"""Helpers for the Fishermen tests: a table on the scenario's beginner board (the lake at the
centre), fish put into hands (taken from the supply, so every count is conserved), and the
invariants every game must keep."""

from __future__ import annotations

from collections.abc import Sequence

from events.events import ModuleSpec
from services.rules.engine.scenarios.fishermen.common import KINDS, START_SUPPLY, fish
from services.rules.engine.scenarios.fishermen.state import FishState
from services.rules.engine.scenarios.fishermen.waters import Waters, waters
from services.rules.engine.state import NO_ONE, State
from services.rules.engine.testing import Table

FISHERMEN = ModuleSpec(name="fishermen")


def table(seats: int = 3, variants: Sequence[str] = (), setup: bool = False,
          seed: bytes = b"table") -> Table:
    modules = [FISHERMEN, *(ModuleSpec(name=v) for v in variants)]
    return Table(seats=seats, modules=modules, setup=setup, seed=seed)


def fx(t: Table | State) -> FishState:
    return fish(t.state if isinstance(t, Table) else t)


def waters_of(t: Table | State) -> Waters:
    """The game's grounds and lake (fixed for the game)."""
    return waters(t.state if isinstance(t, Table) else t)


def give_fish(t: Table, seat: int, *values: int) -> None:
    """Tokens of these values from the supply into the seat's hand."""
    f = fx(t)
    for v in values:
        assert f.supply[v] > 0, f"no token of {v} fish left in the supply"
        f.supply[v] -= 1
        f.hands[seat][v] += 1


def clear_fish(t: Table) -> None:
    """Every hand's tokens (and the boot) back into the supply, nothing spent."""
    f = fx(t)
    f.hands = [[0, 0, 0, 0] for _ in f.hands]
    f.spent = [0, 0, 0, 0]
    f.supply = list(START_SUPPLY)
    f.boot = NO_ONE


def ground(t: Table, number: int) -> tuple[int, tuple[int, ...]]:
    """The fishing ground with this number: its hex and its three vertices."""
    for h, n, vs in waters_of(t).grounds:
        if n == number:
            return h, vs
    raise AssertionError(f"no ground numbered {number}")


def check_fish_conserved(state: State) -> None:
    """Supply + spent + hands (+ the boot's holder) == the 30 pieces, by kind; nothing negative."""
    f = fish(state)
    for k in KINDS:
        held = sum(h[k] for h in f.hands) + (1 if k == 0 and f.boot != NO_ONE else 0)
        assert f.supply[k] + f.spent[k] + held == START_SUPPLY[k], (k, f.supply, f.spent, f.hands)
        assert min(f.supply[k], f.spent[k], *(h[k] for h in f.hands)) >= 0
    assert all(h[0] == 0 for h in f.hands)
