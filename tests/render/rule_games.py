"""One played game of each rule system (the base game, each variant, each scenario), for the
pictures' and the narration's tests: recorded as the rules service stores it, cached per run."""

from __future__ import annotations

from recording import Recorder, bot_chooser

from events.events import ModuleSpec
from services.rules.record import GameRecord

RULE_SYSTEMS = ("base", "catan-for-two", "event-cards", "friendly-robber", "harbormaster",
                "victory-points", "barbarian-attack", "caravans", "fishermen", "oil-springs",
                "pirate-islands", "rivers", "traders-and-barbarians")

_PLAYED: dict[str, GameRecord] = {}


def played_game(name: str) -> GameRecord:
    """A whole game of `name`: the heuristic bot in seat 0 against random ones (3 seats; 2
    with Catan for Two), to its winner or its turn limit."""
    if name not in _PLAYED:
        modules = () if name == "base" else (ModuleSpec(name=name),)
        seats = 2 if name == "catan-for-two" else 3
        rec = Recorder.new(f"g-{name}", f"people:{name}".encode(), seats=seats,
                           modules=modules, turn_limit=120)
        rec.play(bot_chooser(("heuristic",) + ("random",) * (seats - 1)))
        _PLAYED[name] = rec.record()
    return _PLAYED[name]
