"""The Fishermen's events in plain words (the renderer asks `Module.narration`)."""

from __future__ import annotations

from events.events import Event
from events.fishermen import (
    FishDevelopmentCardTaken,
    FishDrawn,
    FishReturned,
    FishReturnRequired,
    FishSpent,
    OldBootPassed,
    RobberLeftBoard,
)
from services.rules.engine.narration import Narrator, Places, load_templates, narrator

ACTIONS = {
    "robber": "to take the robber off the board",
    "steal": "to steal a card",
    "bank": "to take a resource from the bank",
    "road": "to build a road",
    "devcard": "to take a development card",
}
REASONS = {
    "fish": "bought away with fish",
    "robber_flees": "Robber Flees",
    "no_legal_hex": "it has no legal hex",
}


def tokens(values: tuple[int, ...]) -> str:
    return " + ".join(str(v) for v in values) + " fish"


def _drawn(e: FishDrawn, at: Places) -> str:
    what = "a fish token" if e.fish is None else f"a token of {e.fish} fish"
    return f"{at.who(e.seat)} draws {what}"


def _spent(e: FishSpent, at: Places) -> str:
    return f"{at.who(e.seat)} spends {tokens(e.tokens)} {ACTIONS[e.action]}"


def _returned(e: FishReturned, at: Places) -> str:
    return f"{at.who(e.seat)} gives back {tokens(e.tokens)} (at most 7 fish tokens)"


def _due(e: FishReturnRequired, at: Places) -> str:
    owing = [f"{at.who(s)} {n}" for s, n in enumerate(e.counts) if n]
    return "Too many fish tokens; to give back: " + ", ".join(owing)


def _card(e: FishDevelopmentCardTaken, at: Places) -> str:
    what = "a development card" if e.card is None else f"a {e.card.replace('_', ' ')} card"
    return f"{at.who(e.seat)} takes {what} for fish"


def _passed(e: OldBootPassed, at: Places) -> str:
    return f"{at.who(e.seat)} passes the old boot to {at.who(e.to)}"


def _left(e: RobberLeftBoard, at: Places) -> str:
    return f"The robber leaves the board ({REASONS[e.reason]})"


NARRATION: dict[type[Event], Narrator] = load_templates(__name__.rpartition(".")[0],
                                                       "narration.toml") | dict([
    narrator(FishDrawn, _drawn),
    narrator(FishSpent, _spent),
    narrator(FishReturned, _returned),
    narrator(FishReturnRequired, _due),
    narrator(FishDevelopmentCardTaken, _card),
    narrator(RobberLeftBoard, _left),
    narrator(OldBootPassed, _passed),
])
