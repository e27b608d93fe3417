"""The Fishermen of Catan with Catan for Two (docs/rules/fishermen.md §6.8): the fish replace
the trade tokens (none are dealt: `fishermen.two_player.start`), each player starts with fish
tokens 1, 1, 2, 2, 3, and the player with fewer public VP pays one fish less per action
(`fishermen.two_player.discount`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from events.events import GameCreated
from services.rules.engine.base.scoring import public_vp
from services.rules.engine.chance import Dealer
from services.rules.engine.combinations import Combination
from services.rules.engine.scenarios.fishermen.common import (
    FISH,
    FISH_DISCOUNT,
    MAP,
    TWO_PLAYER_START,
    starting_fish,
)
from services.rules.engine.scenarios.fishermen.state import FishState
from services.rules.engine.state import Rules, State
from services.rules.engine.variants.catan_for_two.common import TOKENS_KEY


def create(created: dict[str, Any], dealer: Dealer) -> None:
    """On the Fishermen's map the fish replace the trade tokens: none are dealt."""
    if created["map"] == MAP:
        created["setup"][TOKENS_KEY] = [0]


def discount(state: State, seat: int) -> int:
    """One fish less for the player with fewer public VP."""
    return 1 if public_vp(state, seat) < public_vp(state, 1 - seat) else 0


def start_with_two(
    init: Callable[[State, GameCreated], FishState],
) -> Callable[[State, GameCreated], FishState]:
    """With two players, the fish stock starts smaller (TWO_PLAYER_START)."""

    def init_with_start(state: State, created: GameCreated) -> FishState:
        return starting_fish(init(state, created).grounds, state.n, TWO_PLAYER_START)

    return init_with_start


def install(rules: Rules) -> None:
    rules.wrap_state_init(FISH, start_with_two)
    rules.provide(FISH_DISCOUNT, discount)


COMBINATION = Combination(
    pair=("fishermen", "catan-for-two"), install=install, create=create,
    description="fish replace the trade tokens; start fish; one fish less for the player behind")
