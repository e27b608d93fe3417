"""Catan for Two, rules 2, 3, 4, 6, 7: trade tokens, their gains and their actions
(a forced trade, the robber to the desert, a knight discarded for tokens)."""

from __future__ import annotations

from itertools import combinations_with_replacement

from events import catan_for_two as commands
from events.catan_for_two import (
    ForcedTradeDrawn,
    ForcedTradeReturned,
    KnightDiscarded,
    RobberSentToDesert,
    TradeTokensGained,
    TradeTokensSpent,
)
from events.commands import Command, PlaceSettlement
from events.events import (
    Event,
    LargestArmyChanged,
    TurnEnded,
)
from events.prompts import Prompt
from events.types import RESOURCE_INDEX, RESOURCES, bundle_to_vector, vector_to_bundle
from services.rules.engine import hook_keys as hk
from services.rules.engine.base.common import require_current, vector
from services.rules.engine.base.scoring import MIN_ARMY, public_vp
from services.rules.engine.base.turn import robber_refuges
from services.rules.engine.chance import Dealer
from services.rules.engine.registry import Evolver, Handler
from services.rules.engine.rules import Rejected, reject
from services.rules.engine.state import MAIN, NO_ONE, Rules, State
from services.rules.engine.variants.catan_for_two.common import (
    FORCED_CARDS,
    GIVE_BACK,
    KNIGHT_TOKENS,
    opponent,
    two,
)

# --- trade tokens: gains (rules 6, 7) -------------------------------------------------------


def token_gain(state: State, seat: int, v: int) -> list[Event]:
    """2 next to the desert, 1 on the coast, 3 for both; no more than the supply holds.
    "The desert" is any desert-like hex (`Board.desert_hexes`: Rivers' swamps too)."""
    board = state.board
    barren = [h for h in board.topo.vertex_land_hexes[v] if h in board.desert_hexes]
    desert = bool(barren)
    coast = board.topo.vertex_is_coastal[v]
    gain = min(2 * desert + coast, two(state).supply)
    if gain <= 0:
        return []
    near = board.hex_terrain[barren[0]] if barren else "desert"
    reason = "+".join(name for name, on in ((near, desert), ("coast", coast)) if on)
    return [TradeTokensGained(seat=seat, tokens=gain, reason=reason)]


def gaining(previous: Handler[State]) -> Handler[State]:
    """Wrap PlaceSettlement: set-up settlements gain tokens too."""

    def handler(state: State, cmd: PlaceSettlement, dealer: Dealer) -> list[Event]:
        events = list(previous(state, cmd, dealer))
        return events + token_gain(state, cmd.seat, cmd.vertex)

    return handler


def knight_problem(state: State, seat: int) -> Rejected | None:
    if not two(state).in_play:
        return reject("catan_for_two.token.not_used", "no trade tokens are in play")
    if two(state).knight_used:
        return reject("catan_for_two.knight.once_per_turn", "you discarded a knight this turn")
    vocab = state.rules.vocab
    if vocab.dev_deck[vocab.dev_index["knight"]] == 0:
        # A scenario without Knight cards (Barbarian Attack's knights are pieces, not cards).
        return reject("catan_for_two.knight.none_face_up", "this game has no Knight cards")
    if state.players[seat].knights <= 0:
        return reject("catan_for_two.knight.none_face_up", "you have no face-up knight")
    return None


def discard_knight(state: State, cmd: commands.DiscardKnight, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    problem = knight_problem(state, cmd.seat)
    if problem is not None:
        raise problem
    events: list[Event] = [KnightDiscarded(seat=cmd.seat)]
    gain = min(KNIGHT_TOKENS, two(state).supply)
    if gain:
        events.append(TradeTokensGained(seat=cmd.seat, tokens=gain, reason="knight"))
    return events


def derive_army(state: State, dealer: Dealer) -> list[Event]:
    """After a knight discard (docs/rules/catan-for-two.md §5): a holder left with < 3 face-up knights or not
    more than the opponent loses the card; it goes to the sole player with the most (>= 3)."""
    holder = state.army_holder
    if holder == NO_ONE:
        return []
    knights = [p.knights for p in state.players[: state.n]]
    if knights[holder] >= MIN_ARMY and all(k < knights[holder]
                                           for s, k in enumerate(knights) if s != holder):
        return []
    best = max(knights)
    leaders = [s for s, k in enumerate(knights) if k == best]
    if best >= MIN_ARMY and len(leaders) == 1:
        return [LargestArmyChanged(holder=leaders[0], knights=best)]
    return [LargestArmyChanged(holder=None, knights=0)]


# --- trade tokens: actions (rules 2, 3, 4) --------------------------------------------------


def price(state: State, seat: int) -> int:
    """Rule 2: 1 token if my public VP <= my opponent's (a tie costs 1), else 2."""
    return 1 if public_vp(state, seat) <= public_vp(state, opponent(state, seat)) else 2


def action_problem(state: State, seat: int) -> Rejected | None:
    t = two(state)
    if not t.in_play:
        return reject("catan_for_two.token.not_used", "no trade tokens are in play")
    if t.action_used:
        return reject("catan_for_two.token.once_per_turn", "you took a token action this turn")
    cost = price(state, seat)
    if t.tokens[seat] < cost:
        return reject("catan_for_two.token.short", f"the action costs {cost} tokens")
    return None


def forced_trade_problem(state: State, seat: int) -> Rejected | None:
    cards = state.players[opponent(state, seat)].cards
    if cards == 0:
        return reject("catan_for_two.forced_trade.empty_hand", "your opponent holds no card")
    if state.players[seat].cards + min(FORCED_CARDS, cards) < FORCED_CARDS:
        return reject("catan_for_two.forced_trade.give_back",
                      f"you could not give {FORCED_CARDS} cards back")
    return None


def desert_problem(state: State) -> Rejected | None:
    refuges = robber_refuges(state)  # the desert, or off the board (combinations.md §13.3)
    if not refuges or state.robber in refuges:
        where = "in the desert" if state.board.desert_hexes else "off the board"
        return reject("catan_for_two.robber.at_desert", f"the robber is already {where}")
    return None


def raise_first(*problems: Rejected | None) -> None:
    for problem in problems:
        if problem is not None:
            raise problem


def force_trade(state: State, cmd: commands.ForceTrade, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    raise_first(action_problem(state, cmd.seat), forced_trade_problem(state, cmd.seat))
    victim = opponent(state, cmd.seat)
    hand = state.players[victim].hand[:]
    n = two(state).trades
    cards = []
    for i in range(min(FORCED_CARDS, sum(hand))):
        r = dealer.pick(f"forcedtrade:{n}:{i}", RESOURCES, hand)
        hand[RESOURCE_INDEX[r]] -= 1
        cards.append(r)
    cost = price(state, cmd.seat)
    return [
        TradeTokensSpent(seat=cmd.seat, tokens=cost, action="forced_trade"),
        ForcedTradeDrawn(seat=cmd.seat, victim=victim, count=len(cards), cards=tuple(cards), n=n),
    ]


def give_back(state: State, cmd: commands.GiveBackCards, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    vec = vector(state, cmd.resources, "catan_for_two.forced_trade.give_back")
    hand = state.players[cmd.seat].hand
    if sum(vec) != FORCED_CARDS or any(vec[i] > hand[i] for i in range(5)):
        raise reject("catan_for_two.forced_trade.give_back",
                     f"give back exactly {FORCED_CARDS} cards you hold")
    victim = two(state).victim
    return [ForcedTradeReturned(seat=cmd.seat, victim=victim, count=FORCED_CARDS,
                                resources=cmd.resources)]


def send_robber(state: State, cmd: commands.SendRobberToDesert, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    raise_first(action_problem(state, cmd.seat), desert_problem(state))
    cost = price(state, cmd.seat)
    return [
        TradeTokensSpent(seat=cmd.seat, tokens=cost, action="robber_to_desert"),
        RobberSentToDesert(seat=cmd.seat, hex=robber_refuges(state)[0]),
    ]


def token_options(state: State, seat: int, phase: str) -> list[Command]:
    if phase != MAIN:
        return []
    out: list[Command] = []
    if action_problem(state, seat) is None:
        if forced_trade_problem(state, seat) is None:
            out.append(commands.ForceTrade(seat=seat))
        if desert_problem(state) is None:
            out.append(commands.SendRobberToDesert(seat=seat))
    if knight_problem(state, seat) is None:
        out.append(commands.DiscardKnight(seat=seat))
    return out


def give_back_options(state: State, seat: int) -> list[commands.GiveBackCards]:
    hand = state.players[seat].hand
    out = []
    for a, b in combinations_with_replacement(range(5), 2):
        if hand[a] > (a == b) and hand[b] > 0:
            vec = [0] * 5
            vec[a] += 1
            vec[b] += 1
            out.append(commands.GiveBackCards(seat=seat, resources=vector_to_bundle(vec)))
    return out


def prompt_give_back(state: State) -> list[Prompt]:
    seat = state.current
    options = give_back_options(state, seat)
    # A silent seat gives from its most plentiful resources (as a default discard does).
    hand = state.players[seat].hand

    def keeps(o: commands.GiveBackCards) -> tuple[int, ...]:
        rest = [h - g for h, g in zip(hand, bundle_to_vector(o.resources), strict=True)]
        return tuple(sorted(rest, reverse=True))

    default = min(options, key=keeps)
    return [Prompt(seat=seat, stage=GIVE_BACK, options=list(options), default=default)]


# --- evolvers for tokens --------------------------------------------------------------------


def evolve_gained(state: State, e: TradeTokensGained) -> None:
    t = two(state)
    t.tokens[e.seat] += e.tokens
    t.supply -= e.tokens


def spend_for_action(state: State, seat: int, tokens: int) -> None:
    """The turn's one token action is paid: the tokens go back to the supply (a scenario's own
    token action, whose event carries its price, folds it with this too)."""
    t = two(state)
    t.tokens[seat] -= tokens
    t.supply += tokens
    t.action_used = True


def evolve_spent(state: State, e: TradeTokensSpent) -> None:
    spend_for_action(state, e.seat, e.tokens)


def move_cards(state: State, giver: int, taker: int, vec: list[int]) -> None:
    a, b = state.players[giver].hand, state.players[taker].hand
    for i in range(5):
        a[i] -= vec[i]
        b[i] += vec[i]


def evolve_drawn(state: State, e: ForcedTradeDrawn) -> None:
    assert e.cards is not None, "the engine folds unredacted events"
    vec = [0] * 5
    for r in e.cards:
        vec[RESOURCE_INDEX[r]] += 1
    move_cards(state, e.victim, e.seat, vec)
    t = two(state)
    t.trades += 1
    t.victim = e.victim
    state.phase = GIVE_BACK


def evolve_returned(state: State, e: ForcedTradeReturned) -> None:
    assert e.resources is not None, "the engine folds unredacted events"
    move_cards(state, e.seat, e.victim, bundle_to_vector(e.resources))
    two(state).victim = NO_ONE
    state.phase = MAIN


def evolve_robber_sent(state: State, e: RobberSentToDesert) -> None:
    state.robber = e.hex


def evolve_knight_discarded(state: State, e: KnightDiscarded) -> None:
    state.players[e.seat].knights -= 1
    two(state).knight_used = True


def new_turn(previous: Evolver[State]) -> Evolver[State]:
    def evolve(state: State, e: TurnEnded) -> None:
        previous(state, e)
        t = two(state)
        t.step, t.first, t.action_used, t.knight_used = 0, 0, False, False

    return evolve


# --- views and redaction --------------------------------------------------------------------


def redact_drawn(e: ForcedTradeDrawn, seat: int | None) -> Event:
    if seat in (e.seat, e.victim):
        return e
    return ForcedTradeDrawn(seat=e.seat, victim=e.victim, count=e.count, cards=None, n=e.n)


def redact_returned(e: ForcedTradeReturned, seat: int | None) -> Event:
    if seat in (e.seat, e.victim):
        return e
    return ForcedTradeReturned(seat=e.seat, victim=e.victim, count=e.count, resources=None)


def install(rules: Rules) -> None:
    """Rules 2, 3, 4, 6, 7: token gains (set-up settlements too) and token actions."""
    rules.wrap_handler(PlaceSettlement, gaining)
    rules.handle(commands.ForceTrade, force_trade)
    rules.handle(commands.GiveBackCards, give_back)
    rules.handle(commands.SendRobberToDesert, send_robber)
    rules.handle(commands.DiscardKnight, discard_knight)
    rules.allow(GIVE_BACK, commands.GiveBackCards)
    rules.allow(MAIN, commands.ForceTrade, commands.SendRobberToDesert, commands.DiscardKnight)
    rules.prompt(GIVE_BACK, prompt_give_back)
    rules.add_hook(hk.EXTRA_OPTIONS, token_options)
    rules.evolve_with(TradeTokensGained, evolve_gained)
    rules.evolve_with(TradeTokensSpent, evolve_spent)
    rules.evolve_with(ForcedTradeDrawn, evolve_drawn)
    rules.evolve_with(ForcedTradeReturned, evolve_returned)
    rules.evolve_with(RobberSentToDesert, evolve_robber_sent)
    rules.evolve_with(KnightDiscarded, evolve_knight_discarded)
    rules.wrap_evolver(TurnEnded, new_turn)
    rules.derive((KnightDiscarded,), derive_army)  # a discard can cost Largest Army
    rules.redact(ForcedTradeDrawn, redact_drawn)
    rules.redact(ForcedTradeReturned, redact_returned)
