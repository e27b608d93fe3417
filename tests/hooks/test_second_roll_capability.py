"""Catan for Two's second roll of a turn, as the rule of a pair replaces it: whatever module
provides the `SECOND_ROLL` capability gives the second roll, whatever the module order, and
Catan for Two rolls its own dice (a repeated total re-rolled) when none does."""

from __future__ import annotations

import pytest
from toy import toy

from events.commands import RollDice
from events.events import DiceRolled, Event, ModuleSpec
from services.rules.engine.capabilities import SECOND_ROLL
from services.rules.engine.chance import Dealer
from services.rules.engine.state import Rules, State
from services.rules.engine.testing import Table

TWO = ModuleSpec(name="catan-for-two")


def always_eleven(state: State, seat: int, dealer: Dealer, first: int) -> list[Event]:
    return [DiceRolled(seat=seat, d1=5, d2=6, n=state.rolls),
            *state.rules.hooks.resolve_number(state, seat, 11, dealer)]


def install(rules: Rules) -> None:
    rules.provide(SECOND_ROLL, always_eleven)


def second(table: Table) -> DiceRolled:
    table.turn_of(0, rolled=False)
    table.script("dice", (1, 2))
    table.when(RollDice(seat=0))
    events = table.when(RollDice(seat=0))
    return next(e for e in events if isinstance(e, DiceRolled))


def test_a_provided_second_roll_replaces_the_dice_in_either_order() -> None:
    toy("toy-second", install, seats=2)
    for modules in ([ModuleSpec(name="toy-second"), TWO], [TWO, ModuleSpec(name="toy-second")]):
        rolled = second(Table(seats=2, modules=modules))
        assert (rolled.d1, rolled.d2) == (5, 6)


def test_without_it_catan_for_two_rolls_its_own_dice() -> None:
    table = Table(seats=2, modules=[TWO])
    table.script("dice", (1, 2), (3, 3))
    table.turn_of(0, rolled=False)
    table.when(RollDice(seat=0))
    events = table.when(RollDice(seat=0))
    rolled = next(e for e in events if isinstance(e, DiceRolled))
    assert (rolled.d1, rolled.d2) == (3, 3)


def test_a_capability_has_one_provider() -> None:
    def twice(rules: Rules) -> None:
        rules.provide(SECOND_ROLL, always_eleven)
        rules.provide(SECOND_ROLL, always_eleven)

    with pytest.raises(ValueError, match="second roll is provided twice"):
        toy("toy-second-twice", twice, seats=2)
