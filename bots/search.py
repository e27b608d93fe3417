"""The search bot: determinized Monte Carlo over the pure engine, from its own view only.

Method: flat Monte Carlo with determinization (one-level MCTS, sampled hidden state). At a
decision of its main stage the bot keeps a handful of candidate moves (every city, the best
settlements and roads, a development card, the cards it may play, the maritime trades that
bring a build closer, a domestic offer, ending the turn). For each candidate it runs playouts:
draw a whole state from its belief (`BeliefTracker` when the host feeds it the seat's log,
else a uniform deal of the unseen cards consistent with the view, `bots.determinize`), apply
the candidate (its chance drawn by a sampling dealer), let a fast greedy policy play every seat
until the bot's next turn has rolled and produced, and score the position (victory points,
production, cards toward a build, for the bot against its best rival). The candidate with
the best mean wins.

Why not full MCTS or expectimax over `chance_outcomes`: a Python engine step costs ~70 µs
here, so a 50 ms decision affords some 600 steps. Expectimax over every dice outcome of one
round is far beyond that, and a deeper tree would get a handful of visits per node; a flat
search that spends the whole budget comparing the moves actually on the table, each followed
to the point where its value shows (the next roll), is what the budget buys. Steals and card
draws are sampled in the determinization, dice in the playout.

The budget is a number of playouts (`playouts`, default calibrated so a decision takes
<= 50 ms median on one core), never a clock: the same decision seed gives the same move on a
slow or fast machine, so tournaments replay exactly. Every other stage (set-up, robber,
discards, road building, a module's stages) and every game the view cannot be rebuilt for (a
module's parts in the view, and no log fed) is played by the heuristic bot; `fallbacks` counts
why, so a run can say how often it searched.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from bots.belief import BeliefError, BeliefTracker
from bots.determinize import StateFromViewError, ViewDeterminizer
from bots.heuristic import COSTS, PIPS, HeuristicBot
from events.commands import (
    AcceptTrade,
    BuildCity,
    BuildRoad,
    BuildSettlement,
    BuyDevelopmentCard,
    CancelTrade,
    Command,
    ConfirmTrade,
    DiscardResources,
    EndTurn,
    MaritimeTrade,
    MoveRobber,
    PlayKnight,
    PlayMonopoly,
    PlayRoadBuilding,
    PlayYearOfPlenty,
    ProposeTrade,
    RejectTrade,
    RollDice,
)
from events.events import Event, GameCreated
from events.prompts import Prompt, View
from events.types import RESOURCES, bundle_to_vector, vector_to_bundle
from services.rules.engine import Rejected, next_prompt, pending, step
from services.rules.engine.base.scoring import total_vp
from services.rules.engine.chance import SamplingDealer
from services.rules.engine.state import NO_ONE, State

DEFAULT_PLAYOUTS = 24  # per decision; calibrated to the 50 ms median goal (benchmarks/search_bot.md)
MAX_CANDIDATES = 8
PLAYOUT_STEPS = 160  # a playout's safety cap on engine decisions
OFFERS_PER_TURN = 1
GAMES_REMEMBERED = 64  # games a bot keeps per-game data of (a worker serves many at once)


@dataclass
class SearchStats:
    searched: int = 0
    playouts: int = 0
    fallbacks: Counter[str] = field(default_factory=Counter)


class SearchBot:
    name = "search"
    needs_view = True

    def __init__(self, seed: int = 0, playouts: int = DEFAULT_PLAYOUTS) -> None:
        self.rng = random.Random(seed)
        self.playouts = playouts
        self.heuristic = HeuristicBot(seed)
        self.trackers: dict[tuple[str, int], BeliefTracker] = {}
        self.rebuilders: dict[str, ViewDeterminizer] = {}
        self.offered: dict[str, tuple[int, int]] = {}  # game -> (turn, offers made in it)
        self.stats = SearchStats()

    # --- the log, when the host feeds it (bots.sdk.Observer) ------------------------------

    def observe(self, seat: int, event: Event) -> None:
        if isinstance(event, GameCreated):
            # One game at a time per seat: a new game replaces the seat's tracker.
            self.trackers = {k: t for k, t in self.trackers.items() if k[1] != seat}
            self.trackers[(event.game_id, seat)] = BeliefTracker(
                event, seat, seed=int(event.seed_sha256[:16] or "0", 16) ^ seat)
            return
        key = next((k for k in self.trackers if k[1] == seat), None)
        if key is None:
            return
        try:
            self.trackers[key].observe(event)
        except BeliefError:
            self.stats.fallbacks["belief lost the log"] += 1
            del self.trackers[key]

    # --- choosing ---------------------------------------------------------------------------

    def choose(self, view: View | None, prompt: Prompt) -> Command:
        assert view is not None
        self.heuristic.rng = self.rng  # one seeded stream per decision (bots.sdk.reseed)
        stage = prompt.stage
        if stage == "trade_answer":
            return self.answer_trade(view, prompt)
        if stage == "trade":
            return self.close_trade(view, prompt)
        if stage != "main" or view.seat is None:
            return self.heuristic.choose(view, prompt)
        offer = self.offer(view, prompt, bundle_to_vector(view.players[view.seat].hand or {}))
        if offer is not None:
            # Offered outside the search: the playouts cannot know how the others answer.
            turn, count = self.offered.get(view.game_id, (view.turn, 0))
            self.offered[view.game_id] = (view.turn, (count if turn == view.turn else 0) + 1)
            while len(self.offered) > GAMES_REMEMBERED:  # a worker plays many games at once
                del self.offered[next(iter(self.offered))]
            return offer
        candidates = self.candidates(view, prompt)
        if len(candidates) == 1:
            return candidates[0]
        try:
            states = [self.belief_state(view, prompt) for _ in range(self.playouts)]
        except StateFromViewError as exc:
            self.stats.fallbacks[str(exc)] += 1
            return self.heuristic.choose(view, prompt)
        self.stats.searched += 1
        return self.search(view.seat, states, candidates)

    def belief_state(self, view: View, prompt: Prompt) -> State:
        tracker = self.trackers.get((view.game_id, prompt.seat))
        if tracker is not None and tracker.version == view.version:
            return tracker.sample(self.rng)
        rebuild = self.rebuilders.get(view.game_id)
        if rebuild is None:
            rebuild = ViewDeterminizer(view)
            self.rebuilders[view.game_id] = rebuild
            while len(self.rebuilders) > GAMES_REMEMBERED:
                del self.rebuilders[next(iter(self.rebuilders))]
        return rebuild.sample(view, prompt, self.rng)

    def search(self, seat: int, states: list[State], candidates: list[Command]) -> Command:
        totals = [0.0] * len(candidates)
        counts = [0] * len(candidates)
        for i, state in enumerate(states):
            c = i % len(candidates)
            totals[c] += self.playout(state, seat, candidates[c])
            counts[c] += 1
        self.stats.playouts += len(states)
        best = max(range(len(candidates)),
                   key=lambda c: (totals[c] / counts[c] if counts[c] else -1e9, -c))
        return candidates[best]

    # --- candidates -------------------------------------------------------------------------

    def candidates(self, view: View, prompt: Prompt) -> list[Command]:
        seat = prompt.seat
        h = self.heuristic
        board = h.board(view)
        out: list[Command] = []
        cities = h.of(prompt, BuildCity)
        out.extend(cities)
        settlements = sorted(h.of(prompt, BuildSettlement),
                             key=lambda o: -h.vertex_value(board, o.vertex))
        out.extend(settlements[:2])
        if h.of(prompt, BuyDevelopmentCard):
            out.append(BuyDevelopmentCard(seat=seat))
        for kind in (PlayKnight, PlayRoadBuilding):
            out.extend(h.of(prompt, kind)[:1])
        mono = h.of(prompt, PlayMonopoly)
        if mono:
            out.append(self.best_monopoly(view, mono))
        yop = h.of(prompt, PlayYearOfPlenty)
        if yop:
            choice = h.play_card(view, Prompt(seat=seat, stage="main", options=list(yop),
                                              default=yop[0]))
            if choice is not None:
                out.append(choice)
        roads = h.of(prompt, BuildRoad)
        if roads:
            out.append(h.best_road(view, Prompt(seat=seat, stage="main", options=list(roads),
                                                default=roads[0]), setup=False))
        hand = bundle_to_vector(view.players[seat].hand or {})
        trades = self.good_trades(prompt, hand)
        out.extend(trades[:2])
        advised = h.advice(view, prompt, "first") or h.advice(view, prompt, "after_buildings")
        if advised is not None and advised not in out:
            out.append(advised)
        out = out[: MAX_CANDIDATES - 1]
        end = next((o for o in prompt.options if isinstance(o, EndTurn)), prompt.default)
        out.append(end)
        return out

    def best_monopoly(self, view: View, options: list[PlayMonopoly]) -> PlayMonopoly:
        # The resource the others hold most of, by what the belief expects (or evenly); of the
        # base five (a module's resource, Oil Springs' oil, is left to the module's advice).
        trackers = [t for (g, s), t in self.trackers.items() if g == view.game_id]
        options = [o for o in options if o.resource in RESOURCES] or options
        if trackers and all(o.resource in RESOURCES for o in options):
            t = trackers[0]
            held = [sum(t.expected_hand(p.seat)[r] for p in view.players if p.seat != t.seat)
                    for r in range(len(RESOURCES))]
            return max(options, key=lambda o: (held[RESOURCES.index(o.resource)], o.resource))
        return options[0]

    def good_trades(self, prompt: Prompt, hand: list[int]) -> list[MaritimeTrade]:
        out = []
        for t in self.heuristic.of(prompt, MaritimeTrade):
            g, r = RESOURCES.index(t.give), RESOURCES.index(t.get)
            for goal in (COSTS["city"], COSTS["settlement"], COSTS["development_card"]):
                need = [max(0, goal[i] - hand[i]) for i in range(5)]
                if need[r] > 0 and hand[g] - goal[g] >= 2 and sum(need) <= 2:
                    out.append(t)
                    break
        return out

    # --- domestic trade ---------------------------------------------------------------------

    def offer(self, view: View, prompt: Prompt, hand: list[int]) -> ProposeTrade | None:
        """One card of surplus for one card a build lacks (once per turn)."""
        turn, count = self.offered.get(view.game_id, (view.turn, 0))
        if not prompt.may_trade or (turn == view.turn and count >= OFFERS_PER_TURN):
            return None
        for goal in (COSTS["city"], COSTS["settlement"], COSTS["development_card"]):
            need = [max(0, goal[i] - hand[i]) for i in range(5)]
            if sum(need) != 1:
                continue
            want = need.index(1)
            spare = max(range(5), key=lambda i: (hand[i] - goal[i], -i))
            if hand[spare] - goal[spare] >= 1 and spare != want:
                return ProposeTrade(seat=prompt.seat, give={RESOURCES[spare]: 1},
                                    get={RESOURCES[want]: 1})
        return None

    def close_trade(self, view: View, prompt: Prompt) -> Command:
        """Every answer is in (the host asks the others first): deal with the trailing seat."""
        confirms = self.heuristic.of(prompt, ConfirmTrade)
        if confirms:
            return min(confirms, key=lambda c: (view.players[c.partner].public_vp, c.partner))
        return next((o for o in prompt.options if isinstance(o, CancelTrade)), prompt.default)

    def answer_trade(self, view: View, prompt: Prompt) -> Command:
        """Accept a deal that brings a build closer and does not feed a seat near winning."""
        accept = self.heuristic.of(prompt, AcceptTrade)
        t = view.trade
        if not accept or t is None or view.seat is None:
            return RejectTrade(seat=prompt.seat)
        if view.players[t.proposer].public_vp >= view.vp_target - 2:
            return RejectTrade(seat=prompt.seat)
        hand = bundle_to_vector(view.players[view.seat].hand or {})
        after = [hand[i] + bundle_to_vector(t.give)[i] - bundle_to_vector(t.get)[i] for i in range(5)]
        if min(after) < 0:
            return RejectTrade(seat=prompt.seat)
        return accept[0] if hand_value(after) > hand_value(hand) + 0.05 else RejectTrade(seat=prompt.seat)

    # --- playouts ---------------------------------------------------------------------------

    def playout(self, state: State, me: int, first: Command) -> float:
        dealer = SamplingDealer(self.rng)
        try:
            step(state, first, dealer)
        except Rejected:
            return -1e6  # cannot happen for a prompt's option; never chosen if it does
        start_turn = state.turn
        steps = 0
        while not state.finished and steps < PLAYOUT_STEPS:
            if state.current == me and state.turn > start_turn and state.rolled:
                break  # the bot's next turn has rolled and produced: the move's value shows
            prompts = pending(state)
            if not prompts:
                break
            prompt = prompts[0] if len(prompts) == 1 else next_prompt(state, prompts)
            command = fast_policy(state, prompt, self.rng)
            try:
                step(state, command, dealer)
            except Rejected:  # nothing was folded: the state is as it was
                try:
                    step(state, prompt.default, dealer)
                except Rejected:
                    break  # a drawn state a module's rule cannot go on from: score it as it is
            steps += 1
        return evaluate(state, me)


# --- the playout policy and the evaluation (state-level: no views, fast) --------------------


def fast_policy(state: State, prompt: Prompt, rng: random.Random) -> Command:
    options = prompt.options
    seat = prompt.seat
    stage = prompt.stage
    if stage == "roll":
        return next((o for o in options if isinstance(o, RollDice)), prompt.default)
    if stage == "discard" and prompt.hand is not None:
        hand = bundle_to_vector(prompt.hand)
        out = [0] * 5
        for _ in range(prompt.discard):
            r = max(range(5), key=lambda i: hand[i])
            hand[r] -= 1
            out[r] += 1
        return DiscardResources(seat=seat, resources=vector_to_bundle(out))
    if stage == "robber":
        robs = [o for o in options if isinstance(o, MoveRobber) and o.victim is not None]
        if robs:
            return max(robs, key=lambda o: (total_vp(state, o.victim or 0), -o.hex))
        return rng.choice(options) if options else prompt.default
    if stage == "main":
        best: Command | None = None
        best_value = -1.0
        for o in options:
            if isinstance(o, BuildCity):
                return o
            if isinstance(o, BuildSettlement):
                v = vertex_pips(state, o.vertex)
                if v > best_value:
                    best, best_value = o, v
        if best is not None:
            return best
        hand = state.players[seat].hand
        if (hand[3] + hand[4] < 5 and any(isinstance(o, BuyDevelopmentCard) for o in options)
                and rng.random() < 0.5):
            return BuyDevelopmentCard(seat=seat)
        roads = [o for o in options if isinstance(o, BuildRoad)]
        if roads and rng.random() < 0.5:
            return rng.choice(roads)
        return next((o for o in options if isinstance(o, EndTurn)), prompt.default)
    if stage in ("trade_answer", "trade"):
        return prompt.default
    return rng.choice(options) if options else prompt.default


def vertex_pips(state: State, v: int) -> float:
    board = state.board
    total = 0.0
    for h in board.topo.vertex_land_hexes[v]:
        if board.hex_resource[h] >= 0:
            total += PIPS.get(board.hex_number[h], 0)
    return total


def hand_value(hand: list[int]) -> float:
    """How close a hand is to its nearest builds (1 = a build in hand), capped at 7 cards."""
    best = 0.0
    for goal, weight in ((COSTS["city"], 1.0), (COSTS["settlement"], 1.0),
                         (COSTS["development_card"], 0.6)):
        have = sum(min(hand[i], goal[i]) for i in range(5))
        best = max(best, weight * have / sum(goal))
    return best + 0.02 * min(sum(hand), 7)


def seat_value(state: State, seat: int) -> float:
    board = state.board
    p = state.players[seat]
    income = [0.0] * len(p.hand)
    for v, mult in [(v, 1) for v in p.settlements] + [(v, 2) for v in p.cities]:
        for h in board.topo.vertex_land_hexes[v]:
            r = board.hex_resource[h]
            if r >= 0 and h != state.robber:
                income[r] += mult * PIPS.get(board.hex_number[h], 0)
    production = sum(income) / 36.0  # cards per roll
    variety = sum(1 for x in income[:5] if x > 0)
    hand = p.hand[:5] if len(p.hand) >= 5 else p.hand + [0] * (5 - len(p.hand))
    over = max(0, sum(p.hand) - 7)
    return (total_vp(state, seat)
            + 1.6 * production
            + 0.08 * variety
            + 0.35 * hand_value(hand)
            - 0.08 * over
            + 0.15 * sum(p.dev)
            + 0.05 * p.knights
            + 0.02 * p.road_length)


def evaluate(state: State, me: int) -> float:
    if state.finished:
        if state.winner == me:
            return 100.0
        if state.winner != NO_ONE:
            return -100.0
    mine = seat_value(state, me)
    rival = max(seat_value(state, s) for s in range(state.n) if s != me)
    return mine - 0.5 * rival
