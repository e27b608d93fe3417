"""Gold in domestic trades, for a module that keeps gold as a public count per seat (Barbarian
Attack §9.10 `gold.trade`, Traders & Barbarians §10.11 `gold.trade`).

The active seat offers gold for cards or asks gold for cards (`ProposeGoldTrade`). The offer
is the base game's open offer (answers, counters, confirmation and cancelling are the base's);
its gold is kept in the module's state (`GoldPurse.trade_gold`) and moves with the
confirmation (`GoldTraded`). A counter states its own terms in cards only, so a deal closed on
a counter moves no gold (a decision: docs/rules/traders-and-barbarians.md §10.11).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from events.commands import AcceptTrade, Command, ConfirmTrade
from events.events import Event, TradeProposed
from events.gold_trades import GoldTraded, GoldTradeProposed, ProposeGoldTrade
from events.prompts import Prompt
from services.rules.engine.base import trade as base_trade
from services.rules.engine.base.common import require_current, vector
from services.rules.engine.chance import Dealer
from services.rules.engine.narration import Narrator, templates
from services.rules.engine.rules import reject
from services.rules.engine.state import MAIN, TRADE, Rules, State

NARRATION: dict[type[Event], Narrator] = templates({
    GoldTradeProposed: "{seat} offers {give} and {give_gold} gold for {get} and {get_gold} gold",
    GoldTraded: "{seat} pays {give_gold} gold to {partner} and receives {get_gold} gold",
})


class GoldPurse(Protocol):
    """Where a module keeps gold: per seat, and the open offer's (the proposer gives, gets)."""

    gold: list[int]
    trade_gold: list[int]


class GoldTrades:
    """The commands, checks, prompts and folds of gold trades for one module: `purse` finds its
    gold in a state, `rule` is the rule id its refusals name."""

    def __init__(self, purse: Callable[[State], GoldPurse], rule: str) -> None:
        self.purse = purse
        self.rule = rule

    def propose(self, state: State, cmd: ProposeGoldTrade, dealer: Dealer) -> list[Event]:
        require_current(state, cmd.seat)
        give, get = vector(state, cmd.give), vector(state, cmd.get)
        if cmd.give_gold < 0 or cmd.get_gold < 0:
            raise reject("base.command.invalid", "gold amounts must not be negative")
        if (cmd.give_gold > 0) == (cmd.get_gold > 0):
            raise reject(self.rule, "a gold offer has gold on one side (cards only: ProposeTrade)")
        if not (any(give) or cmd.give_gold) or not (any(get) or cmd.get_gold):
            raise reject("base.trade.no_gift", "both sides must give something")
        if any(a and b for a, b in zip(give, get, strict=True)):
            raise reject("base.trade.like_for_like", "a resource cannot be on both sides")
        hand = state.players[cmd.seat].hand
        if any(give[i] > hand[i] for i in range(len(hand))):
            raise reject("base.trade.not_held", "you cannot offer cards you do not hold")
        if cmd.give_gold > self.purse(state).gold[cmd.seat]:
            raise reject(self.rule, "you cannot offer gold you do not hold")
        others = tuple(s for s in range(state.n) if s != cmd.seat)
        to = tuple(sorted(set(cmd.to))) if cmd.to else others
        if not set(to) <= set(others):
            raise reject("base.trade.active_only", "an offer goes to other seats of this game")
        return [GoldTradeProposed(seat=cmd.seat, give=cmd.give, get=cmd.get,
                                  give_gold=cmd.give_gold, get_gold=cmd.get_gold, to=to)]

    def holds_gold(self, state: State, seat: int) -> bool:
        """Whether a responder holds the gold the open offer asks for."""
        purse = self.purse(state)
        return purse.gold[seat] >= purse.trade_gold[1]

    def wrap_accept(self, rules: Rules) -> None:
        accept = rules.handlers[AcceptTrade]

        def handler(state: State, cmd: AcceptTrade, dealer: Dealer) -> list[Event]:
            events = list(accept(state, cmd, dealer))
            if not self.holds_gold(state, cmd.seat):
                raise reject(self.rule, "you do not hold the gold the offer asks for")
            return events

        rules.handle(AcceptTrade, handler)

    def wrap_confirm(self, rules: Rules) -> None:
        confirm = rules.handlers[ConfirmTrade]

        def handler(state: State, cmd: ConfirmTrade, dealer: Dealer) -> list[Event]:
            events = list(confirm(state, cmd, dealer))
            purse = self.purse(state)
            give_gold, get_gold = purse.trade_gold
            trade = state.trade
            if not (give_gold or get_gold) or trade is None \
                    or trade.answers.get(cmd.partner) != "accept":
                return events
            if purse.gold[cmd.seat] < give_gold or purse.gold[cmd.partner] < get_gold:
                raise reject(self.rule, "one side does not hold the gold")
            return [GoldTraded(seat=cmd.seat, partner=cmd.partner, give_gold=give_gold,
                               get_gold=get_gold), *events]

        rules.handle(ConfirmTrade, handler)

    def wrap_prompt(self, rules: Rules) -> None:
        """Accepting is offered only to a seat holding the gold asked for."""
        prompt = rules.prompters[TRADE]

        def prompter(state: State) -> list[Prompt]:
            prompts = prompt(state)
            if not self.purse(state).trade_gold[1]:
                return prompts
            for p in prompts:
                if not self.holds_gold(state, p.seat):
                    p.options = [o for o in p.options if not isinstance(o, AcceptTrade)]
            return prompts

        rules.prompters[TRADE] = prompter

    def wrap_proposed(self, rules: Rules) -> None:
        """A cards-only offer carries no gold."""
        proposed = rules.evolvers[TradeProposed]

        def evolve(state: State, e: TradeProposed) -> None:
            proposed(state, e)
            self.purse(state).trade_gold = [0, 0]

        rules.evolve_with(TradeProposed, evolve)

    def evolve_proposed(self, state: State, e: GoldTradeProposed) -> None:
        base_trade.evolve_proposed(
            state, TradeProposed(seat=e.seat, give=e.give, get=e.get, to=e.to))
        self.purse(state).trade_gold = [e.give_gold, e.get_gold]

    def evolve_traded(self, state: State, e: GoldTraded) -> None:
        gold = self.purse(state).gold
        gold[e.seat] += e.get_gold - e.give_gold
        gold[e.partner] += e.give_gold - e.get_gold

    def install(self, rules: Rules) -> None:
        rules.handle(ProposeGoldTrade, self.propose)
        rules.allow(MAIN, ProposeGoldTrade)
        rules.phase_refusal.append(refusal)
        rules.evolve_with(GoldTradeProposed, self.evolve_proposed)
        rules.evolve_with(GoldTraded, self.evolve_traded)
        self.wrap_accept(rules)
        self.wrap_confirm(rules)
        self.wrap_prompt(rules)
        self.wrap_proposed(rules)


def refusal(state: State, cmd: Command) -> str | None:
    if isinstance(cmd, ProposeGoldTrade) and state.trade is not None:
        return "base.trade.already_open"
    return None
