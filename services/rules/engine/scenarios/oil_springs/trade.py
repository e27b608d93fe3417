"""Oil in domestic trades (§12.4): an offer may name oil on either side, within the hand limit
of 4 for whoever receives it. The offer is the base's open trade (its vectors are as wide as the
vocabulary, oil included), so the base answers it (accept, reject, counter); only the proposal
and the completion, whose base events cannot name oil, are this module's."""

from __future__ import annotations

from events.commands import AcceptTrade, Command, ConfirmTrade
from events.events import Event
from events.oil_springs import OilTradeCompleted, OilTradeProposed, ProposeOilTrade
from events.prompts import Prompt
from services.rules.engine.base.common import require_current, vector
from services.rules.engine.base.trade import both_hold, close, deal_terms
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.scenarios.oil_springs.common import HAND_LIMIT, oil_of, oil_state
from services.rules.engine.state import MAIN, TRADE, Rules, State, Trade


def within_limit(state: State, proposer: int, partner: int, give: list[int], get: list[int]) -> bool:
    """Neither side ends the trade with more than 4 oil."""
    oil = oil_state(state).oil
    return (oil_of(state, proposer) - give[oil] + get[oil] <= HAND_LIMIT
            and oil_of(state, partner) + give[oil] - get[oil] <= HAND_LIMIT)


def propose(state: State, cmd: ProposeOilTrade, dealer: Dealer) -> list[Event]:
    """The base's checks of an offer (ProposeTrade), with oil counted on its side."""
    require_current(state, cmd.seat)
    if state.trade is not None:
        raise reject("base.trade.already_open", "an offer is already open")
    if cmd.give_oil < 0 or cmd.get_oil < 0:
        raise reject("base.command.invalid", "card counts must not be negative")
    if not (cmd.give_oil or cmd.get_oil):
        raise reject("oil_springs.oil.domestic_trade", "an oil offer names oil (else: ProposeTrade)")
    give, get = vector(state, cmd.give), vector(state, cmd.get)
    if not (any(give) or cmd.give_oil) or not (any(get) or cmd.get_oil):
        raise reject("base.trade.no_gift", "both sides must give at least one card")
    if (cmd.give_oil and cmd.get_oil) or any(a and b for a, b in zip(give, get, strict=True)):
        raise reject("base.trade.like_for_like", "a resource cannot be on both sides")
    hand = state.players[cmd.seat].hand
    if cmd.give_oil > oil_of(state, cmd.seat) or any(g > h for g, h in zip(give, hand, strict=True)):
        raise reject("base.trade.not_held", "you cannot offer cards you do not hold")
    if oil_of(state, cmd.seat) + cmd.get_oil > HAND_LIMIT:
        raise reject("oil_springs.oil.domestic_trade", f"you may hold at most {HAND_LIMIT} oil")
    others = tuple(s for s in range(state.n) if s != cmd.seat)
    to = tuple(sorted(set(cmd.to))) if cmd.to else others
    if not set(to) <= set(others):
        raise reject("base.trade.active_only", "an offer goes to other seats of this game")
    return [OilTradeProposed(seat=cmd.seat, give=cmd.give, get=cmd.get, give_oil=cmd.give_oil,
                             get_oil=cmd.get_oil, to=to)]


def evolve_proposed(state: State, e: OilTradeProposed) -> None:
    vocab = state.rules.vocab
    oil = oil_state(state).oil
    give, get = vocab.vector(e.give), vocab.vector(e.get)
    give[oil], get[oil] = e.give_oil, e.get_oil
    state.trade = Trade(e.seat, give, get, e.to)
    state.phase = TRADE


def evolve_completed(state: State, e: OilTradeCompleted) -> None:
    vocab = state.rules.vocab
    oil = oil_state(state).oil
    give, get = vocab.vector(e.give), vocab.vector(e.get)
    give[oil], get[oil] = e.give_oil, e.get_oil
    me, other = state.players[e.seat].hand, state.players[e.partner].hand
    for i in range(len(give)):
        me[i] += get[i] - give[i]
        other[i] += give[i] - get[i]
    close(state)


def install(rules: Rules) -> None:
    base_confirm = rules.handlers[ConfirmTrade]
    base_accept = rules.handlers[AcceptTrade]
    base_prompt = rules.prompters[TRADE]

    def confirm(state: State, cmd: ConfirmTrade, dealer: Dealer) -> list[Event]:
        trade = state.trade
        terms = deal_terms(trade, cmd.partner) if trade and 0 <= cmd.partner < state.n else None
        oil = oil_state(state).oil
        if terms is None or not (terms[0][oil] or terms[1][oil]):
            return base_confirm(state, cmd, dealer)
        require_current(state, cmd.seat)
        if not both_hold(state, cmd.seat, cmd.partner, *terms):
            raise reject("base.trade.not_held", "one side does not hold the cards")
        give, get = terms
        if not within_limit(state, cmd.seat, cmd.partner, give, get):
            raise reject("oil_springs.oil.domestic_trade", "nobody may end a trade with more than 4 oil")
        vocab = state.rules.vocab
        return [OilTradeCompleted(seat=cmd.seat, partner=cmd.partner,
                                           give=vocab.base_bundle(give), get=vocab.base_bundle(get),
                                           give_oil=give[oil], get_oil=get[oil])]

    def accept(state: State, cmd: AcceptTrade, dealer: Dealer) -> list[Event]:
        events = base_accept(state, cmd, dealer)
        trade = state.trade
        if trade is not None and not within_limit(state, trade.proposer, cmd.seat, trade.give, trade.get):
            raise reject("oil_springs.oil.domestic_trade", "you may hold at most 4 oil")
        return events

    def prompt(state: State) -> list[Prompt]:
        prompts = base_prompt(state)
        trade = state.trade
        if trade is None:
            return prompts
        for p in prompts:
            p.options = [o for o in p.options if legal(state, trade, o)]
            if not p.options:  # (never: reject and cancel stay)
                continue
            p.default = p.options[0]
        return prompts

    def legal(state: State, trade: Trade, o: Command) -> bool:
        if isinstance(o, AcceptTrade):
            return within_limit(state, trade.proposer, o.seat, trade.give, trade.get)
        if isinstance(o, ConfirmTrade):
            terms = deal_terms(trade, o.partner)
            return terms is None or within_limit(state, o.seat, o.partner, *terms)
        return True

    rules.handle(ProposeOilTrade, propose)
    rules.handlers[ConfirmTrade] = confirm
    rules.handlers[AcceptTrade] = accept
    rules.prompters[TRADE] = prompt
    rules.allow(MAIN, ProposeOilTrade)
    rules.evolve_with(OilTradeProposed, evolve_proposed)
    rules.evolve_with(OilTradeCompleted, evolve_completed)
