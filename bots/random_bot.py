"""The random bot: a uniformly random legal command (the benchmark's player)."""

from __future__ import annotations

from bots.sdk import DecisionRandom, discard_command, random_discard
from events.commands import Command
from events.prompts import Prompt, View
from events.types import bundle_to_vector


class RandomBot:
    name = "random"
    needs_view = False

    def __init__(self, seed: int = 0) -> None:
        self.rng = DecisionRandom(seed)

    def choose(self, view: View | None, prompt: Prompt) -> Command:
        options = prompt.options
        if options:
            # choice(seq) is seq[randrange(len(seq))]: the same draw, one call fewer. With one
            # option and the decision reseeded, the draw is skipped and its seed never set.
            if len(options) == 1 and self.rng.seed_pending:
                return options[0]
            return self.rng.choice(options)
        if prompt.discard and prompt.hand is not None:
            hand = bundle_to_vector(prompt.hand)
            return discard_command(prompt.seat, random_discard(self.rng, hand, prompt.discard))
        return prompt.default
