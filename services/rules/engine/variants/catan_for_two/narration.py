"""Catan for Two's events in plain words (the renderer asks `Module.narration`)."""

from __future__ import annotations

from events.catan_for_two import (
    ForcedTradeDrawn,
    ForcedTradeReturned,
)
from events.events import Event
from services.rules.engine.narration import Narrator, Places, cards, load_templates, narrator


def _drawn(e: ForcedTradeDrawn, at: Places) -> str:
    what = ", ".join(e.cards) if e.cards is not None else f"{e.count} cards"
    return f"{at.who(e.seat)} forces a trade and draws {what} from {at.who(e.victim)}"


def _returned(e: ForcedTradeReturned, at: Places) -> str:
    what = f"{e.count} cards" if e.resources is None else cards(
        {str(k): n for k, n in e.resources.items()})
    return f"{at.who(e.seat)} gives {what} back to {at.who(e.victim)}"


NARRATION: dict[type[Event], Narrator] = load_templates(__name__.rpartition(".")[0],
                                                       "narration.toml") | dict([
    narrator(ForcedTradeDrawn, _drawn),
    narrator(ForcedTradeReturned, _returned),
])
