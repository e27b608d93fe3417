"""Gold in a trade between players (docs/rules/rivers.md §7.4, `rivers.gold.domestic`).

The base game's offers move cards only (their bundles are resource vectors, and gold is no
resource). A trade with gold is this module's own offer: the active seat, in its main phase,
offers cards and/or gold to one other seat for cards and/or gold, gold on at least one side;
that seat accepts or declines (phase `rivers.gold_offer`); then the turn goes on. Like every
trade it is public. Like `ProposeTrade`, the offer is not listed in prompts (its terms are
open-ended); the answers are.
"""

from __future__ import annotations

from events.commands import Command
from events.events import Event
from events.prompts import Prompt
from events.rivers import (
    AcceptGoldTrade,
    DeclineGoldTrade,
    GoldTradeCompleted,
    GoldTradeDeclined,
    GoldTradeOffered,
    OfferGoldTrade,
)
from services.rules.engine.base.common import require_current, vector
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.scenarios.rivers.common import GOLD_OFFER, rivers
from services.rules.engine.state import MAIN, State

RULE = "rivers.gold.domestic"


def offer(state: State, cmd: OfferGoldTrade, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    if not 0 <= cmd.partner < state.n or cmd.partner == cmd.seat:
        raise reject(RULE, "a gold trade is made with another player of this game")
    give, get = vector(state, cmd.give, RULE), vector(state, cmd.get, RULE)
    if cmd.give_gold < 0 or cmd.get_gold < 0:
        raise reject(RULE, "gold amounts must not be negative")
    if not cmd.give_gold and not cmd.get_gold:
        raise reject(RULE, "a trade without gold is an ordinary trade offer")
    if cmd.give_gold and cmd.get_gold:
        raise reject(RULE, "gold cannot be on both sides")
    if not (any(give) or cmd.give_gold) or not (any(get) or cmd.get_gold):
        raise reject(RULE, "both sides must give something")
    if any(a and b for a, b in zip(give, get, strict=True)):
        raise reject(RULE, "a resource cannot be on both sides")
    hand = state.players[cmd.seat].hand
    if any(give[i] > hand[i] for i in range(len(hand))) or cmd.give_gold > rivers(state).gold[cmd.seat]:
        raise reject(RULE, "you cannot offer cards or gold you do not hold")
    return [GoldTradeOffered(seat=cmd.seat, partner=cmd.partner, give=cmd.give, get=cmd.get,
                             give_gold=cmd.give_gold, get_gold=cmd.get_gold)]


def partner_holds(state: State, e: GoldTradeOffered) -> bool:
    hand = state.players[e.partner].hand
    get = state.rules.vocab.vector(e.get)
    return all(get[i] <= hand[i] for i in range(len(hand))) and e.get_gold <= rivers(state).gold[e.partner]


def require_partner(state: State, seat: int) -> GoldTradeOffered:
    open_offer = rivers(state).offer
    if open_offer is None or seat != open_offer.partner:
        raise reject(RULE, "no gold trade is offered to you")
    return open_offer


def accept(state: State, cmd: AcceptGoldTrade, dealer: Dealer) -> list[Event]:
    o = require_partner(state, cmd.seat)
    if not partner_holds(state, o):
        raise reject(RULE, "you do not hold what the offer asks for")
    return [GoldTradeCompleted(seat=o.seat, partner=o.partner, give=o.give, get=o.get,
                               give_gold=o.give_gold, get_gold=o.get_gold)]


def decline(state: State, cmd: DeclineGoldTrade, dealer: Dealer) -> list[Event]:
    o = require_partner(state, cmd.seat)
    return [GoldTradeDeclined(seat=o.seat, partner=o.partner)]


def evolve_offered(state: State, e: GoldTradeOffered) -> None:
    rivers(state).offer = e
    state.phase = GOLD_OFFER


def evolve_completed(state: State, e: GoldTradeCompleted) -> None:
    vocab = state.rules.vocab
    me, other = state.players[e.seat].hand, state.players[e.partner].hand
    give, get = vocab.vector(e.give), vocab.vector(e.get)
    for i in range(len(give)):
        me[i] += get[i] - give[i]
        other[i] += give[i] - get[i]
    r = rivers(state)
    r.gold[e.seat] += e.get_gold - e.give_gold
    r.gold[e.partner] += e.give_gold - e.get_gold
    r.offer = None
    state.phase = MAIN


def evolve_declined(state: State, e: GoldTradeDeclined) -> None:
    rivers(state).offer = None
    state.phase = MAIN


def prompt_offer(state: State) -> list[Prompt]:
    o = rivers(state).offer
    assert o is not None
    options: list[Command] = [DeclineGoldTrade(seat=o.partner)]
    if partner_holds(state, o):
        options.append(AcceptGoldTrade(seat=o.partner))
    return [Prompt(seat=o.partner, stage=GOLD_OFFER, options=options, default=options[0])]


def no_offer(state: State, command: Command) -> str | None:
    """`phase_refusal`: an answer with no gold offer open."""
    if isinstance(command, AcceptGoldTrade | DeclineGoldTrade) and rivers(state).offer is None:
        return RULE
    return None

