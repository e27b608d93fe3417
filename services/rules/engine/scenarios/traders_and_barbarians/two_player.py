"""Traders & Barbarians with Catan for Two (docs/rules/traders-and-barbarians.md §10.14): tolls
on neutral roads are split (in `wagon.toll`), a token action relocates a barbarian to a free
path without a road (instead of the robber action: there is no desert to send it to), a
building next to a trade hex earns 1 trade token more, and the turn's second roll skips 2 and
12 as the first does.

Everything here is decided only when Catan for Two's state is in the game (`state.ext`), so
the modules may be listed in any order; its token rules (price, one action per turn, the
supply) are Catan for Two's own (variants/catan_for_two/tokens.py)."""

from __future__ import annotations

from events.catan_for_two import TradeTokensGained
from events.commands import Command
from events.events import DiceRolled, Event, SettlementBuilt
from events.traders_and_barbarians import BarbarianMovedWithTokens, MoveBarbarianWithTokens
from services.rules.engine.base.common import require_current
from services.rules.engine.chance import DICE_OUTCOMES, Dealer
from services.rules.engine.rules import reject
from services.rules.engine.scenarios.traders_and_barbarians.common import EXT, places, tb
from services.rules.engine.scenarios.traders_and_barbarians.data import BARBARIANS, P
from services.rules.engine.state import MAIN, NO_ONE, Rules, State
from services.rules.engine.variants import combinations
from services.rules.engine.variants.catan_for_two.common import EXT as TWO
from services.rules.engine.variants.catan_for_two.common import two
from services.rules.engine.variants.catan_for_two.tokens import (
    action_problem,
    price,
    spend_for_action,
)

TOKEN_BARBARIAN = P + "two_player.token_barbarian"
TRADE_HEX_TOKENS = 1


def playing_two(state: State) -> bool:
    return TWO in state.ext


# --- the token action -----------------------------------------------------------------------


def token_paths(state: State) -> list[int]:
    """Free paths without a road: where the token action may send a barbarian."""
    taken = set(tb(state).barbarians)
    owner = state.edge_owner
    return [e for e in places(state.board).paths if e not in taken and owner[e] == NO_ONE]


def move_with_tokens(state: State, cmd: MoveBarbarianWithTokens, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    if not playing_two(state):
        raise reject(TOKEN_BARBARIAN, "the token action exists only with Catan for Two")
    problem = action_problem(state, cmd.seat)
    if problem is not None:
        raise problem
    if not 0 <= cmd.barbarian < BARBARIANS or cmd.edge not in token_paths(state):
        raise reject(TOKEN_BARBARIAN, "a barbarian goes to a free path without a road")
    return [BarbarianMovedWithTokens(seat=cmd.seat, barbarian=cmd.barbarian, edge=cmd.edge,
                                     tokens=price(state, cmd.seat))]


def token_options(state: State, seat: int, phase: str) -> list[Command]:
    if phase != MAIN or not playing_two(state) or action_problem(state, seat) is not None:
        return []
    paths = token_paths(state)
    return [MoveBarbarianWithTokens(seat=seat, barbarian=b, edge=e)
            for b in range(BARBARIANS) for e in paths]


def evolve_moved(state: State, e: BarbarianMovedWithTokens) -> None:
    spend_for_action(state, e.seat, e.tokens)
    tb(state).barbarians[e.barbarian] = e.edge


# --- a building next to a trade hex ---------------------------------------------------------


def derive_trade_hex_token(state: State, dealer: Dealer) -> list[Event]:
    """1 token more for the building just placed next to a trade hex (set-up too, as Catan
    for Two's own gains; only what the supply holds)."""
    if not playing_two(state):
        return []
    seat, v = tb(state).built
    if seat != state.current or seat >= state.n or v == NO_ONE:
        return []
    trade = set(places(state.board).trade_hexes)
    supply = two(state).supply
    if not trade & set(state.board.topo.vertex_land_hexes[v]) or supply <= 0:
        return []
    return [TradeTokensGained(seat=seat, tokens=min(TRADE_HEX_TOKENS, supply), reason="trade hex")]


# --- the second roll ------------------------------------------------------------------------


def second_roll(state: State, seat: int, dealer: Dealer, first: int) -> list[Event]:
    """Catan for Two's second roll re-rolls the first total; here 2 and 12 as well
    (`roll.reroll`): one draw among the totals left, by their dice weights."""
    weights = tuple(0 if a + b in (2, 12, first) else 1 for a, b in DICE_OUTCOMES)
    d1, d2 = dealer.pick(f"dice:{state.rolls}", DICE_OUTCOMES, weights)
    return [DiceRolled(seat=seat, d1=d1, d2=d2, n=state.rolls),
            *state.rules.resolve_number(state, seat, d1 + d2, dealer)]


def install(rules: Rules) -> None:
    rules.handle(MoveBarbarianWithTokens, move_with_tokens)
    rules.allow(MAIN, MoveBarbarianWithTokens)
    rules.extra_options.append(token_options)
    rules.evolve_with(BarbarianMovedWithTokens, evolve_moved)
    rules.derive((SettlementBuilt,), derive_trade_hex_token)
    combinations.SECOND_ROLLS[EXT] = second_roll


def record_built(state: State, e: SettlementBuilt) -> None:
    """Remember the building just placed (for `derive_trade_hex_token`)."""
    tb(state).built = (e.seat, e.vertex)
