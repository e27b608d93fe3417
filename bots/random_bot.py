"""The random bot: a uniformly random legal command (the benchmark's player)."""

from __future__ import annotations

import random

from bots.sdk import discard_command, random_discard
from events.commands import Command
from events.prompts import Prompt, View
from events.types import bundle_to_vector


class RandomBot:
    name = "random"
    needs_view = False

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View | None, prompt: Prompt) -> Command:
        if prompt.options:
            # choice(seq) is seq[randrange(len(seq))]: the same draw, one call fewer.
            return self.rng.choice(prompt.options)
        if prompt.discard and prompt.hand is not None:
            hand = bundle_to_vector(prompt.hand)
            return discard_command(prompt.seat, random_discard(self.rng, hand, prompt.discard))
        return prompt.default
