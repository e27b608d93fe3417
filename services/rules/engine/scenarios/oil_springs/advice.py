"""How the heuristic bot plays Oil Springs: build metropolises, refine oil into what its next
build lacks while the marker has room, and otherwise sequester oil."""

from __future__ import annotations

from events.commands import Command
from events.oil_springs import BuildMetropolis, RefineOil, SequesterOil
from events.prompts import Prompt, View
from events.types import RESOURCE_INDEX, bundle_to_vector
from services.rules.engine.advice import Advice, BotSense, offered
from services.rules.engine.scenarios.oil_springs.view import OilView

EXT = "oil-springs"
SAFE_MARKER = 3  # refining past this brings the disaster close: leave it to metropolises


class OilAdvice(Advice):
    def first(self, view: View, prompt: Prompt, sense: BotSense) -> Command | None:
        ext: OilView | None = view.ext.get(EXT)
        if ext is None:
            return None
        metropolis = offered(prompt, BuildMetropolis)
        if metropolis is not None:
            return metropolis
        seat = prompt.seat
        oil = ext["oil"][seat]
        hand = bundle_to_vector(view.players[seat].hand or {})
        goal = sense.goal(hand)
        need = [max(0, g - h) for g, h in zip(goal, hand, strict=False)]
        refines = [o for o in prompt.options if isinstance(o, RefineOil)]
        # Refine when it brings the next build within reach; keep 2 oil for a metropolis
        # when the bot has a city.
        keep = 2 if view.players[seat].cities and oil <= 2 else 0
        if refines and ext["marker"] < SAFE_MARKER and oil > keep and 0 < sum(need) <= 2:
            wanted = max(refines, key=lambda o: need[RESOURCE_INDEX[o.resource]])
            if need[RESOURCE_INDEX[wanted.resource]] > 0:
                return wanted
        sequester = offered(prompt, SequesterOil)
        if sequester is not None and (oil >= 3 or not view.players[seat].cities):
            return sequester
        return None


ADVICE = OilAdvice()
