"""Hooks `seven` and `seven_stage`: what a 7 does (Barbarian Attack and Traders & Barbarians
have no robber; Pirate Islands moves its fleet first)."""

from toy import toy

from events.commands import RollDice
from events.events import DiceRolled
from services.rules.engine import hook_keys as hk
from services.rules.engine import pending
from services.rules.engine.state import MAIN, Rules


def no_robber(rules: Rules) -> None:
    rules.set_hook(hk.SEVEN, lambda state, seat, dealer: [])  # no discards either

    def back_to_main(state):  # type: ignore[no-untyped-def]
        state.phase = MAIN

    rules.set_hook(hk.SEVEN_STAGE, back_to_main)


def test_a_seven_without_robber_goes_straight_on_to_the_main_phase() -> None:
    t = toy("toy-seven", no_robber)
    t.turn_of(0, rolled=False)
    t.give(0, lumber=9)  # more than 7 cards: the base would ask for a discard
    t.script("dice", (3, 4))
    assert [type(e) for e in t.when(RollDice(seat=0))] == [DiceRolled]
    assert t.state.phase == MAIN
    assert pending(t.state)[0].stage == MAIN
