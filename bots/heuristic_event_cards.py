"""Heuristic moves for Catan Event Cards (RULES.md §3) that a prompt's default cannot give.

The event stages' defaults are already sensible (give the most plentiful card, take the
scarcest resource, damage the least useful road, rob the richest); what the default of the
main stage (end the turn) never does is mend a damaged road, which blocks every new road.
"""

from __future__ import annotations

from events.commands import Command
from events.event_cards import RepairRoad
from events.prompts import Prompt


def repair_road(prompt: Prompt) -> Command | None:
    """Repair a damaged road as soon as the repair is offered (affordable, own turn)."""
    for option in prompt.options:
        if isinstance(option, RepairRoad):
            return option
    return None
