"""Catan for Two's constants, rule ids and public state (see the package docstring)."""

from __future__ import annotations

from typing import Final

from services.rules.engine.modstate import StateKey
from services.rules.engine.rules import register
from services.rules.engine.state import State
from services.rules.engine.variants.catan_for_two.state import TwoState as TwoState

EXT = "catan-for-two"
SETUP_KEY = "catan-for-two.neutrals"
# GameCreated.setup: [0] when a scenario replaces the trade tokens (the Fishermen's fish,
# docs/rules/combinations.md §13.3); absent, the 20 tokens are in play.
TOKENS_KEY = "catan-for-two.trade_tokens"
NEUTRAL = "catan_for_two.neutral"  # phase: the active seat builds the owed neutral piece
GIVE_BACK = "catan_for_two.give_back"  # phase: the forced trade's 2 cards go back
# Rule 1 (DECISION): one start settlement per neutral, point-symmetric, off the centre hex.
NEUTRAL_STARTS = (((-1, -1), (0, -1), (-1, 0)), ((1, 1), (0, 1), (1, 0)))
TOKENS_TOTAL = 20
TOKENS_START = 5
KNIGHT_TOKENS = 2
FORCED_CARDS = 2

register({
    "catan_for_two.neutral.start": "Catan for Two: each neutral player starts with 1 settlement, placed before set-up; it blocks by the distance rule.",
    "catan_for_two.neutral.no_production": "Catan for Two: neutral players never take turns, receive resources or get robbed; a neutral may hold Longest Road.",
    "catan_for_two.roll.twice": "Catan for Two: the active player rolls twice; each roll produces (or resolves a 7) before the next.",
    "catan_for_two.roll.differ": "Catan for Two: the second total must differ from the first; a repeated total is re-rolled without effect.",
    "catan_for_two.neutral.build": "Catan for Two: after building a road you build a free road for a neutral of your choice; after a settlement, a neutral settlement (a road if no neutral settlement fits); nothing after a city or a development card.",
    "catan_for_two.neutral.piece": "Catan for Two: the neutral piece is the one the build calls for (a settlement, else a road).",
    "catan_for_two.neutral.unknown": "Catan for Two: neutral pieces go to one of the two neutral players.",
    "catan_for_two.token.price": "Catan for Two: a token action costs 1 token if your public VP are not more than your opponent's, else 2.",
    "catan_for_two.token.once_per_turn": "Catan for Two: at most one token action per turn, after both rolls.",
    "catan_for_two.token.short": "Catan for Two: you must hold the tokens the action costs.",
    "catan_for_two.forced_trade.empty_hand": "Catan for Two: a forced trade needs an opponent holding at least 1 card.",
    "catan_for_two.forced_trade.give_back": "Catan for Two: a forced trade draws 2 cards (1 if the opponent holds 1), then you give back 2 cards you hold.",
    "catan_for_two.robber.at_desert": "Catan for Two: the robber action moves the robber to the desert (no steal); not when it is already there.",
    "catan_for_two.knight.once_per_turn": "Catan for Two: once per turn a face-up knight may be discarded for 2 trade tokens.",
    "catan_for_two.knight.none_face_up": "Catan for Two: only a knight already played (face up) can be discarded.",
    "catan_for_two.token.not_used": "Catan for Two: when a scenario replaces the trade tokens, no tokens are in play: no gains, no token actions, no knight discard.",
    "catan_for_two.token.gain": "Catan for Two: a settlement next to the desert gains 2 tokens, on the coast 1, both 3 (set-up too); an empty supply gives nothing.",
})


def new_two_state(seats: int, in_play: bool = True) -> TwoState:
    """The state at the game's start: each seat's tokens dealt from the supply (none when a
    scenario replaces the tokens)."""
    start = TOKENS_START if in_play else 0
    return TwoState(tokens=[start] * seats,
                    supply=TOKENS_TOTAL - start * seats if in_play else 0)


def two(state: State) -> TwoState:
    ext: TwoState = state.ext[EXT]
    return ext


def neutrals(state: State) -> range:
    return range(state.n, len(state.players))


def opponent(state: State, seat: int) -> int:
    seats: int = state.n
    return (seat + 1) % seats


TWO: Final = StateKey(EXT, TwoState)  # the module's state (modstate.py)
