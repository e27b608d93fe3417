"""Catan for Two, rule 8: two rolls per turn; a repeated total is re-rolled without effect."""

from __future__ import annotations

from events.catan_for_two import (
    DiceRerolled,
)
from events.commands import (
    Command,
    RollDice,
)
from events.events import (
    DiceRolled,
    Event,
)
from services.rules.engine import hook_keys as hk
from services.rules.engine.base.common import require_current
from services.rules.engine.capabilities import SECOND_ROLL, SecondRoll
from services.rules.engine.chance import DICE_OUTCOMES, DICE_WEIGHTS, Dealer
from services.rules.engine.state import ROLL, Rules, State
from services.rules.engine.variants.catan_for_two.common import two

# --- two rolls (rule 8) ---------------------------------------------------------------------


def second_roll(state: State, seat: int, dealer: Dealer, first: int) -> list[Event]:
    """Roll until the total differs from `first`; the repeats are logged, without effect."""
    n = state.rolls
    events: list[Event] = []
    while True:
        d1, d2 = dealer.pick(f"dice:{n}", DICE_OUTCOMES, DICE_WEIGHTS)
        if d1 + d2 != first:
            break
        events.append(DiceRerolled(seat=seat, d1=d1, d2=d2, n=n))
        n += 1
    events.append(DiceRolled(seat=seat, d1=d1, d2=d2, n=n))
    events.extend(state.rules.hooks.resolve_number(state, seat, d1 + d2, dealer))
    return events


def second_step(rules: Rules) -> SecondRoll:
    """The turn's second roll: the dice re-rolled until they differ, unless the rule of a pair
    replaces it (`SECOND_ROLL`, provided by a combination module: a deck instead of the dice,
    a scenario's dice that skip totals)."""
    return rules.capability(SECOND_ROLL) or second_roll


def install(rules: Rules) -> None:
    """Rule 8: the two rolls (the RollDice handler and `roll_resolved` wrapped)."""
    previous_handler = rules.registry.handlers[RollDice]
    previous_resolved = rules.hook(hk.ROLL_RESOLVED)

    def roll(state: State, cmd: RollDice, dealer: Dealer) -> list[Event]:
        t = two(state)
        if t.step == 0:
            return list(previous_handler(state, cmd, dealer))
        require_current(state, cmd.seat)
        return second_step(state.rules)(state, cmd.seat, dealer, t.first)

    def roll_resolved(state: State) -> None:
        t = two(state)
        if t.step == 0:
            t.step, t.first = 1, state.last_roll
            state.rolled = False  # a knight before the second roll comes back to ROLL
            state.phase = ROLL
        else:
            t.step = 2
            previous_resolved(state)

    def evolve_rerolled(state: State, e: DiceRerolled) -> None:
        state.rolls += 1  # the chance index moves on; nothing else happens

    def refusal(state: State, cmd: Command) -> str | None:
        """Rolling while the first roll's 7 is resolved: not "already rolled", but too early."""
        if isinstance(cmd, RollDice) and cmd.seat == state.current and two(state).step == 0:
            return "catan_for_two.roll.twice" if state.rolled else None
        return None

    rules.handle(RollDice, roll, wraps=True)
    rules.set_hook(hk.ROLL_RESOLVED, roll_resolved, wraps=True)
    rules.evolve_with(DiceRerolled, evolve_rerolled)
    rules.add_hook(hk.PHASE_REFUSAL, refusal, first=True)  # more specific than the base's explanation
