"""The 7 without a robber (docs/rules/pirate-islands.md §11.9): the fleet has acted (the roll's
first part), then seats with more than 7 cards discard half (the base rule), then the roller
may draw one random card from any other seat (phase STEAL; Decision (hexlog): optional)."""

from __future__ import annotations

from events.commands import Command
from events.events import Event
from events.pirate_islands import SevenStealChosen, StealOnSeven
from events.prompts import Prompt
from services.rules.engine import hook_keys as hk
from services.rules.engine.base.common import require_current
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.scenarios.pirate_islands.common import STEAL
from services.rules.engine.state import Rules, State


def victims(state: State, seat: int) -> list[int]:
    return [p.seat for p in state.players[: state.n] if p.seat != seat and p.cards > 0]


def seven_stage(state: State) -> None:
    """The discards are done (or none were due): the roller chooses whom to draw from."""
    state.phase = STEAL


def steal_on_seven(state: State, cmd: StealOnSeven, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    if cmd.victim is None:
        return [SevenStealChosen(seat=cmd.seat)]
    if cmd.victim not in victims(state, cmd.seat):
        raise reject("pirate_islands.seven.steal",
                     f"seat {cmd.victim} is not another seat holding cards")
    chosen: list[Event] = [SevenStealChosen(seat=cmd.seat, victim=cmd.victim)]
    return chosen + state.rules.hooks.steal(state, cmd.seat, cmd.victim, dealer)


def prompt_steal(state: State) -> list[Prompt]:
    seat = state.current
    options: list[Command] = [StealOnSeven(seat=seat)]
    options.extend(StealOnSeven(seat=seat, victim=v) for v in victims(state, seat))
    return [Prompt(seat=seat, stage=STEAL, options=options, default=options[0])]


def evolve_chosen(state: State, e: SevenStealChosen) -> None:
    state.rules.hooks.roll_resolved(state)


def install(rules: Rules) -> None:
    rules.set_hook(hk.SEVEN_STAGE, seven_stage)
    rules.handle(StealOnSeven, steal_on_seven)
    rules.allow(STEAL, StealOnSeven)
    rules.prompt(STEAL, prompt_steal)
    rules.evolve_with(SevenStealChosen, evolve_chosen)


