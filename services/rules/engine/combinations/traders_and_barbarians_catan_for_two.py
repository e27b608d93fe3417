"""Traders & Barbarians with Catan for Two (docs/rules/traders-and-barbarians.md §10.14).

A token action relocates a barbarian to a free path without a road (instead of the robber
action: there is no desert to send it to; `two_player.token_barbarian`); a building next to a
trade hex earns 1 trade token more (`two_player.trade_hex_token`); the turn's second roll skips
2 and 12 as the first does (`roll.reroll`), unless a deck replaces the dice; a toll on a neutral
road goes half (rounded up) to the supply, the rest to the opponent (`two_player.neutral_toll`).
The token rules (price, one action per turn, the supply) are Catan for Two's (`TRADE_TOKENS`).
"""

from __future__ import annotations

from events.catan_for_two import TradeTokensGained
from events.commands import Command
from events.events import DiceRolled, Event, SettlementBuilt
from events.traders_and_barbarians import BarbarianMovedWithTokens, MoveBarbarianWithTokens
from services.rules.engine import hook_keys as hk
from services.rules.engine.base.common import require_current
from services.rules.engine.capabilities import DICE_DECK, SECOND_ROLL, TRADE_TOKENS, TradeTokens
from services.rules.engine.chance import DICE_OUTCOMES, Dealer
from services.rules.engine.combinations import Combination
from services.rules.engine.rules import reject
from services.rules.engine.scenarios.traders_and_barbarians.common import (
    NEUTRAL_TOLL,
    places,
    tb,
)
from services.rules.engine.scenarios.traders_and_barbarians.data import BARBARIANS, P
from services.rules.engine.state import MAIN, NO_ONE, Rules, State

TOKEN_BARBARIAN = P + "two_player.token_barbarian"
TRADE_HEX_TOKENS = 1


def tokens_of(state: State) -> TradeTokens:
    tokens = state.rules.capability(TRADE_TOKENS)
    assert tokens is not None, "installed only with Catan for Two, which provides them"
    return tokens


# --- the token action -----------------------------------------------------------------------


def token_paths(state: State) -> list[int]:
    """Free paths without a road: where the token action may send a barbarian."""
    taken = set(tb(state).barbarians)
    owner = state.edge_owner
    return [e for e in places(state.board).paths if e not in taken and owner[e] == NO_ONE]


def move_with_tokens(state: State, cmd: MoveBarbarianWithTokens, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    tokens = tokens_of(state)
    problem = tokens.action_problem(state, cmd.seat)
    if problem is not None:
        raise problem
    if not 0 <= cmd.barbarian < BARBARIANS or cmd.edge not in token_paths(state):
        raise reject(TOKEN_BARBARIAN, "a barbarian goes to a free path without a road")
    return [BarbarianMovedWithTokens(seat=cmd.seat, barbarian=cmd.barbarian, edge=cmd.edge,
                                     tokens=tokens.price(state, cmd.seat))]


def token_options(state: State, seat: int, phase: str) -> list[Command]:
    if phase != MAIN or tokens_of(state).action_problem(state, seat) is not None:
        return []
    paths = token_paths(state)
    return [MoveBarbarianWithTokens(seat=seat, barbarian=b, edge=e)
            for b in range(BARBARIANS) for e in paths]


def evolve_moved(state: State, e: BarbarianMovedWithTokens) -> None:
    tokens_of(state).spend(state, e.seat, e.tokens)
    tb(state).barbarians[e.barbarian] = e.edge


# --- a building next to a trade hex ---------------------------------------------------------


def derive_trade_hex_token(state: State, dealer: Dealer) -> list[Event]:
    """1 token more for the building just placed next to a trade hex (set-up too, as Catan
    for Two's own gains; only what the supply holds)."""
    seat, v = tb(state).built
    if seat != state.current or seat >= state.n or v == NO_ONE:
        return []
    trade = set(places(state.board).trade_hexes)
    supply = tokens_of(state).supply(state)
    if not trade & set(state.board.topo.vertex_land_hexes[v]) or supply <= 0:
        return []
    return [TradeTokensGained(seat=seat, tokens=min(TRADE_HEX_TOKENS, supply), reason="trade hex")]


# --- the second roll, tolls -----------------------------------------------------------------


def second_roll(state: State, seat: int, dealer: Dealer, first: int) -> list[Event]:
    """Catan for Two's second roll re-rolls the first total; here 2 and 12 as well
    (`roll.reroll`): one draw among the totals left, by their dice weights."""
    weights = tuple(0 if a + b in (2, 12, first) else 1 for a, b in DICE_OUTCOMES)
    d1, d2 = dealer.pick(f"dice:{state.rolls}", DICE_OUTCOMES, weights)
    return [DiceRolled(seat=seat, d1=d1, d2=d2, n=state.rolls),
            *state.rules.hooks.resolve_number(state, seat, d1 + d2, dealer)]


def neutral_toll(state: State, seat: int, gold: int) -> tuple[int, int | None, int]:
    """The supply takes the larger half, the opponent the rest."""
    to_bank = (gold + 1) // 2
    opponent = (seat + 1) % state.n
    return gold, (opponent if gold > to_bank else None), to_bank


def install(rules: Rules) -> None:
    rules.handle(MoveBarbarianWithTokens, move_with_tokens)
    rules.allow(MAIN, MoveBarbarianWithTokens)
    rules.add_hook(hk.EXTRA_OPTIONS, token_options)
    rules.evolve_with(BarbarianMovedWithTokens, evolve_moved)
    rules.derive((SettlementBuilt,), derive_trade_hex_token)
    rules.provide(NEUTRAL_TOLL, neutral_toll)
    if rules.capability(DICE_DECK) is None:  # a deck replaces the dice: its pair's rule draws
        rules.provide(SECOND_ROLL, second_roll)


COMBINATION = Combination(
    pair=("traders-and-barbarians", "catan-for-two"), install=install,
    description="token action on a barbarian, a token for a trade hex, tolls on neutral roads, "
                "2 and 12 re-rolled on the second roll")
