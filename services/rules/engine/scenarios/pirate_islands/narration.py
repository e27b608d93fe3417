"""The Pirate Islands' events in plain words (the renderer asks `Module.narration`)."""

from __future__ import annotations

from events.events import Event
from events.pirate_islands import (
    FleetLooted,
    FleetMoved,
    FortressAttacked,
    GoldDue,
    SevenStealChosen,
    ShipMoved,
)
from services.rules.engine.narration import Narrator, Places, cards, load_templates, narrator

RESULTS = {
    "hit": "the fortress loses 1 strength",
    "tie": "a tie: the front ship is lost",
    "repelled": "repelled: the two front ships are lost",
}


def _moved(e: FleetMoved, at: Places) -> str:
    return f"the pirate fleet sails {e.steps} sea hex(es) to {at.hex(e.hex)}"


def _ship_moved(e: ShipMoved, at: Places) -> str:
    return f"{at.who(e.seat)} moved a ship from {at.edge(e.ship)} to {at.edge(e.to)}"


def _looted(e: FleetLooted, at: Places) -> str:
    what = f"{e.count} card(s)" if e.resources is None else cards(
        {str(k): n for k, n in e.resources.items()})
    return f"the pirate fleet loots {what} from {at.who(e.seat)}"


def _fortress(e: FortressAttacked, at: Places) -> str:
    return (f"{at.who(e.seat)} attacks their fortress with {e.warships} warship(s) and throws "
            f"{e.roll}: {RESULTS[e.result]} (strength {e.strength})")


def _gold(e: GoldDue, at: Places) -> str:
    due = [f"{at.who(s)} {n}" for s, n in enumerate(e.counts) if n]
    return "gold fields pay resources of choice: " + ", ".join(due)


def _steal(e: SevenStealChosen, at: Places) -> str:
    if e.victim is None:
        return f"{at.who(e.seat)} draws from no one"
    return f"{at.who(e.seat)} draws a card from {at.who(e.victim)}"


NARRATION: dict[type[Event], Narrator] = load_templates(__name__.rpartition(".")[0],
                                                       "narration.toml") | dict([
    narrator(FleetMoved, _moved),
    narrator(ShipMoved, _ship_moved),
    narrator(FleetLooted, _looted),
    narrator(FortressAttacked, _fortress),
    narrator(GoldDue, _gold),
    narrator(SevenStealChosen, _steal),
])
