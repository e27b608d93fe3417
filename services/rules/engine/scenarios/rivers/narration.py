"""The Rivers of Catan's events in plain words (the renderer asks `Module.narration`)."""

from __future__ import annotations

from events.events import Event
from events.rivers import GoldEarned
from services.rules.engine.narration import Narrator, Places, load_templates, narrator


def _earned(e: GoldEarned, at: Places) -> str:
    gold = f"{e.gold} gold"
    if e.reason == "sale":
        return f"{at.who(e.seat)} receives {gold} from the bank"
    where = at.vertex(e.place) if e.reason == "settlement" else at.edge(e.place)
    by = "across the river" if e.reason == "bridge" else "by the river"
    return f"{at.who(e.seat)} earns {gold} for the {e.reason} {by} at {where}"


NARRATION: dict[type[Event], Narrator] = load_templates(__name__.rpartition(".")[0],
                                                       "narration.toml") | dict([
    narrator(GoldEarned, _earned),
])
