"""What the heuristic bot should do in Catan Event Cards (bots ask `Module.advice`).

The event stages' defaults are already sensible (give the most plentiful card, take the
scarcest resource, damage the least useful road, rob the richest); what the default of the
main stage (end the turn) never does is mend a damaged road, which blocks every new road.
"""

from __future__ import annotations

from events.commands import Command
from events.event_cards import RepairRoad
from events.prompts import Prompt, View
from services.rules.engine.advice import Advice, BotSense, offered


class EventCardsAdvice(Advice):
    def after_buildings(self, view: View, prompt: Prompt, sense: BotSense) -> Command | None:
        """Repair a damaged road as soon as the repair is offered (affordable, own turn)."""
        return offered(prompt, RepairRoad)


ADVICE = EventCardsAdvice()
