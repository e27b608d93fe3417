"""Catan Event Cards' events in plain words (the renderer asks `Module.narration`)."""

from __future__ import annotations

from events.event_cards import (
    EventCardDrawn,
    EventChoiceRequired,
    EventResourcesGranted,
    NeighborsGifted,
    RoadsDamaged,
)
from events.events import Event
from services.rules.engine.narration import Narrator, Places, cards, load_templates, narrator


def _name(event: str) -> str:
    return event.replace("_", " ").title()


def _drawn(e: EventCardDrawn, at: Places) -> str:
    if e.event == "new_year":
        return f"{at.who(e.seat)} reveals New Year: the event deck is rebuilt"
    what = "" if e.event == "none" else f" ({_name(e.event)})"
    return f"{at.who(e.seat)} draws event card {e.number}{what}"


def _required(e: EventChoiceRequired, at: Places) -> str:
    who = ", ".join(at.who(s) for s in e.seats) or "nobody"
    return f"{_name(e.event)}: {who} must choose"


def _damaged(e: RoadsDamaged, at: Places) -> str:
    hit = [f"{at.who(s)} at {at.edge(r)}" for s, r in enumerate(e.edges) if r >= 0]
    return "Earthquake: roads damaged: " + (", ".join(hit) or "none")


def _gifted(e: NeighborsGifted, at: Places) -> str:
    gifts = ", ".join(f"{at.who(g)} gives {r or 'a card'} to {at.who(t)}"
                      for g, t, r in zip(e.givers, e.receivers, e.resources, strict=True))
    return f"Good Neighbors: {gifts or 'nobody gives anything'}"


def _granted(e: EventResourcesGranted, at: Places) -> str:
    got = "; ".join(f"{at.who(s)} takes {cards({str(k): n for k, n in b.items()})}"
                    for s, b in enumerate(e.gains) if b) or "nobody takes anything"
    short = f" (the bank is short of {', '.join(e.short)})" if e.short else ""
    return f"{_name(e.event)}: {got}{short}"


NARRATION: dict[type[Event], Narrator] = load_templates(
    "services.rules.engine.variants", "event_cards_narration.toml"
) | dict([
    narrator(EventCardDrawn, _drawn),
    narrator(EventChoiceRequired, _required),
    narrator(RoadsDamaged, _damaged),
    narrator(NeighborsGifted, _gifted),
    narrator(EventResourcesGranted, _granted),
])
