"""A module played with Catan for Two may give the turn's second roll (variants/combinations.py
`SECOND_ROLLS`): registered under its extension state's name, used whatever the module order,
and Catan for Two's own re-rolled dice otherwise."""

from __future__ import annotations

from toy import toy

from events.commands import RollDice
from events.events import DiceRolled, Event, ModuleSpec
from services.rules.engine.chance import Dealer
from services.rules.engine.state import Rules, State
from services.rules.engine.testing import Table
from services.rules.engine.variants import combinations

TWO = ModuleSpec(name="catan-for-two")


def always_eleven(state: State, seat: int, dealer: Dealer, first: int) -> list[Event]:
    return [DiceRolled(seat=seat, d1=5, d2=6, n=state.rolls),
            *state.rules.resolve_number(state, seat, 11, dealer)]


def install(rules: Rules) -> None:
    rules.ext("toy-second", lambda state, created: 0, lambda x: x)


def second(table: Table) -> DiceRolled:
    table.turn_of(0, rolled=False)
    table.script("dice", (1, 2))
    table.when(RollDice(seat=0))
    events = table.when(RollDice(seat=0))
    return next(e for e in events if isinstance(e, DiceRolled))


def test_a_registered_second_roll_replaces_the_dice_in_either_order() -> None:
    toy("toy-second", install, seats=2)
    combinations.SECOND_ROLLS["toy-second"] = always_eleven
    try:
        for modules in ([ModuleSpec(name="toy-second"), TWO], [TWO, ModuleSpec(name="toy-second")]):
            rolled = second(Table(seats=2, modules=modules))
            assert (rolled.d1, rolled.d2) == (5, 6)
    finally:
        del combinations.SECOND_ROLLS["toy-second"]


def test_without_it_catan_for_two_rolls_its_own_dice() -> None:
    table = Table(seats=2, modules=[TWO])
    table.script("dice", (1, 2), (3, 3))
    table.turn_of(0, rolled=False)
    table.when(RollDice(seat=0))
    events = table.when(RollDice(seat=0))
    rolled = next(e for e in events if isinstance(e, DiceRolled))
    assert (rolled.d1, rolled.d2) == (3, 3)
