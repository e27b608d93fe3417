"""Seafarers scenario: The Pirate Islands (docs/rules/pirate-islands.md §11). 3 or 4 seats.

Each seat sails one route of ships from its home settlement on the main island, past its marked
site, to its pirate fortress; Knights make warships; the pirate fleet circles the desert islands
by the smaller die and attacks the buildings beside it; a seat wins with its own fortress
captured and 10 VP on its turn. No robber, no Longest Road, no Largest Army.

Design notes:
- The map (`maps/pirate_islands.toml`) is fixed; its slots pre-place each seat's settlement and
  ship and mark its site and fortress, its `lane:<slot>` edges are the only ship places, and
  its `[pirate_islands]` table gives the fleet's loop and the main island (common.places).
- Ships are a route piece kind (`ship`); their order is `PirateState.routes` (ships.py).
- The roll: `resolve_dice` is the fleet (fleet.py), which ends with the ruleset's
  `resolve_number` (production, gold, or the 7); a reward choice pauses it in phase REWARD.
- Parts: ships.py (ships, roads, settlements), fleet.py, gold.py, seven.py, warships.py (and
  the deck), fortress.py (attacks, capture, win), view.py (view, redaction), drawing.py (the
  board's marks).
"""

from __future__ import annotations

from events.events import GameCreated, TurnEnded
from events.pirate_islands import FleetLooted, ShipBuilt, ShipMoved, WarshipCommissioned
from services.rules.engine.base import scoring
from services.rules.engine.chance import Dealer
from services.rules.engine.ruleset import Module, RulesetError
from services.rules.engine.scenarios.pirate_islands import (
    fleet,
    fortress,
    gold,
    ids,
    seven,
    ships,
    warships,
)
from services.rules.engine.scenarios.pirate_islands.advice import ADVICE
from services.rules.engine.scenarios.pirate_islands.common import (
    EXT,
    FORTRESS,
    FORTRESS_STRENGTH,
    GOLD,
    MAP,
    MAPS,
    PIRATES,
    REWARD,
    SHIP,
    STEAL,
    pirate,
    places,
)
from services.rules.engine.scenarios.pirate_islands.drawing import drawing
from services.rules.engine.scenarios.pirate_islands.narration import NARRATION
from services.rules.engine.scenarios.pirate_islands.state import PirateState
from services.rules.engine.scenarios.pirate_islands.view import redact_looted, view_ext
from services.rules.engine.state import Rules, State
from services.rules.engine.vocab import PieceKind

__all__ = ["EXT", "MODULE", "PirateState", "ids"]


def init(state: State, created: GameCreated) -> PirateState:
    n = state.n
    pl = places(state.board)
    ps = PirateState(routes=[[pl.slots[seat].first_ship] for seat in range(n)],
                     warships=[0] * n, strength=[FORTRESS_STRENGTH] * n, gold=[0] * n)
    warships.deck_for_seats(state, created)
    return ps


def no_awards(rules: Rules) -> None:
    """Longest Road and Largest Army are not played (§11.12)."""
    dropped = (scoring.derive_longest_road, scoring.derive_largest_army)
    rules.drop_derivers(*dropped)


def reset_turn(rules: Rules) -> None:
    """Ships built and the ship move are per turn."""
    passed = rules.registry.evolvers[TurnEnded]

    def evolve_turn_ended(state: State, e: TurnEnded) -> None:
        passed(state, e)
        ps = pirate(state)
        ps.built = set()
        ps.moved = False

    rules.evolve_with(TurnEnded, evolve_turn_ended, wraps=True)


class PirateIslands(Module[State, None]):
    name = "pirate-islands"
    kind = "scenario"
    title = "The Pirate Islands"
    description = ("Seafarers: sail one route of ships to your pirate fortress, turn Knights "
                   "into warships, survive the pirate fleet and capture the fortress to win.")
    seats = (3, 4)
    map = MAP
    maps = MAPS
    conflicts = {
        "friendly-robber": "there is no robber in The Pirate Islands (combinations.md §13.3)",
        "event-cards": "the pirate fleet moves by the smaller of two dice, and event cards "
                       "carry no dice values (event-cards.md §3.8)",
        "catan-for-two": "The Pirate Islands are played by 3 or 4 players",
    }
    advice = ADVICE
    narration = NARRATION
    stages = {
        REWARD: "a seat stronger than the pirate fleet: the resource it takes from the bank",
        GOLD: "which resources a seat takes for what the gold fields paid it",
        STEAL: "the roller of a 7: whom to draw a random card from, or no one",
    }
    drawing = staticmethod(drawing)

    def create(self, created: dict[str, object], params: None, dealer: Dealer) -> None:
        if created["map"] != MAP:
            raise RulesetError(f"{self.name} is played on its own map {MAP!r}, "
                               f"not {created['map']!r} (pirate_islands.board.map)")

    def install(self, rules: Rules, params: None) -> None:
        rules.vocab.add_piece(PieceKind(SHIP, "edge", 15, route=True))
        rules.vocab.add_piece(PieceKind(FORTRESS, "vertex", 1, level=1, vp=1))
        rules.module_state(PIRATES, init, view=view_ext)
        rules.redact(FleetLooted, redact_looted)
        # Public moves without chance an undo may take back (like a road, a knight).
        rules.reversible_events(ShipBuilt, ShipMoved, WarshipCommissioned)
        ships.install(rules)
        fleet.install(rules)
        gold.install(rules)
        seven.install(rules)
        warships.install(rules)
        fortress.install(rules)
        no_awards(rules)
        reset_turn(rules)


MODULE = PirateIslands()
