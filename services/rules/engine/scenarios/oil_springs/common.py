"""Oil Springs' constants, rule ids, the springs and the key of the module state
(docs/rules/oil-springs.md §12)."""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from services.rules.engine.board import Board
from services.rules.engine.modstate import StateKey
from services.rules.engine.rules import register
from services.rules.engine.scenarios.oil_springs.state import OilState
from services.rules.engine.state import State

NAME = "oil-springs"
EXT = "oil-springs"
OIL = "oil"
SPRING = "oil_spring"
SUPPLY = 15  # §12.1
HAND_LIMIT = 4  # §12.3
METROPOLISES = 4  # tokens shared by all players
MARKER_MAX = 5
TRACK_SPACES = 5  # the fifth destroyed token abandons the island
WIN_BONUS = 2  # 12 VP instead of the base 10
REFINED = 2  # cards one oil becomes
METROPOLIS_OIL = 2
SPRING_LOSS = 3  # oil a polluted spring removes from the game
SEQUESTER_VP = 3  # sequestered oil per VP
CHAMPION_AT = 3

STARTING = "starting"
WIDE_OPEN = "wide_open"

register({
    "oil_springs.board.springs": "Oil Springs: oil springs lie on (0,0) (number 5), (2,-2) and (2,-1); they replace the terrain there and produce only oil.",
    "oil_springs.robber.offboard_start": "Oil Springs: the robber starts off the board and enters on the first 7 or Knight.",
    "oil_springs.oil.production": "Oil Springs: a spring pays 1/2/3 oil per settlement/city/metropolis, token by token in rounds from the roller, until everyone is paid or the oil runs out.",
    "oil_springs.oil.hand_limit": "Oil Springs: a player holds at most 4 oil; oil beyond that is not taken.",
    "oil_springs.oil.supply": "Oil Springs: the supply starts with 15 oil.",
    "oil_springs.oil.discard": "Oil Springs: on a 7 oil counts with resources for the limit and may be discarded.",
    "oil_springs.oil.steal": "Oil Springs: the robber's thief takes either 1 oil (victim has oil, thief under the limit) or a random resource card.",
    "oil_springs.oil.no_maritime": "Oil Springs: maritime trades never give or take oil.",
    "oil_springs.oil.domestic_trade": "Oil Springs: oil may be traded between players within the limit (nobody ends a trade with more than 4).",
    "oil_springs.oil.year_of_plenty": "Oil Springs: Year of Plenty may take oil (2 oil, or 1 oil and 1 resource); oil beyond the limit is not taken.",
    "oil_springs.oil.monopoly": "Oil Springs: Monopoly on oil takes one token at a time from the next player onwards, up to the limit.",
    "oil_springs.use.own_turn": "Oil Springs: oil is used (or sequestered) on the player's own turn after the roll.",
    "oil_springs.use.refine": "Oil Springs: 1 oil becomes 2 of one resource other than oil, while the bank has them.",
    "oil_springs.use.marker_cap": "Oil Springs: each oil used moves the disaster marker up by 1; nothing may push it past 5.",
    "oil_springs.metropolis.cost": "Oil Springs: a metropolis costs 1 brick, 1 grain, 1 ore and 2 oil and upgrades one of the player's cities.",
    "oil_springs.metropolis.limit": "Oil Springs: there are 4 metropolis tokens for all players together.",
    "oil_springs.metropolis.value": "Oil Springs: a metropolis is worth 3 VP, produces 3 and is never flooded.",
    "oil_springs.sequester.once_per_turn": "Oil Springs: at most one oil is sequestered per turn; it does not move the marker.",
    "oil_springs.sequester.exclusive": "Oil Springs: with the starting rules a turn either uses oil or sequesters, not both.",
    "oil_springs.sequester.vp": "Oil Springs: every 3 sequestered oil are worth 1 VP.",
    "oil_springs.champion.first": "Oil Springs: the first player with 3 sequestered oil takes Champion of the Environment (1 VP).",
    "oil_springs.champion.exceed": "Oil Springs: the Champion moves to a player whose sequestered count is higher than the holder's.",
    "oil_springs.disaster.timing": "Oil Springs: a disaster is resolved at the end of the turn in which the marker reached 5, before the next turn.",
    "oil_springs.disaster.flood": "Oil Springs: on a 7 coastal settlements are removed and coastal cities reduced; metropolises and roads stay.",
    "oil_springs.disaster.pollution": "Oil Springs: another total destroys a random hex with that number: its token goes to the track and it never produces again.",
    "oil_springs.disaster.spring": "Oil Springs: pollution on a spring removes 3 oil from the game, taken from players round-robin when the supply is short.",
    "oil_springs.disaster.reset": "Oil Springs: after the disaster the marker returns to 0.",
    "oil_springs.robber.destroyed_hex": "Oil Springs: the robber never goes to a destroyed hex.",
    "oil_springs.win.target": "Oil Springs: the game is won with 12 VP on the player's own turn (13 with Harbormaster).",
    "oil_springs.win.after_disaster": "Oil Springs: the win check waits for a pending disaster to be resolved.",
    "oil_springs.end.abandoned": "Oil Springs: the fifth destroyed token ends the game without a winner; the Champion's Pyrrhic victory is recorded.",
    "oil_springs.robber.no_desert": "Oil Springs: with Friendly Robber or Event Cards, \"to the desert\" means off the board.",
})


@lru_cache(maxsize=64)
def _springs(board: Board) -> tuple[int, ...]:
    return tuple(h for h, t in enumerate(board.hex_terrain) if t == SPRING)


def springs(state: State) -> tuple[int, ...]:
    """The oil springs' hexes: the board's, fixed for the game, so found once per board and
    not copied with the state."""
    return _springs(state.board)


def oil_state(state: State) -> OilState:
    ext: OilState = state.ext[EXT]
    return ext


def oil_of(state: State, seat: int) -> int:
    return state.players[seat].hand[oil_state(state).oil]


def room(state: State, seat: int) -> int:
    """How much more oil `seat` may hold."""
    return max(0, HAND_LIMIT - oil_of(state, seat))


OIL_STATE: Final = StateKey(EXT, OilState)  # the module's state (modstate.py)
