"""Variant: Catan for Two (RULES.md §5, rules 1–8; seed 001 §2④). Two seats, 10 VP.

Two neutral colours block the board, the active player rolls twice per turn, builds a free
neutral road/settlement after each road/settlement of their own, and spends trade tokens on a
forced trade or on sending the robber to the desert.

Design notes:
- Neutrals are board-only owners: `Player` objects appended to `state.players` at ids n, n+1
  (2 and 3) by this module's ext init, from `GameCreated.setup["catan-for-two.neutrals"]` (their
  start vertices, decided with the layout: rule 1). `state.n` stays 2, so turns, trades,
  scores and victory only ever see the seats; the base treats owners >= n generically: they
  never produce or get robbed, discards/monopoly/views are per seat, while the board checks
  (distance rule, road connection, longest road, which may go to a neutral) cover every owner
  because they read `vertex_owner`/`edge_owner`. Views list the seats in `players` and the
  neutrals' pieces in `ext["catan-for-two"]["neutrals"]`; `longest_road` may name a neutral id.
- Two rolls (rule 8) = the wrapped `RollDice` handler plus the `roll_resolved` hook (called by
  the base when a roll's production, or a 7's discards and robber, is over): after the first it
  goes back to the ROLL phase, after the second on to MAIN. The first roll is the ruleset's
  `roll` hook (dice, or what a module puts instead); the second is `second_roll`, which re-rolls
  a repeated total with `DiceRerolled` events (no effect). Nothing else reads `step`/`first`,
  so a combination replaces the second step only: with event-cards, variants/combinations.py
  makes it a second card draw (RULES.md §3 DECISION). The handler (not the `roll` hook) is
  wrapped because event-cards *replaces* the `roll` hook: so the module order does not matter.
- Neutral building (rule 5): the BuildRoad/BuildSettlement handlers are wrapped to append
  `NeutralBuildRequired` when some neutral piece fits (checked on the board *after* the build);
  the phase `catan_for_two.neutral` then lists every legal neutral piece, and the neutral piece
  is placed by the base piece evolvers (free), so longest road and road cutting stay the base's.
  Road Building's free roads are roads built, so each owes a neutral road too (DECISION).
  Set-up placements owe nothing (official text: after set-up each neutral has 1 settlement).
- Tokens (rules 2, 3, 4, 6, 7) live in `state.ext["catan-for-two"]` (public). One token action
  per turn, in MAIN (i.e. after both rolls). A forced trade draws at chance keys
  "forcedtrade:<n>:<i>" and waits in phase `catan_for_two.give_back` for the 2 cards back.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any

from events.catan_for_two import (
    BuildNeutralRoad,
    BuildNeutralSettlement,
    DiceRerolled,
    DiscardKnight,
    ForcedTradeDrawn,
    ForcedTradeReturned,
    ForceTrade,
    GiveBackCards,
    KnightDiscarded,
    NeutralBuildRequired,
    NeutralPiece,
    NeutralRoadBuilt,
    NeutralSettlementBuilt,
    RobberSentToDesert,
    SendRobberToDesert,
    TradeTokensGained,
    TradeTokensSpent,
)
from events.commands import (
    BuildRoad,
    BuildSettlement,
    Command,
    PlaceSettlement,
    RollDice,
)
from events.events import (
    DiceRolled,
    Event,
    GameCreated,
    LargestArmyChanged,
    RoadBuilt,
    SettlementBuilt,
    TurnEnded,
)
from events.prompts import Prompt
from events.types import RESOURCE_INDEX, RESOURCES, bundle_to_vector, vector_to_bundle
from services.rules.engine.base import setup
from services.rules.engine.base.building import check_road, pieces_left, require_piece
from services.rules.engine.base.common import require_current, vector
from services.rules.engine.base.roads import (
    legal_road_edges,
    legal_settlement_vertices,
    network_vertices,
    touches_own_road,
)
from services.rules.engine.base.scoring import MIN_ARMY, derive_longest_road, public_vp
from services.rules.engine.board import Board
from services.rules.engine.chance import DICE_OUTCOMES, DICE_WEIGHTS, Dealer
from services.rules.engine.rules import Rejected, register, reject
from services.rules.engine.ruleset import Handler, Module, Ruleset
from services.rules.engine.state import MAIN, NO_ONE, ROLL, SETTLEMENT, Player, State
from services.rules.engine.variants import combinations

EXT = "catan-for-two"
SETUP_KEY = "catan-for-two.neutrals"
NEUTRAL = "catan_for_two.neutral"  # phase: the active seat builds the owed neutral piece
GIVE_BACK = "catan_for_two.give_back"  # phase: the forced trade's 2 cards go back
# Rule 1 (DECISION): one start settlement per neutral, point-symmetric, off the centre hex.
NEUTRAL_STARTS = (((-1, -1), (0, -1), (-1, 0)), ((1, 1), (0, 1), (1, 0)))
TOKENS_TOTAL = 20
TOKENS_START = 5
KNIGHT_TOKENS = 2
FORCED_CARDS = 2

register({
    "catan_for_two.neutral.start": "Catan for Two: each neutral player starts with 1 settlement, placed before set-up; it blocks by the distance rule.",
    "catan_for_two.neutral.no_production": "Catan for Two: neutral players never take turns, receive resources or get robbed; a neutral may hold Longest Road.",
    "catan_for_two.roll.twice": "Catan for Two: the active player rolls twice; each roll produces (or resolves a 7) before the next.",
    "catan_for_two.roll.differ": "Catan for Two: the second total must differ from the first; a repeated total is re-rolled without effect.",
    "catan_for_two.neutral.build": "Catan for Two: after building a road you build a free road for a neutral of your choice; after a settlement, a neutral settlement (a road if no neutral settlement fits); nothing after a city or a development card.",
    "catan_for_two.neutral.piece": "Catan for Two: the neutral piece is the one the build calls for (a settlement, else a road).",
    "catan_for_two.neutral.unknown": "Catan for Two: neutral pieces go to one of the two neutral players.",
    "catan_for_two.token.price": "Catan for Two: a token action costs 1 token if your public VP are not more than your opponent's, else 2.",
    "catan_for_two.token.once_per_turn": "Catan for Two: at most one token action per turn, after both rolls.",
    "catan_for_two.token.short": "Catan for Two: you must hold the tokens the action costs.",
    "catan_for_two.forced_trade.empty_hand": "Catan for Two: a forced trade needs an opponent holding at least 1 card.",
    "catan_for_two.forced_trade.give_back": "Catan for Two: a forced trade draws 2 cards (1 if the opponent holds 1), then you give back 2 cards you hold.",
    "catan_for_two.robber.at_desert": "Catan for Two: the robber action moves the robber to the desert (no steal); not when it is already there.",
    "catan_for_two.knight.once_per_turn": "Catan for Two: once per turn a face-up knight may be discarded for 2 trade tokens.",
    "catan_for_two.knight.none_face_up": "Catan for Two: only a knight already played (face up) can be discarded.",
    "catan_for_two.token.gain": "Catan for Two: a settlement next to the desert gains 2 tokens, on the coast 1, both 3 (set-up too); an empty supply gives nothing.",
})


class TwoState:
    """Public module state: tokens, the turn's roll step and flags, the owed neutral piece."""

    __slots__ = ("tokens", "supply", "step", "first", "action_used", "knight_used", "due",
                 "resume", "victim", "trades")

    def __init__(self, seats: int) -> None:
        self.tokens = [TOKENS_START] * seats
        self.supply = TOKENS_TOTAL - TOKENS_START * seats
        self.step = 0  # rolls resolved this turn (0, 1, 2)
        self.first = 0  # the first roll's total
        self.action_used = False
        self.knight_used = False
        self.due = ""  # "road" / "settlement" while a neutral piece is owed
        self.resume = MAIN  # the phase after the neutral piece
        self.victim = NO_ONE  # forced trade in progress: who gets the cards back
        self.trades = 0  # forced trades so far (chance index)

    def copy(self) -> TwoState:
        t = TwoState.__new__(TwoState)
        for name in TwoState.__slots__:
            setattr(t, name, getattr(self, name))
        t.tokens = self.tokens[:]
        return t

    def dump(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in TwoState.__slots__}

    @staticmethod
    def load(d: dict[str, Any]) -> TwoState:
        t = TwoState.__new__(TwoState)
        for name in TwoState.__slots__:
            setattr(t, name, d[name])
        t.tokens = list(t.tokens)
        return t


def two(state: State) -> TwoState:
    ext: TwoState = state.ext[EXT]
    return ext


def neutrals(state: State) -> range:
    return range(state.n, len(state.players))


def opponent(state: State, seat: int) -> int:
    seats: int = state.n
    return (seat + 1) % seats


# --- set-up: the neutral players (rule 1) ---------------------------------------------------


def init(state: State, created: GameCreated) -> TwoState:
    starts = created.setup.get(SETUP_KEY) or start_vertices(state.board)
    for k, v in enumerate(starts):
        owner = state.n + k
        state.players.append(Player(owner))
        state.vertex_owner[v] = owner
        state.vertex_level[v] = SETTLEMENT
        state.players[owner].settlements.add(v)
    return TwoState(state.n)


def start_vertices(board: Board) -> list[int]:
    return [board.vertex_id(*hexes) for hexes in NEUTRAL_STARTS]


# --- two rolls (rule 8) ---------------------------------------------------------------------


def second_roll(state: State, seat: int, dealer: Dealer, first: int) -> list[Event]:
    """Roll until the total differs from `first`; the repeats are logged, without effect."""
    n = state.rolls
    events: list[Event] = []
    while True:
        d1, d2 = dealer.pick(f"dice:{n}", DICE_OUTCOMES, DICE_WEIGHTS)
        if d1 + d2 != first:
            break
        events.append(DiceRerolled(seat=seat, d1=d1, d2=d2, n=n))
        n += 1
    events.append(DiceRolled(seat=seat, d1=d1, d2=d2, n=n))
    events.extend(state.rules.resolve_number(state, seat, d1 + d2, dealer))
    return events


def second_step(rules: Ruleset) -> combinations.SecondRoll:
    """The turn's second roll: the dice re-rolled until they differ, unless a combination
    rule replaces it (looked up when deciding, so the module order does not matter)."""
    return combinations.second_roll(rules) or second_roll


def install_two_rolls(rules: Ruleset) -> None:
    previous_handler = rules.handlers[RollDice]
    previous_resolved = rules.roll_resolved

    def roll(state: State, cmd: RollDice, dealer: Dealer) -> list[Event]:
        t = two(state)
        if t.step == 0:
            return list(previous_handler(state, cmd, dealer))
        require_current(state, cmd.seat)
        return second_step(state.rules)(state, cmd.seat, dealer, t.first)

    def roll_resolved(state: State) -> None:
        t = two(state)
        if t.step == 0:
            t.step, t.first = 1, state.last_roll
            state.rolled = False  # a knight before the second roll comes back to ROLL
            state.phase = ROLL
        else:
            t.step = 2
            previous_resolved(state)

    def evolve_rerolled(state: State, e: DiceRerolled) -> None:
        state.rolls += 1  # the chance index moves on; nothing else happens

    def refusal(state: State, cmd: Command) -> str | None:
        """Rolling while the first roll's 7 is resolved: not "already rolled", but too early."""
        if isinstance(cmd, RollDice) and cmd.seat == state.current and two(state).step == 0:
            return "catan_for_two.roll.twice" if state.rolled else None
        return None

    rules.handlers[RollDice] = roll
    rules.roll_resolved = roll_resolved
    rules.evolvers[DiceRerolled] = evolve_rerolled
    rules.phase_refusal.insert(0, refusal)  # more specific than the base's explanation


# --- neutral building (rule 5) --------------------------------------------------------------


def neutral_options(state: State, seat: int, piece: str) -> list[Command]:
    out: list[Command] = []
    for k in neutrals(state):
        if pieces_left(state, k, piece) <= 0:
            continue
        if piece == "road":
            out.extend(BuildNeutralRoad(seat=seat, neutral=k, edge=e)
                       for e in legal_road_edges(state, k))
        else:
            out.extend(BuildNeutralSettlement(seat=seat, neutral=k, vertex=v)
                       for v in legal_settlement_vertices(state, k))
    return out


def owed_piece(state: State, cause: NeutralPiece) -> NeutralPiece | None:
    """What the build of a `cause` owes the neutrals on this board (None: nothing fits)."""
    if cause == "settlement" and neutral_options(state, state.current, "settlement"):
        return "settlement"
    if neutral_options(state, state.current, "road"):
        return "road"
    return None


def after(state: State, events: list[Event]) -> State:
    scratch = state.copy()
    for e in events:
        state.rules.evolvers[type(e)](scratch, e)
    return scratch


def owing(previous: Handler, cause: NeutralPiece) -> Handler:
    """Wrap BuildRoad/BuildSettlement: token gains, then the neutral piece owed (if any)."""

    def handler(state: State, cmd: Any, dealer: Dealer) -> list[Event]:
        events = list(previous(state, cmd, dealer))
        if cause == "settlement":
            events.extend(token_gain(state, cmd.seat, cmd.vertex))
        piece = owed_piece(after(state, events), cause)
        if piece is not None:
            events.append(NeutralBuildRequired(seat=cmd.seat, piece=piece, cause=cause))
        return events

    return handler


def check_neutral(state: State, seat: int, neutral: int, piece: str) -> None:
    require_current(state, seat)
    if neutral not in neutrals(state):
        raise reject("catan_for_two.neutral.unknown", f"{neutral} is not a neutral player")
    due = two(state).due
    if due != piece:
        raise reject("catan_for_two.neutral.piece", f"the neutral player is owed a {due}")
    require_piece(state, neutral, piece)


def build_neutral_road(state: State, cmd: BuildNeutralRoad, dealer: Dealer) -> list[Event]:
    check_neutral(state, cmd.seat, cmd.neutral, "road")
    check_road(state, cmd.neutral, cmd.edge)
    return [NeutralRoadBuilt(seat=cmd.seat, neutral=cmd.neutral, edge=cmd.edge)]


def build_neutral_settlement(
    state: State, cmd: BuildNeutralSettlement, dealer: Dealer
) -> list[Event]:
    check_neutral(state, cmd.seat, cmd.neutral, "settlement")
    setup.check_settlement_site(state, cmd.neutral, cmd.vertex)
    if not touches_own_road(state, cmd.neutral, cmd.vertex):
        name = state.board.vertex_name(cmd.vertex)
        raise reject("base.build.settlement_connect", f"{name} does not touch that neutral's roads")
    return [NeutralSettlementBuilt(seat=cmd.seat, neutral=cmd.neutral, vertex=cmd.vertex)]


def evolve_required(state: State, e: NeutralBuildRequired) -> None:
    t = two(state)
    t.due, t.resume = e.piece, state.phase
    state.phase = NEUTRAL


def evolve_neutral_road(state: State, e: NeutralRoadBuilt) -> None:
    # In the NEUTRAL phase the base evolver only places the (free) piece.
    state.rules.evolvers[RoadBuilt](state, RoadBuilt(seat=e.neutral, edge=e.edge, free=True))
    neutral_done(state)


def evolve_neutral_settlement(state: State, e: NeutralSettlementBuilt) -> None:
    state.rules.evolvers[SettlementBuilt](
        state, SettlementBuilt(seat=e.neutral, vertex=e.vertex, free=True)
    )
    neutral_done(state)


def neutral_done(state: State) -> None:
    t = two(state)
    state.phase, t.due = t.resume, ""


def prompt_neutral(state: State) -> list[Prompt]:
    seat = state.current
    options = neutral_options(state, seat, two(state).due)
    default = default_neutral(state, seat, options)
    return [Prompt(seat=seat, stage=NEUTRAL, options=options, default=default)]


def default_neutral(state: State, seat: int, options: list[Command]) -> Command:
    """A silent seat's neutral piece: away from its own network, close to the opponent's."""
    topo = state.board.topo
    mine = network_vertices(state, seat)
    theirs = network_vertices(state, opponent(state, seat))

    def closeness(o: Command) -> tuple[int, int]:
        if isinstance(o, BuildNeutralRoad):
            ends: tuple[int, ...] = topo.edge_vertices[o.edge]
        else:
            assert isinstance(o, BuildNeutralSettlement)
            ends = (o.vertex,)
        around = {u for v in ends for u in (v, *topo.vertex_neighbours[v])}
        return len(around & mine), -len(around & theirs)

    return min(options, key=closeness)


# --- trade tokens: gains (rules 6, 7) -------------------------------------------------------


def token_gain(state: State, seat: int, v: int) -> list[Event]:
    """2 next to the desert, 1 on the coast, 3 for both; no more than the supply holds."""
    board = state.board
    desert = any(board.hex_terrain[h] == "desert" for h in board.topo.vertex_land_hexes[v])
    coast = board.topo.vertex_is_coastal[v]
    gain = min(2 * desert + coast, two(state).supply)
    if gain <= 0:
        return []
    reason = "+".join(name for name, on in (("desert", desert), ("coast", coast)) if on)
    return [TradeTokensGained(seat=seat, tokens=gain, reason=reason)]


def gaining(previous: Handler) -> Handler:
    """Wrap PlaceSettlement: set-up settlements gain tokens too."""

    def handler(state: State, cmd: Any, dealer: Dealer) -> list[Event]:
        events = list(previous(state, cmd, dealer))
        return events + token_gain(state, cmd.seat, cmd.vertex)

    return handler


def knight_problem(state: State, seat: int) -> Rejected | None:
    if two(state).knight_used:
        return reject("catan_for_two.knight.once_per_turn", "you discarded a knight this turn")
    if state.players[seat].knights <= 0:
        return reject("catan_for_two.knight.none_face_up", "you have no face-up knight")
    return None


def discard_knight(state: State, cmd: DiscardKnight, dealer: Dealer) -> list[Event]:
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
    """After a knight discard (RULES.md §5): a holder left with < 3 face-up knights or not
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
    deserts = state.board.desert_hexes
    if not deserts or state.robber in deserts:
        return reject("catan_for_two.robber.at_desert", "the robber is already in the desert")
    return None


def raise_first(*problems: Rejected | None) -> None:
    for problem in problems:
        if problem is not None:
            raise problem


def force_trade(state: State, cmd: ForceTrade, dealer: Dealer) -> list[Event]:
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


def give_back(state: State, cmd: GiveBackCards, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    vec = vector(cmd.resources, "catan_for_two.forced_trade.give_back")
    hand = state.players[cmd.seat].hand
    if sum(vec) != FORCED_CARDS or any(vec[i] > hand[i] for i in range(5)):
        raise reject("catan_for_two.forced_trade.give_back",
                     f"give back exactly {FORCED_CARDS} cards you hold")
    victim = two(state).victim
    return [ForcedTradeReturned(seat=cmd.seat, victim=victim, count=FORCED_CARDS,
                                resources=cmd.resources)]


def send_robber(state: State, cmd: SendRobberToDesert, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    raise_first(action_problem(state, cmd.seat), desert_problem(state))
    cost = price(state, cmd.seat)
    return [
        TradeTokensSpent(seat=cmd.seat, tokens=cost, action="robber_to_desert"),
        RobberSentToDesert(seat=cmd.seat, hex=state.board.desert_hexes[0]),
    ]


def token_options(state: State, seat: int, phase: str) -> list[Command]:
    if phase != MAIN:
        return []
    out: list[Command] = []
    if action_problem(state, seat) is None:
        if forced_trade_problem(state, seat) is None:
            out.append(ForceTrade(seat=seat))
        if desert_problem(state) is None:
            out.append(SendRobberToDesert(seat=seat))
    if knight_problem(state, seat) is None:
        out.append(DiscardKnight(seat=seat))
    return out


def give_back_options(state: State, seat: int) -> list[GiveBackCards]:
    hand = state.players[seat].hand
    out = []
    for a, b in combinations_with_replacement(range(5), 2):
        if hand[a] > (a == b) and hand[b] > 0:
            vec = [0] * 5
            vec[a] += 1
            vec[b] += 1
            out.append(GiveBackCards(seat=seat, resources=vector_to_bundle(vec)))
    return out


def prompt_give_back(state: State) -> list[Prompt]:
    seat = state.current
    options = give_back_options(state, seat)
    # A silent seat gives from its most plentiful resources (as a default discard does).
    hand = state.players[seat].hand

    def keeps(o: GiveBackCards) -> tuple[int, ...]:
        rest = [h - g for h, g in zip(hand, bundle_to_vector(o.resources), strict=True)]
        return tuple(sorted(rest, reverse=True))

    default = min(options, key=keeps)
    return [Prompt(seat=seat, stage=GIVE_BACK, options=list(options), default=default)]


# --- evolvers for tokens --------------------------------------------------------------------


def evolve_gained(state: State, e: TradeTokensGained) -> None:
    t = two(state)
    t.tokens[e.seat] += e.tokens
    t.supply -= e.tokens


def evolve_spent(state: State, e: TradeTokensSpent) -> None:
    t = two(state)
    t.tokens[e.seat] -= e.tokens
    t.supply += e.tokens
    t.action_used = True


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


def new_turn(previous: Any) -> Any:
    def evolve(state: State, e: TurnEnded) -> None:
        previous(state, e)
        t = two(state)
        t.step, t.first, t.action_used, t.knight_used = 0, 0, False, False

    return evolve


# --- views and redaction --------------------------------------------------------------------


def view_ext(state: State, seat: int | None) -> dict[str, Any]:
    t = two(state)
    return {
        "tokens": list(t.tokens),
        "supply": t.supply,
        "token_price": [price(state, s) for s in range(state.n)],
        "token_action_used": t.action_used,
        "knight_discarded": t.knight_used,
        "roll": t.step,
        "first_roll": t.first,
        "neutral_build": t.due or None,
        "neutrals": [
            {
                "id": k,
                "roads": sorted(state.players[k].roads),
                "settlements": sorted(state.players[k].settlements),
                "road_length": state.players[k].road_length,
            }
            for k in neutrals(state)
        ],
    }


def redact_drawn(e: ForcedTradeDrawn, seat: int | None) -> Event:
    if seat in (e.seat, e.victim):
        return e
    return ForcedTradeDrawn(seat=e.seat, victim=e.victim, count=e.count, cards=None, n=e.n)


def redact_returned(e: ForcedTradeReturned, seat: int | None) -> Event:
    if seat in (e.seat, e.victim):
        return e
    return ForcedTradeReturned(seat=e.seat, victim=e.victim, count=e.count, resources=None)


# --- the module -----------------------------------------------------------------------------


class CatanForTwo(Module):
    name = "catan-for-two"
    description = ("Two players: two neutral colours, two rolls per turn, neutral building, "
                   "trade tokens (forced trade, robber to the desert).")
    seats = (2,)

    def create(self, created: dict[str, Any], params: Any, dealer: Dealer) -> None:
        board = Board(created["tiles"], created["harbors"])
        created["setup"][SETUP_KEY] = start_vertices(board)

    def install(self, rules: Ruleset, params: Any) -> None:
        rules.ext(EXT, init, TwoState.copy, TwoState.dump, TwoState.load)
        rules.view_ext[EXT] = view_ext
        install_two_rolls(rules)
        h = rules.handlers
        h[BuildRoad] = owing(h[BuildRoad], "road")
        h[BuildSettlement] = owing(h[BuildSettlement], "settlement")
        h[PlaceSettlement] = gaining(h[PlaceSettlement])
        h[BuildNeutralRoad] = build_neutral_road
        h[BuildNeutralSettlement] = build_neutral_settlement
        h[ForceTrade] = force_trade
        h[GiveBackCards] = give_back
        h[SendRobberToDesert] = send_robber
        h[DiscardKnight] = discard_knight
        rules.allow(NEUTRAL, BuildNeutralRoad, BuildNeutralSettlement)
        rules.allow(GIVE_BACK, GiveBackCards)
        rules.allow(MAIN, ForceTrade, SendRobberToDesert, DiscardKnight)
        rules.prompters[NEUTRAL] = prompt_neutral
        rules.prompters[GIVE_BACK] = prompt_give_back
        rules.extra_options.append(token_options)
        ev = rules.evolvers
        ev[NeutralBuildRequired] = evolve_required
        ev[NeutralRoadBuilt] = evolve_neutral_road
        ev[NeutralSettlementBuilt] = evolve_neutral_settlement
        ev[TradeTokensGained] = evolve_gained
        ev[TradeTokensSpent] = evolve_spent
        ev[ForcedTradeDrawn] = evolve_drawn
        ev[ForcedTradeReturned] = evolve_returned
        ev[RobberSentToDesert] = evolve_robber_sent
        ev[KnightDiscarded] = evolve_knight_discarded
        ev[TurnEnded] = new_turn(ev[TurnEnded])
        # A neutral piece can take Longest Road or cut a road; a discard can cost Largest Army.
        rules.derive((NeutralRoadBuilt, NeutralSettlementBuilt), derive_longest_road)
        rules.derive((KnightDiscarded,), derive_army)
        rules.redactors[ForcedTradeDrawn] = redact_drawn
        rules.redactors[ForcedTradeReturned] = redact_returned


MODULE = CatanForTwo()
