"""Trading (docs/rules/base.md §1.10): maritime 4:1 / 3:1 / 2:1, and domestic offers between the active
player and the others — propose, accept, reject, counter, confirm, cancel. Only one offer is
open at a time; while it is open the table waits for answers (phase `trade`)."""

from __future__ import annotations

from functools import cache
from typing import Final

from events.commands import (
    AcceptTrade,
    CancelTrade,
    Command,
    ConfirmTrade,
    CounterTrade,
    MaritimeTrade,
    ProposeTrade,
    RejectTrade,
)
from events.events import (
    Event,
    MaritimeTraded,
    TradeAnswered,
    TradeCancelled,
    TradeCompleted,
    TradeProposed,
)
from events.prompts import Prompt
from events.types import RESOURCE_INDEX, RESOURCES, Bundle
from services.rules.engine.base.common import all_at_least, require_current, vector
from services.rules.engine.base.stages import TRADE_ANSWER
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.state import MAIN, TRADE, Rules, State, Trade

# --- maritime -------------------------------------------------------------------------------


def maritime(state: State, cmd: MaritimeTrade, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    give, get = RESOURCE_INDEX[cmd.give], RESOURCE_INDEX[cmd.get]
    if give == get:
        raise reject("base.trade.like_for_like", "trade for a different resource")
    ratio = state.players[cmd.seat].ratios[give]
    if state.players[cmd.seat].hand[give] < ratio:
        raise reject("base.trade.maritime_ratio", f"you need {ratio} {cmd.give} for this trade")
    if state.bank[get] == 0:
        raise reject("base.trade.bank_short", f"the bank has no {cmd.get} left")
    return [MaritimeTraded(seat=cmd.seat, give=cmd.give, count=ratio, get=cmd.get)]


def maritime_options(state: State, seat: int, phase: str) -> list[Command]:
    if phase != MAIN:
        return []
    p = state.players[seat]
    hand, ratios = p.hand, p.ratios
    out: list[Command] = []
    if (hand[0] < ratios[0] and hand[1] < ratios[1] and hand[2] < ratios[2]
            and hand[3] < ratios[3] and hand[4] < ratios[4]):
        return out  # most prompts: no resource held at its ratio
    bank = state.bank
    bank_has_all = all_at_least(bank, 1)
    for g in range(5):
        if hand[g] >= ratios[g]:
            trades = seat_trades(seat)[g]
            if bank_has_all:
                out.extend(trades)
            else:
                out.extend([c for c, t in zip(trades, TAKEN[g], strict=True) if bank[t] > 0])
    return out


# The resources a trade giving g takes, in option order (every other resource).
TAKEN: Final = tuple(tuple(t for t in range(5) if t != g) for g in range(5))


@cache
def seat_trades(seat: int) -> tuple[tuple[MaritimeTrade, ...], ...]:
    """Per resource given, the seat's maritime trades for each other resource. Made once:
    commands are frozen, so prompts of every game can share them."""
    return tuple(
        tuple(MaritimeTrade(seat=seat, give=RESOURCES[g], get=RESOURCES[t]) for t in TAKEN[g])
        for g in range(5)
    )


def evolve_maritime(state: State, e: MaritimeTraded) -> None:
    hand = state.players[e.seat].hand
    g, t = RESOURCE_INDEX[e.give], RESOURCE_INDEX[e.get]
    hand[g] -= e.count
    state.bank[g] += e.count
    hand[t] += 1
    state.bank[t] -= 1


# --- domestic -------------------------------------------------------------------------------


def check_terms(state: State, seat: int, give: Bundle, get: Bundle) -> tuple[list[int], list[int]]:
    g, t = vector(state, give), vector(state, get)
    if not any(g) or not any(t):
        raise reject("base.trade.no_gift", "both sides must give at least one card")
    if any(a and b for a, b in zip(g, t, strict=True)):
        raise reject("base.trade.like_for_like", "a resource cannot be on both sides")
    hand = state.players[seat].hand
    if any(g[i] > hand[i] for i in range(len(hand))):
        raise reject("base.trade.not_held", "you cannot offer cards you do not hold")
    return g, t


def propose(state: State, cmd: ProposeTrade, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    check_terms(state, cmd.seat, cmd.give, cmd.get)
    others = tuple(s for s in range(state.n) if s != cmd.seat)
    to = tuple(sorted(set(cmd.to))) if cmd.to else others
    if not set(to) <= set(others):
        raise reject("base.trade.active_only", "an offer goes to other seats of this game")
    return [TradeProposed(seat=cmd.seat, give=cmd.give, get=cmd.get, to=to)]


def open_trade(state: State, seat: int) -> Trade:
    trade = state.trade
    if trade is None:
        raise reject("base.trade.none_open", "there is no open offer")
    if seat == trade.proposer or seat not in trade.to:
        raise reject("base.trade.not_addressed", "the offer is not addressed to you")
    if seat in trade.answers:
        raise reject("base.trade.not_addressed", "you already answered this offer")
    return trade


def accept(state: State, cmd: AcceptTrade, dealer: Dealer) -> list[Event]:
    trade = open_trade(state, cmd.seat)
    hand = state.players[cmd.seat].hand
    if any(trade.get[i] > hand[i] for i in range(len(hand))):
        raise reject("base.trade.not_held", "you do not hold what the offer asks for")
    return [TradeAnswered(seat=cmd.seat, answer="accept")]


def reject_offer(state: State, cmd: RejectTrade, dealer: Dealer) -> list[Event]:
    open_trade(state, cmd.seat)
    return [TradeAnswered(seat=cmd.seat, answer="reject")]


def counter(state: State, cmd: CounterTrade, dealer: Dealer) -> list[Event]:
    open_trade(state, cmd.seat)
    check_terms(state, cmd.seat, cmd.give, cmd.get)
    return [TradeAnswered(seat=cmd.seat, answer="counter", give=cmd.give, get=cmd.get)]


def deal_terms(trade: Trade, partner: int) -> tuple[list[int], list[int]] | None:
    """(what the proposer gives, what it gets) with `partner`, or None if no deal is on."""
    answer = trade.answers.get(partner)
    if answer == "accept":
        return trade.give, trade.get
    if isinstance(answer, tuple):
        partner_gives, partner_gets = answer
        return partner_gets, partner_gives
    return None


def both_hold(state: State, proposer: int, partner: int, give: list[int], get: list[int]) -> bool:
    me, other = state.players[proposer].hand, state.players[partner].hand
    return all(give[i] <= me[i] and get[i] <= other[i] for i in range(len(me)))


def confirm(state: State, cmd: ConfirmTrade, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    trade = state.trade
    assert trade is not None
    terms = deal_terms(trade, cmd.partner) if 0 <= cmd.partner < state.n else None
    if terms is None:
        raise reject("base.trade.partner_not_accepted", f"seat {cmd.partner} has not accepted")
    give, get = terms
    if not both_hold(state, cmd.seat, cmd.partner, give, get):
        raise reject("base.trade.not_held", "one side does not hold the cards")
    return [
        TradeCompleted(
            seat=cmd.seat,
            partner=cmd.partner,
            give=state.rules.vocab.wire_bundle(give),
            get=state.rules.vocab.wire_bundle(get),
        )
    ]


def cancel(state: State, cmd: CancelTrade, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    return [TradeCancelled(seat=cmd.seat)]


def evolve_proposed(state: State, e: TradeProposed) -> None:
    vocab = state.rules.vocab
    state.trade = Trade(e.seat, vocab.vector(e.give), vocab.vector(e.get), e.to)
    state.phase = TRADE


def evolve_answered(state: State, e: TradeAnswered) -> None:
    trade = state.trade
    assert trade is not None
    if e.answer == "counter":
        vocab = state.rules.vocab
        trade.answers[e.seat] = (vocab.vector(e.give), vocab.vector(e.get))
    else:
        trade.answers[e.seat] = e.answer
    # Everyone said no: the offer closes by itself.
    if all(trade.answers.get(s) == "reject" for s in trade.to):
        close(state)


def close(state: State) -> None:
    state.trade = None
    state.phase = MAIN


def evolve_completed(state: State, e: TradeCompleted) -> None:
    me, other = state.players[e.seat].hand, state.players[e.partner].hand
    give, get = state.rules.vocab.vector(e.give), state.rules.vocab.vector(e.get)
    for i in range(len(give)):
        me[i] += get[i] - give[i]
        other[i] += give[i] - get[i]
    close(state)


def evolve_cancelled(state: State, e: TradeCancelled) -> None:
    close(state)


def prompt_trade(state: State) -> list[Prompt]:
    trade = state.trade
    assert trade is not None
    proposer = trade.proposer
    closing: list[Command] = [CancelTrade(seat=proposer)]
    # Only deals both sides can pay for: a counter may ask for cards the proposer lacks.
    for s in trade.to:
        terms = deal_terms(trade, s)
        if terms is not None and both_hold(state, proposer, s, *terms):
            closing.append(ConfirmTrade(seat=proposer, partner=s))
    prompts = [Prompt(seat=proposer, stage=TRADE, options=closing, default=closing[0])]
    for s in trade.to:
        if s in trade.answers:
            continue
        options: list[Command] = [RejectTrade(seat=s)]
        hand = state.players[s].hand
        if all(trade.get[i] <= hand[i] for i in range(len(hand))):
            options.append(AcceptTrade(seat=s))
        prompts.append(
            Prompt(seat=s, stage=TRADE_ANSWER, options=options, default=options[0], may_trade=True)
        )
    return prompts


ANSWERS: Final = (AcceptTrade, RejectTrade, CounterTrade, ConfirmTrade, CancelTrade)


def trade_refusal(state: State, cmd: Command) -> str | None:
    """One offer is open at a time, and only an open offer can be answered or closed."""
    if isinstance(cmd, ProposeTrade) and state.trade is not None:
        return "base.trade.already_open"
    if isinstance(cmd, ANSWERS) and state.trade is None:
        return "base.trade.none_open"
    return None


def install(rules: Rules) -> None:
    rules.handlers[MaritimeTrade] = maritime
    rules.handlers[ProposeTrade] = propose
    rules.handlers[AcceptTrade] = accept
    rules.handlers[RejectTrade] = reject_offer
    rules.handlers[CounterTrade] = counter
    rules.handlers[ConfirmTrade] = confirm
    rules.handlers[CancelTrade] = cancel
    rules.allow(MAIN, MaritimeTrade, ProposeTrade)
    rules.allow(TRADE, *ANSWERS)
    rules.phase_refusal.append(trade_refusal)
    rules.extra_options.append(maritime_options)
    rules.prompters[TRADE] = prompt_trade
    rules.evolvers[MaritimeTraded] = evolve_maritime
    rules.evolvers[TradeProposed] = evolve_proposed
    rules.evolvers[TradeAnswered] = evolve_answered
    rules.evolvers[TradeCompleted] = evolve_completed
    rules.evolvers[TradeCancelled] = evolve_cancelled
