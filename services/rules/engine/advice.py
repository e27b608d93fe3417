"""Bot advice a module gives about its own commands and stages.

The heuristic bot (bots/heuristic.py) knows the base game; at three points of its choice it
asks the advice of every module of the game (`modules.advice_for`) instead of testing variant
names: in a stage it does not know, first thing in its main stage, and after its buildings. An
advisor returns a command from the prompt's options, or None to leave the choice to the bot.
Advice reads only what a bot may see (the view and the prompt), like the bot itself.
"""

from __future__ import annotations

from typing import Protocol

from events.commands import Command
from events.prompts import Prompt, View


class BotSense(Protocol):
    """What the asking bot lends an advisor: its judgement of the position."""

    def robber_hurts_me(self, view: View, seat: int) -> bool: ...

    def goal(self, hand: list[int]) -> tuple[int, ...]:
        """The cost vector of the build the bot saves for with this hand."""
        ...


class Advice:
    """No advice anywhere; a module overrides the points it has something to say at."""

    def stage(self, view: View, prompt: Prompt, sense: BotSense) -> Command | None:
        """A stage of this module (the bot does not know it)."""
        return None

    def first(self, view: View, prompt: Prompt, sense: BotSense) -> Command | None:
        """The main stage, before the bot builds anything."""
        return None

    def after_buildings(self, view: View, prompt: Prompt, sense: BotSense) -> Command | None:
        """The main stage, when the bot builds no city or settlement."""
        return None


def offered(prompt: Prompt, kind: type[Command]) -> Command | None:
    """The first option of this command type, if the prompt offers one."""
    for option in prompt.options:
        if isinstance(option, kind):
            return option
    return None
