"""The 7 without a robber (docs/rules/barbarian-attack.md §9.9): the base discards, then the
active seat draws one random resource card from another player of its choice who holds cards
(phase STEAL; skipped when nobody does). The card is the base `steal` (`steal:<n>`), so the
base redaction hides it from everyone but thief and victim."""

from __future__ import annotations

from events.barbarian_attack import ChooseSevenVictim, SevenVictimChosen
from events.commands import Command
from events.events import Event
from events.prompts import Prompt
from services.rules.engine import hook_keys as hk
from services.rules.engine.base.common import require_current
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.scenarios.barbarian_attack.common import STEAL, opponents_with_cards
from services.rules.engine.state import Rules, State


def seven_stage(state: State) -> None:
    if opponents_with_cards(state, state.current):
        state.phase = STEAL
    else:
        state.rules.hooks.roll_resolved(state)


def steal_from(state: State, cmd: ChooseSevenVictim, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    if cmd.victim not in opponents_with_cards(state, cmd.seat):
        raise reject("barbarian_attack.seven.steal", "choose another player who holds cards")
    events: list[Event] = [SevenVictimChosen(seat=cmd.seat, victim=cmd.victim)]
    return events + state.rules.hooks.steal(state, cmd.seat, cmd.victim, dealer)


def evolve_chosen(state: State, e: SevenVictimChosen) -> None:
    state.rules.hooks.roll_resolved(state)


def prompt_steal(state: State) -> list[Prompt]:
    seat = state.current
    options: list[Command] = [ChooseSevenVictim(seat=seat, victim=v)
                              for v in opponents_with_cards(state, seat)]
    return [Prompt(seat=seat, stage=STEAL, options=options, default=options[0])]


def install(rules: Rules) -> None:
    rules.set_hook(hk.SEVEN_STAGE, seven_stage)
    rules.handle(ChooseSevenVictim, steal_from)
    rules.allow(STEAL, ChooseSevenVictim)
    rules.evolve_with(SevenVictimChosen, evolve_chosen)
    rules.prompt(STEAL, prompt_steal)
