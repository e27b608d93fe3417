"""What the heuristic bot should do in the Pirate Islands' own places (bots ask `Module.advice`).

The base bot never sails, commissions warships or attacks, and it does not know the fleet's
reward, the gold choice or the 7's steal. So: a warship whenever a card allows (it guards
against the fleet and wins the fortress); attack the fortress once the odds are good (4+
warships: a hit on 1-3 of the die, a loss of ships only on a 5 or 6), or with 2+ when the
points are there; build the next ship of the route after the buildings; name what the next
build needs most; draw on a 7 from the seat with the most cards."""

from __future__ import annotations

from events.commands import Command
from events.pirate_islands import (
    AttackFortress,
    BuildShip,
    ChooseFleetReward,
    ChooseGold,
    CommissionWarship,
    StealOnSeven,
)
from events.prompts import Prompt, View
from events.types import RESOURCE_INDEX, bundle_to_vector
from services.rules.engine.advice import Advice, BotSense, offered

EXT = "pirate-islands"
ATTACK_WARSHIPS = 4
LATE_WARSHIPS = 2
LATE_VP = 8


class PirateIslandsAdvice(Advice):
    def stage(self, view: View, prompt: Prompt, sense: BotSense) -> Command | None:
        hand = bundle_to_vector(view.players[prompt.seat].hand or {})
        goal = sense.goal(hand)
        need = [max(0, goal[r] - hand[r]) for r in range(5)]
        rewards = [o for o in prompt.options if isinstance(o, ChooseFleetReward)]
        if rewards:
            return max(rewards, key=lambda o: (need[RESOURCE_INDEX[o.resource]],
                                               -hand[RESOURCE_INDEX[o.resource]]))
        golds = [o for o in prompt.options if isinstance(o, ChooseGold)]
        if golds:
            def fit(o: ChooseGold) -> tuple[int, int]:
                got = bundle_to_vector(o.resources)
                return (sum(min(g, n) for g, n in zip(got, need, strict=True)),
                        -max(h + g for h, g in zip(hand, got, strict=True)))
            return max(golds, key=fit)
        steals = [o for o in prompt.options if isinstance(o, StealOnSeven) and o.victim is not None]
        if steals:
            return max(steals, key=lambda o: (view.players[o.victim or 0].cards,
                                              view.players[o.victim or 0].public_vp))
        return None

    def first(self, view: View, prompt: Prompt, sense: BotSense) -> Command | None:
        warship = offered(prompt, CommissionWarship)
        if warship is not None:
            return warship
        attack = offered(prompt, AttackFortress)
        if attack is not None:
            warships = view.ext.get(EXT, {}).get("warships", [0] * len(view.players))[prompt.seat]
            me = view.players[prompt.seat]
            if warships >= ATTACK_WARSHIPS or (warships >= LATE_WARSHIPS and me.public_vp >= LATE_VP):
                return attack
        return None

    def after_buildings(self, view: View, prompt: Prompt, sense: BotSense) -> Command | None:
        return offered(prompt, BuildShip)


ADVICE = PirateIslandsAdvice()
