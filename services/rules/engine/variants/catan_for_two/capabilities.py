"""What Catan for Two offers the other modules (engine/capabilities.py): its neutral players
(`NEUTRAL_OWNERS`: who they are, the neutral piece owed after a build) and its trade tokens
(`TRADE_TOKENS`: the supply, a token action's price and its payment). A scenario builds its own
two-player rules on these (Barbarian Attack's token action, Rivers' neutral bridge) without
importing this package."""

from __future__ import annotations

from events.commands import Command
from services.rules.engine.rules import Rejected
from services.rules.engine.state import State
from services.rules.engine.variants.catan_for_two import neutrals as neutral_rules
from services.rules.engine.variants.catan_for_two import tokens as token_rules
from services.rules.engine.variants.catan_for_two.common import NEUTRAL, neutrals, two


class Neutrals:
    """`NeutralOwners`: the two neutral colours (owners 2 and 3 of a two-seat game)."""

    stage = NEUTRAL

    def owners(self, state: State) -> range:
        return neutrals(state)

    def options(self, state: State, seat: int, piece: str) -> list[Command]:
        return neutral_rules.neutral_options(state, seat, piece)

    def owed_after(self, state: State, cause: str) -> str | None:
        return neutral_rules.owed_piece(state, "settlement" if cause == "settlement" else "road")

    def owed(self, state: State) -> str:
        return two(state).due

    def owe(self, state: State, piece: str) -> None:
        t = two(state)
        t.due, t.resume = piece, state.phase
        state.phase = NEUTRAL

    def settle(self, state: State, piece: str | None) -> None:
        if piece is None:
            neutral_rules.neutral_done(state)
        else:
            two(state).due = piece


class Tokens:
    """`TradeTokens`: the 20 tokens, one token action per turn at the price of rule 2."""

    def in_play(self, state: State) -> bool:
        return two(state).in_play

    def supply(self, state: State) -> int:
        return two(state).supply

    def price(self, state: State, seat: int) -> int:
        return token_rules.price(state, seat)

    def action_problem(self, state: State, seat: int) -> Rejected | None:
        return token_rules.action_problem(state, seat)

    def spend(self, state: State, seat: int, tokens: int) -> None:
        token_rules.spend_for_action(state, seat, tokens)


NEUTRALS = Neutrals()
TOKENS = Tokens()
