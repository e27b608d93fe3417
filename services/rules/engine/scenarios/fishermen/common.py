"""The Fishermen of Catan: constants, rule ids and the module state (see the package docstring)."""

from __future__ import annotations

from typing import Final, Protocol

from events.fishermen import FishAction
from services.rules.engine.modstate import StateKey
from services.rules.engine.rules import register
from services.rules.engine.ruleset import Capability
from services.rules.engine.scenarios.fishermen.state import FishState
from services.rules.engine.state import State

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


def starting_fish(grounds: tuple[int, ...], seats: int,
                  start: tuple[int, ...] = NO_FISH) -> FishState:
    """The fish at the start: `start` tokens (by kind) in each hand, the rest in the supply."""
    return FishState(
        grounds=grounds,
        supply=[total - seats * s for total, s in zip(START_SUPPLY, start, strict=True)],
        hands=[list(start) for _ in range(seats)],
        due=[0] * seats,
    )


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
