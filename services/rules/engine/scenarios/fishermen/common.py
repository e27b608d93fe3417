"""The Fishermen of Catan: constants, rule ids and the module state (see the package docstring)."""

from __future__ import annotations

from typing import Any, Final, Protocol

from mypy_extensions import mypyc_attr

from events.fishermen import FishAction
from services.rules.engine.modstate import StateKey
from services.rules.engine.rules import register
from services.rules.engine.ruleset import Capability
from services.rules.engine.state import MAIN, NO_ONE, State

EXT = "fishermen"
NAME = "fishermen"
MAP = "fishermen"
GROUNDS_KEY = "fishermen.grounds"  # GameCreated.setup: flat (q, r, number) per fishing ground
RETURN = "fishermen.return"  # phase: seats above the limit give tokens back

LAKE = "lake"
LAKE_NUMBERS = (2, 3, 11, 12)
GROUND_FRAME_INDICES = (1, 5, 7, 11, 13, 17)
GROUND_NUMBERS = (4, 5, 6, 8, 9, 10)

BOOT = 0  # the kind of the old boot; kinds 1, 2, 3 are the fish tokens by their fish
KINDS = (BOOT, 1, 2, 3)
START_SUPPLY = (1, 11, 10, 8)  # the boot, then tokens of 1, 2 and 3 fish
HAND_LIMIT = 7
TWO_PLAYER_START = (0, 2, 2, 1)  # Catan for Two: two 1s, two 2s, one 3 per player
NO_FISH = (0, 0, 0, 0)

PRICES: dict[FishAction, int] = {"robber": 2, "steal": 3, "bank": 4, "road": 5, "devcard": 7}

register({
    "fishermen.board.lake": "Fishermen: the lake replaces the desert, lies off the coast (swapped inward if shuffled onto it), carries no token and yields fish on 2, 3, 11 and 12.",
    "fishermen.board.grounds": "Fishermen: the six fishing grounds lie at frame indices 1, 5, 7, 11, 13, 17 with the numbers 4, 5, 6, 8, 9, 10 shuffled; each serves the three vertices of its two land edges.",
    "fishermen.tokens.production": "Fishermen: a building on a fishing ground's vertex (or the lake's corner) draws 1 token per settlement and 2 per city when its number is rolled, unless the robber blocks the lake.",
    "fishermen.tokens.setup": "Fishermen: a second set-up settlement next to a fishing ground or the lake draws 1 token.",
    "fishermen.tokens.order": "Fishermen: tokens are drawn after the resources, player by player clockwise from the roller, each drawing all they are owed.",
    "fishermen.tokens.reshuffle": "Fishermen: an empty supply is rebuilt from the spent tokens; if none are spent, the remaining draws are lost.",
    "fishermen.tokens.hand_limit": "Fishermen: a player holds at most 7 fish tokens; at the limit a drawn token is kept only by returning another (the returns are made after the roll's draws).",
    "fishermen.tokens.not_resources": "Fishermen: fish tokens are not resource cards: outside the 7-card limit, never discarded, stolen, monopolised or traded.",
    "fishermen.spend.own_turn": "Fishermen: fish are spent only on the spender's own turn, after the roll (the robber action also before it).",
    "fishermen.spend.tokens_held": "Fishermen: the tokens paid must be fish tokens (1, 2 or 3 fish) the spender holds.",
    "fishermen.spend.no_change": "Fishermen: the tokens spent must carry at least the price in fish; no change is given.",
    "fishermen.spend.robber": "Fishermen: 2 fish take the robber off the board; the robber must be on the board.",
    "fishermen.spend.steal": "Fishermen: 3 fish draw one random resource card from another player who holds cards.",
    "fishermen.spend.bank": "Fishermen: 4 fish take one resource of choice that the bank still has.",
    "fishermen.spend.road": "Fishermen: 5 fish build one road free, with the normal placement rules and a piece from supply.",
    "fishermen.spend.devcard": "Fishermen: 7 fish take the top development card free; the deck must not be empty; the card is not played this turn.",
    "fishermen.robber.offboard_start": "Fishermen: the robber starts off the board.",
    "fishermen.robber.enter": "Fishermen: an off-board robber enters on the next 7 or Knight, on any land hex.",
    "fishermen.boot.reveal": "Fishermen: the old boot is shown when drawn, is not a fish token and gives no replacement draw.",
    "fishermen.boot.pass": "Fishermen: the holder may pass the boot, on their turn after rolling, only to a player with at least their public VP.",
    "fishermen.boot.target": "Fishermen: the boot's holder needs one VP more to win.",
    "fishermen.win.target": "Fishermen: the game is won with 10 VP (plus one for the boot's holder, plus Harbormaster's one).",
    "fishermen.return.count": "Fishermen: a seat above the limit gives back exactly its excess, from the tokens it holds.",
    "fishermen.two_player.start": "Fishermen with Catan for Two: each player starts with fish tokens 1, 1, 2, 2, 3 and no trade tokens are used.",
    "fishermen.two_player.discount": "Fishermen with Catan for Two: the player with fewer public VP pays one fish less per action.",
    "fishermen.event_cards.robber_flees": "Fishermen with Event Cards: Robber Flees takes the robber off the board.",
    "fishermen.friendly_robber.offboard": "Fishermen with Friendly Robber: a robber with no legal hex leaves the board.",
})


class Waters:
    """Where fish come from, fixed for a game: the fishing grounds (sea hex, number, the land
    vertices that fish there) and the lake (hex, its corners). Shared by every copy."""

    __slots__ = ("grounds", "lake", "lake_vertices", "fishing_vertices")

    def __init__(self, grounds: tuple[tuple[int, int, tuple[int, ...]], ...], lake: int,
                 lake_vertices: tuple[int, ...]) -> None:
        self.grounds = grounds
        self.lake = lake
        self.lake_vertices = lake_vertices
        self.fishing_vertices = frozenset(lake_vertices).union(*(vs for _, _, vs in grounds))


# Copies start from `FishState.__new__`, without __init__: compiled, that takes a class whose
# `__new__` does not call `__init__` (and interpreted code, the scenario and tests, still
# constructs it with its arguments: hence not mypyc's serializable=True, which skips __init__
# then).
@mypyc_attr(allow_interpreted_subclasses=True)
class FishState:
    """The fish of a game. Token counts are kept by kind (index 0 the boot, 1-3 the fish on
    a token): the supply (face down), the spent pile (face up) and each seat's hand (hidden
    values, public count). Nothing here is an order: a draw weights the kinds left."""

    __slots__ = ("waters", "supply", "spent", "hands", "boot", "draws", "due", "resume")

    def __init__(self, waters: Waters, seats: int, start: tuple[int, ...] = NO_FISH) -> None:
        self.waters = waters
        self.hands = [list(start) for _ in range(seats)]
        self.supply = [total - seats * s for total, s in zip(START_SUPPLY, start, strict=True)]
        self.spent = [0, 0, 0, 0]
        self.boot = NO_ONE  # the boot's holder
        self.draws = 0  # tokens drawn so far (chance index "fish:<n>")
        self.due = [0] * seats  # tokens each seat must give back now
        self.resume = MAIN  # the phase after the returns

    def copy(self) -> FishState:
        f = FishState.__new__(FishState)
        f.waters = self.waters
        f.supply = self.supply[:]
        f.spent = self.spent[:]
        f.hands = [h[:] for h in self.hands]
        f.boot = self.boot
        f.draws = self.draws
        f.due = self.due[:]
        f.resume = self.resume
        return f

    def dump(self) -> dict[str, Any]:
        w = self.waters
        return {
            "waters": [[list(g[:2]) + [list(g[2])] for g in w.grounds], w.lake, list(w.lake_vertices)],
            "supply": self.supply[:], "spent": self.spent[:], "hands": [h[:] for h in self.hands],
            "boot": self.boot, "draws": self.draws, "due": self.due[:], "resume": self.resume,
        }

    @staticmethod
    def load(d: dict[str, Any]) -> FishState:
        grounds, lake, lake_vertices = d["waters"]
        waters = Waters(tuple((h, n, tuple(vs)) for h, n, vs in grounds), lake, tuple(lake_vertices))
        f = FishState.__new__(FishState)
        f.waters = waters
        f.supply = list(d["supply"])
        f.spent = list(d["spent"])
        f.hands = [list(h) for h in d["hands"]]
        f.boot = d["boot"]
        f.draws = d["draws"]
        f.due = list(d["due"])
        f.resume = d["resume"]
        return f


class Discount(Protocol):
    """Fish `seat` pays less per action, as the rule of a pair says (with Catan for Two: one
    fish less for the player behind, §6.8)."""

    def __call__(self, state: State, seat: int, /) -> int: ...


# Provided by engine/combinations/fishermen_catan_for_two.py.
FISH_DISCOUNT: Capability[Discount] = Capability("fishermen: discount on fish actions")


def fish(state: State) -> FishState:
    ext: FishState = state.ext[EXT]
    return ext


def tokens_of(hand: list[int]) -> int:
    """How many fish tokens a hand holds (the boot is not one)."""
    return hand[1] + hand[2] + hand[3]


def fish_of(hand: list[int]) -> int:
    return hand[1] + 2 * hand[2] + 3 * hand[3]


FISH: Final = StateKey(EXT, FishState)  # the module's state (modstate.py)
