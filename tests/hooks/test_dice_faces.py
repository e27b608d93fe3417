"""Hook `resolve_dice`: both faces before production (Pirate Islands moves its fleet by the
smaller die, then production follows)."""

from toy import toy

from events.commands import RollDice
from events.events import DiceRolled
from services.rules.engine import hook_keys as hk
from services.rules.engine.state import Rules


def test_a_module_sees_both_faces_before_the_number_is_resolved() -> None:
    seen: list[int] = []

    def install(rules: Rules) -> None:
        previous = rules.hooks.resolve_dice

        def fleet_first(state, seat, d1, d2, dealer):  # type: ignore[no-untyped-def]
            seen.append(min(d1, d2))  # the fleet would sail this many steps
            return previous(state, seat, d1, d2, dealer)

        rules.set_hook(hk.RESOLVE_DICE, fleet_first)

    t = toy("toy-dice", install)
    t.turn_of(0, rolled=False)
    t.script("dice", (5, 2))
    events = t.when(RollDice(seat=0))
    assert isinstance(events[0], DiceRolled)
    assert seen == [2]
