"""Trading (docs/rules/base.md §1.10): maritime 4:1 / 3:1 / 2:1, and domestic offers between the active
player and the others — propose, accept, reject, counter, confirm, cancel. Only one offer is
open at a time; while it is open the table waits for answers (phase `trade`).

This is the game's one domestic trade and its one maritime trade, whatever the modules: an
offer names any resource of the vocabulary (Oil Springs' oil) and the game's currency where it
has one (gold: Rivers, Barbarian Attack, Traders & Barbarians), which its module keeps and lends
through the `PURSE` capability. A trade's vectors are `vocab.trade_width` wide: resources, then
currencies. A module with a limit on what a seat may hold (oil) wraps the answers and the
confirmation; one whose resource the bank never trades (oil) wraps the maritime trade.
"""

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
from events.types import RESOURCES
from services.rules.engine import hook_keys as hk
from services.rules.engine.base.common import all_at_least, require_current
from services.rules.engine.base.stages import TRADE_ANSWER
from services.rules.engine.capabilities import PURSE
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.state import MAIN, TRADE, Rules, State, Trade
from services.rules.engine.vocab_check import SELF_CHECKED, refuse

# --- maritime -------------------------------------------------------------------------------


def maritime(state: State, cmd: MaritimeTrade, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    vocab = state.rules.vocab
    index = vocab.resource_index  # the names are checked here (vocab_check.SELF_CHECKED)
    give, get = index.get(cmd.give, -1), index.get(cmd.get, -1)
    if give < 0 or get < 0:
        raise refuse(vocab, cmd)
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
    index = state.rules.vocab.resource_index
    g, t = index[e.give], index[e.get]
    hand[g] -= e.count
    state.bank[g] += e.count
    hand[t] += 1
    state.bank[t] -= 1


# --- domestic -------------------------------------------------------------------------------


def holdings(state: State, seat: int) -> list[int]:
    """What `seat` could give in a trade, `trade_width` wide: its hand, then its currencies."""
    hand = state.players[seat].hand
    currencies = state.rules.vocab.currencies
    if not currencies:
        return hand
    purse = state.rules.capability(PURSE)
    return hand + [purse.held(state, seat, c) if purse is not None else 0 for c in currencies]


def rule_about(state: State, default: str, index: int) -> str:
    """The rule a refusal about trade good `index` cites: its module's for the currency (the
    module's own rule on gold in trades), else the base rule."""
    purse = state.rules.capability(PURSE) if index >= state.rules.vocab.width else None
    return purse.rule_id if purse is not None else default


def trade_vector(state: State, bundle: dict[str, int]) -> list[int]:
    """One side of a trade as a vector; negative counts are refused."""
    vec = state.rules.vocab.trade_vector(bundle)  # names known: vocab_check.py
    for n in vec:
        if n < 0:
            raise reject("base.command.invalid", "counts must not be negative")
    return vec


def check_terms(state: State, seat: int, give: dict[str, int],
                get: dict[str, int]) -> tuple[list[int], list[int]]:
    g, t = trade_vector(state, give), trade_vector(state, get)
    if not any(g) or not any(t):
        raise reject("base.trade.no_gift", "both sides must give at least one card")
    goods = state.rules.vocab.trade_goods
    both = [i for i, (a, b) in enumerate(zip(g, t, strict=True)) if a and b]
    if both:
        raise reject(rule_about(state, "base.trade.like_for_like", both[0]),
                     f"{goods[both[0]]} cannot be on both sides")
    held = holdings(state, seat)
    short = [i for i in range(len(g)) if g[i] > held[i]]
    if short:
        raise reject(rule_about(state, "base.trade.not_held", short[0]),
                     f"you cannot offer {goods[short[0]]} you do not hold")
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
    held = holdings(state, cmd.seat)
    short = [i for i in range(len(held)) if trade.get[i] > held[i]]
    if short:
        raise reject(rule_about(state, "base.trade.not_held", short[0]),
                     "you do not hold what the offer asks for")
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
    me, other = holdings(state, proposer), holdings(state, partner)
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
        me, other = holdings(state, cmd.seat), holdings(state, cmd.partner)
        short = [i for i in range(len(me)) if give[i] > me[i] or get[i] > other[i]]
        raise reject(rule_about(state, "base.trade.not_held", short[0]),
                     "one side does not hold what it gives")
    vocab = state.rules.vocab
    return [TradeCompleted(seat=cmd.seat, partner=cmd.partner, give=vocab.trade_bundle(give),
                           get=vocab.trade_bundle(get))]


def cancel(state: State, cmd: CancelTrade, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    return [TradeCancelled(seat=cmd.seat)]


def evolve_proposed(state: State, e: TradeProposed) -> None:
    vocab = state.rules.vocab
    state.trade = Trade(e.seat, vocab.trade_vector(e.give), vocab.trade_vector(e.get), e.to)
    state.phase = TRADE


def evolve_answered(state: State, e: TradeAnswered) -> None:
    trade = state.trade
    assert trade is not None
    if e.answer == "counter":
        vocab = state.rules.vocab
        trade.answers[e.seat] = (vocab.trade_vector(e.give), vocab.trade_vector(e.get))
    else:
        trade.answers[e.seat] = e.answer
    # Everyone said no: the offer closes by itself.
    if all(trade.answers.get(s) == "reject" for s in trade.to):
        close(state)


def close(state: State) -> None:
    state.trade = None
    state.phase = MAIN


def evolve_completed(state: State, e: TradeCompleted) -> None:
    vocab = state.rules.vocab
    me, other = state.players[e.seat].hand, state.players[e.partner].hand
    give, get = vocab.trade_vector(e.give), vocab.trade_vector(e.get)
    for i in range(len(me)):
        me[i] += get[i] - give[i]
        other[i] += give[i] - get[i]
    width = len(me)
    if len(give) > width:
        purse = state.rules.capability(PURSE)
        assert purse is not None, "a currency in a trade: its module provides the purse"
        for k, currency in enumerate(vocab.currencies):
            g, t = give[width + k], get[width + k]
            if g:
                purse.pay(state, e.seat, e.partner, currency, g)
            if t:
                purse.pay(state, e.partner, e.seat, currency, t)
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
        held = holdings(state, s)
        if all(trade.get[i] <= held[i] for i in range(len(held))):
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


SELF_CHECKED.add(maritime)


def install(rules: Rules) -> None:
    rules.handle(MaritimeTrade, maritime)
    rules.handle(ProposeTrade, propose)
    rules.handle(AcceptTrade, accept)
    rules.handle(RejectTrade, reject_offer)
    rules.handle(CounterTrade, counter)
    rules.handle(ConfirmTrade, confirm)
    rules.handle(CancelTrade, cancel)
    rules.allow(MAIN, MaritimeTrade, ProposeTrade)
    rules.allow(TRADE, *ANSWERS)
    rules.add_hook(hk.PHASE_REFUSAL, trade_refusal)
    rules.add_hook(hk.EXTRA_OPTIONS, maritime_options)
    rules.prompt(TRADE, prompt_trade)
    rules.evolve_with(MaritimeTraded, evolve_maritime)
    rules.evolve_with(TradeProposed, evolve_proposed)
    rules.evolve_with(TradeAnswered, evolve_answered)
    rules.evolve_with(TradeCompleted, evolve_completed)
    rules.evolve_with(TradeCancelled, evolve_cancelled)
