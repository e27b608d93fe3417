"""Oil in trades (§12.4): between players within the limit of 4 for whoever receives it; never
with the bank.

The offer is the base game's (its bundles name oil like any resource): this module only
refuses what would leave a seat above the limit — an offer asking for more oil than the
proposer has room for, an acceptance, a confirmation (and keeps those out of the prompts) — and
any maritime trade naming oil."""

from __future__ import annotations

from events.commands import AcceptTrade, Command, ConfirmTrade, MaritimeTrade, ProposeTrade
from events.events import Event
from events.prompts import Prompt
from services.rules.engine.base.trade import deal_terms
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.scenarios.oil_springs.common import HAND_LIMIT, OIL, oil_of, oil_state
from services.rules.engine.state import TRADE, Rules, State, Trade

LIMIT_RULE = "oil_springs.oil.domestic_trade"


def within_limit(state: State, proposer: int, partner: int, give: list[int], get: list[int]) -> bool:
    """Neither side ends the trade with more than 4 oil."""
    oil = oil_state(state).oil
    return (oil_of(state, proposer) - give[oil] + get[oil] <= HAND_LIMIT
            and oil_of(state, partner) + give[oil] - get[oil] <= HAND_LIMIT)


def install(rules: Rules) -> None:
    base_maritime = rules.registry.handlers[MaritimeTrade]
    base_propose = rules.registry.handlers[ProposeTrade]
    base_confirm = rules.registry.handlers[ConfirmTrade]
    base_accept = rules.registry.handlers[AcceptTrade]
    base_prompt = rules.registry.prompters[TRADE]

    def maritime(state: State, cmd: MaritimeTrade, dealer: Dealer) -> list[Event]:
        if OIL in (cmd.give, cmd.get):
            raise reject("oil_springs.oil.no_maritime", "the bank never trades oil")
        return base_maritime(state, cmd, dealer)

    def propose(state: State, cmd: ProposeTrade, dealer: Dealer) -> list[Event]:
        events = base_propose(state, cmd, dealer)
        if oil_of(state, cmd.seat) + cmd.get.get(OIL, 0) - cmd.give.get(OIL, 0) > HAND_LIMIT:
            raise reject(LIMIT_RULE, f"you may hold at most {HAND_LIMIT} oil")
        return events

    def confirm(state: State, cmd: ConfirmTrade, dealer: Dealer) -> list[Event]:
        events = base_confirm(state, cmd, dealer)
        trade = state.trade
        terms = deal_terms(trade, cmd.partner) if trade is not None else None
        if terms is not None and not within_limit(state, cmd.seat, cmd.partner, *terms):
            raise reject(LIMIT_RULE, f"nobody may end a trade with more than {HAND_LIMIT} oil")
        return events

    def accept(state: State, cmd: AcceptTrade, dealer: Dealer) -> list[Event]:
        events = base_accept(state, cmd, dealer)
        trade = state.trade
        if trade is not None and not within_limit(state, trade.proposer, cmd.seat, trade.give,
                                                  trade.get):
            raise reject(LIMIT_RULE, f"you may hold at most {HAND_LIMIT} oil")
        return events

    def prompt(state: State) -> list[Prompt]:
        prompts = base_prompt(state)
        trade = state.trade
        if trade is None:
            return prompts
        for p in prompts:
            p.options = [o for o in p.options if legal(state, trade, o)]
            p.default = p.options[0]  # a rejection or the cancel always stays
        return prompts

    def legal(state: State, trade: Trade, o: Command) -> bool:
        if isinstance(o, AcceptTrade):
            return within_limit(state, trade.proposer, o.seat, trade.give, trade.get)
        if isinstance(o, ConfirmTrade):
            terms = deal_terms(trade, o.partner)
            return terms is None or within_limit(state, o.seat, o.partner, *terms)
        return True

    rules.handle(MaritimeTrade, maritime, wraps=True)
    rules.handle(ProposeTrade, propose, wraps=True)
    rules.handle(ConfirmTrade, confirm, wraps=True)
    rules.handle(AcceptTrade, accept, wraps=True)
    rules.prompt(TRADE, prompt, wraps=True)
