"""Gold in domestic trades (docs/rules/traders-and-barbarians.md §10.11, `gold.trade`): the
active seat may offer gold for cards or ask gold for cards (`ProposeGoldTrade`). The offer is
the base game's open offer (answers, counters, confirmation and cancelling are the base's); its
gold is kept in the scenario state and moves with the confirmation (`GoldTraded`). A counter
states its own terms in cards only, so a deal closed on a counter moves no gold (a Decision)."""

from __future__ import annotations

from events.commands import AcceptTrade, Command, ConfirmTrade
from events.events import Event, TradeProposed
from events.prompts import Prompt
from events.traders_and_barbarians import GoldTraded, GoldTradeProposed, ProposeGoldTrade
from services.rules.engine.base import trade as base_trade
from services.rules.engine.base.common import require_current, vector
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.scenarios.traders_and_barbarians.common import tb
from services.rules.engine.scenarios.traders_and_barbarians.data import P
from services.rules.engine.state import MAIN, TRADE, Rules, State

GOLD_TRADE = P + "gold.trade"


def propose(state: State, cmd: ProposeGoldTrade, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    give, get = vector(state, cmd.give), vector(state, cmd.get)
    if cmd.give_gold < 0 or cmd.get_gold < 0:
        raise reject("base.command.invalid", "gold amounts must not be negative")
    if (cmd.give_gold > 0) == (cmd.get_gold > 0):
        raise reject(GOLD_TRADE, "a gold offer has gold on one side (cards only: ProposeTrade)")
    if not (any(give) or cmd.give_gold) or not (any(get) or cmd.get_gold):
        raise reject("base.trade.no_gift", "both sides must give something")
    if any(a and b for a, b in zip(give, get, strict=True)):
        raise reject("base.trade.like_for_like", "a resource cannot be on both sides")
    hand = state.players[cmd.seat].hand
    if any(give[i] > hand[i] for i in range(len(hand))):
        raise reject("base.trade.not_held", "you cannot offer cards you do not hold")
    if cmd.give_gold > tb(state).gold[cmd.seat]:
        raise reject(GOLD_TRADE, "you cannot offer gold you do not hold")
    others = tuple(s for s in range(state.n) if s != cmd.seat)
    to = tuple(sorted(set(cmd.to))) if cmd.to else others
    if not set(to) <= set(others):
        raise reject("base.trade.active_only", "an offer goes to other seats of this game")
    return [GoldTradeProposed(seat=cmd.seat, give=cmd.give, get=cmd.get,
                              give_gold=cmd.give_gold, get_gold=cmd.get_gold, to=to)]


def holds_gold(state: State, seat: int) -> bool:
    """Whether a responder holds the gold the open offer asks for."""
    return tb(state).gold[seat] >= tb(state).trade_gold[1]


def wrap_accept(rules: Rules) -> None:
    accept = rules.handlers[AcceptTrade]

    def handler(state: State, cmd: AcceptTrade, dealer: Dealer) -> list[Event]:
        events = list(accept(state, cmd, dealer))
        if not holds_gold(state, cmd.seat):
            raise reject(GOLD_TRADE, "you do not hold the gold the offer asks for")
        return events

    rules.handle(AcceptTrade, handler)


def wrap_confirm(rules: Rules) -> None:
    confirm = rules.handlers[ConfirmTrade]

    def handler(state: State, cmd: ConfirmTrade, dealer: Dealer) -> list[Event]:
        events = list(confirm(state, cmd, dealer))
        give_gold, get_gold = tb(state).trade_gold
        trade = state.trade
        if not (give_gold or get_gold) or trade is None or trade.answers.get(cmd.partner) != "accept":
            return events
        gold = tb(state).gold
        if gold[cmd.seat] < give_gold or gold[cmd.partner] < get_gold:
            raise reject(GOLD_TRADE, "one side does not hold the gold")
        return [GoldTraded(seat=cmd.seat, partner=cmd.partner, give_gold=give_gold,
                           get_gold=get_gold), *events]

    rules.handle(ConfirmTrade, handler)


def wrap_prompt(rules: Rules) -> None:
    """Accepting is offered only to a seat holding the gold asked for."""
    prompt = rules.prompters[TRADE]

    def prompter(state: State) -> list[Prompt]:
        prompts = prompt(state)
        if not tb(state).trade_gold[1]:
            return prompts
        for p in prompts:
            if not holds_gold(state, p.seat):
                p.options = [o for o in p.options if not isinstance(o, AcceptTrade)]
        return prompts

    rules.prompters[TRADE] = prompter


def wrap_proposed(rules: Rules) -> None:
    """A cards-only offer carries no gold."""
    proposed = rules.evolvers[TradeProposed]

    def evolve(state: State, e: TradeProposed) -> None:
        proposed(state, e)
        tb(state).trade_gold = [0, 0]

    rules.evolve_with(TradeProposed, evolve)


def evolve_gold_proposed(state: State, e: GoldTradeProposed) -> None:
    base_trade.evolve_proposed(state, TradeProposed(seat=e.seat, give=e.give, get=e.get, to=e.to))
    tb(state).trade_gold = [e.give_gold, e.get_gold]


def evolve_traded(state: State, e: GoldTraded) -> None:
    gold = tb(state).gold
    gold[e.seat] += e.get_gold - e.give_gold
    gold[e.partner] += e.give_gold - e.get_gold


def refusal(state: State, cmd: Command) -> str | None:
    if isinstance(cmd, ProposeGoldTrade) and state.trade is not None:
        return "base.trade.already_open"
    return None


def install(rules: Rules) -> None:
    rules.handle(ProposeGoldTrade, propose)
    rules.allow(MAIN, ProposeGoldTrade)
    rules.phase_refusal.append(refusal)
    rules.evolve_with(GoldTradeProposed, evolve_gold_proposed)
    rules.evolve_with(GoldTraded, evolve_traded)
    wrap_accept(rules)
    wrap_confirm(rules)
    wrap_prompt(rules)
    wrap_proposed(rules)
