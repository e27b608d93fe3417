"""What the heuristic bot should do with fish (bots ask `Module.advice`).

The main stage's default never spends fish, so, first thing in the main stage:
- pass the old boot when allowed (to the leader: the boot costs its holder a VP of target);
- buy the robber off a hex of ours;
- take a development card for 7 fish (a knight, a VP or progress: the best value per fish);
- take the one resource that completes the next build for 4;
- near the limit of 7 tokens, steal from the fullest hand rather than waste draws.
Each time with the payment that spends the fewest fish. Returns give back the smallest tokens.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from events.commands import Command
from events.fishermen import (
    FishRemoveRobber,
    FishSteal,
    FishTakeDevelopmentCard,
    FishTakeResource,
    PassOldBoot,
    ReturnFish,
)
from events.prompts import Prompt, View
from events.types import RESOURCES, bundle_to_vector
from services.rules.engine.advice import Advice, BotSense
from services.rules.engine.scenarios.fishermen.common import EXT, HAND_LIMIT, RETURN
from services.rules.engine.scenarios.fishermen.view import FishView

NEAR_LIMIT = HAND_LIMIT - 1


Paid = FishRemoveRobber | FishSteal | FishTakeResource | FishTakeDevelopmentCard
P = TypeVar("P", bound=Command)


def cheapest(options: Sequence[Paid]) -> Command | None:
    """The option paying the fewest fish (then the fewest tokens)."""
    return min(options, key=lambda o: (sum(o.tokens), len(o.tokens)), default=None)


def of(prompt: Prompt, kind: type[P]) -> list[P]:
    return [o for o in prompt.options if isinstance(o, kind)]


class FishermenAdvice(Advice):
    def stage(self, view: View, prompt: Prompt, sense: BotSense) -> Command | None:
        if prompt.stage != RETURN:
            return None
        return min(of(prompt, ReturnFish), key=lambda o: sum(o.tokens), default=None)

    def first(self, view: View, prompt: Prompt, sense: BotSense) -> Command | None:
        fx: FishView | None = view.ext.get(EXT)
        if fx is None:
            return None
        seat = prompt.seat
        passes = of(prompt, PassOldBoot)
        if passes:
            return max(passes, key=lambda o: (view.players[o.to].public_vp, -o.to))
        robber = of(prompt, FishRemoveRobber)
        if robber and sense.robber_hurts_me(view, seat):
            return cheapest(robber)
        card = cheapest(of(prompt, FishTakeDevelopmentCard))
        if card is not None:
            return card
        hand = bundle_to_vector(view.players[seat].hand or {})
        goal = sense.goal(hand)
        missing = [max(0, g - h) for g, h in zip(goal, hand, strict=False)]
        if sum(missing) == 1:
            want = RESOURCES[missing.index(1)]
            take = cheapest([o for o in of(prompt, FishTakeResource) if o.resource == want])
            if take is not None:
                return take
        steals = of(prompt, FishSteal)
        if steals and fx["tokens"][seat] >= NEAR_LIMIT:
            fullest = max(view.players[o.victim].cards for o in steals)
            return cheapest([o for o in steals if view.players[o.victim].cards == fullest])
        return None


ADVICE = FishermenAdvice()
