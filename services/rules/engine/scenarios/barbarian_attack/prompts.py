"""Who acts in the scenario's phases, with the legal commands; and the main stage's extras:
buying a card, gold, beginning the knights' march. Once the knights march only their steps and
the end of the turn are offered; while a castle knight must leave, the turn's end is not."""

from __future__ import annotations

from events.barbarian_attack import BeginMarch, MarchForeignKnight, MarchKnight
from events.commands import Command, EndTurn
from events.prompts import Prompt
from services.rules.engine import hook_keys as hk
from services.rules.engine.base.common import can_afford
from services.rules.engine.base.option_commands import buy_development_card
from services.rules.engine.hooks import Prompter
from services.rules.engine.scenarios.barbarian_attack import gold
from services.rules.engine.scenarios.barbarian_attack.common import CARD, attack
from services.rules.engine.scenarios.barbarian_attack.deck import card_options
from services.rules.engine.scenarios.barbarian_attack.knights import (
    can_march,
    foreign_options,
    move_options,
    must_leave_castle,
)
from services.rules.engine.state import MAIN, Rules, State


def extra_options(state: State, seat: int, phase: str) -> list[Command]:
    if phase != MAIN:
        return []
    out: list[Command] = []
    if attack(state).marching:
        return [*move_options(state, seat), *foreign_options(state, seat)]
    if can_afford(state.players[seat].hand, state.rules.cache.costs["development_card"]):
        out.append(buy_development_card(seat))
    out += gold.options(state, seat)
    if can_march(state, seat):
        out.append(BeginMarch(seat=seat))
    return out


def wrap_main(previous: Prompter[State]) -> Prompter[State]:
    def prompt(state: State) -> list[Prompt]:
        prompts = previous(state)
        seat = state.current
        for p in prompts:
            if p.seat != seat or p.stage != MAIN:
                continue
            if attack(state).marching:
                p.options = [o for o in p.options
                             if isinstance(o, EndTurn | MarchKnight | MarchForeignKnight)]
                p.may_trade = False
            if must_leave_castle(state, seat):
                p.options = [o for o in p.options if not isinstance(o, EndTurn)]
            p.default = p.options[0]
        return prompts

    return prompt


def prompt_card(state: State) -> list[Prompt]:
    seat = state.current
    options = card_options(state, seat)
    return [Prompt(seat=seat, stage=CARD, options=options, default=options[0])]


def install(rules: Rules) -> None:
    rules.add_hook(hk.EXTRA_OPTIONS, extra_options)
    rules.wrap_prompter(MAIN, wrap_main)
    rules.prompt(CARD, prompt_card)
