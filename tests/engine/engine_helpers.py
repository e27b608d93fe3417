"""Helpers shared by the engine tests: board places by hex and direction, a bot that also makes
domestic offers, and a game runner that checks the engine's invariants while a game is played.

Places: `corner(t, (q, r), N)` is the north corner of hex (q, r); corners run clockwise from
the north (N, NE, SE, S, SW, NW) and side i joins corner i and corner i+1 (NE, E, SE, SW, W, NW
sides), as in `services.rules.engine.geometry`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bots.heuristic import HeuristicBot
from bots.local import next_prompt
from bots.random_bot import RandomBot
from bots.sdk import Bot
from events.commands import Command, CounterTrade, ProposeTrade
from events.events import (
    CardStolen,
    DevelopmentCardBought,
    Event,
    GameCreated,
    GameFinished,
    MonopolyPlayed,
    RoadBuildingPlayed,
    YearOfPlentyPlayed,
)
from events.prompts import Prompt, View
from events.types import DEV_INDEX, RESOURCES
from services.rules.engine import (
    decide,
    evolve,
    initial_state,
    new_game,
    pending,
    redact,
    score,
    view,
)
from services.rules.engine.chance import SeededDealer
from services.rules.engine.geometry import Hex, corners, sides
from services.rules.engine.state import CITY, NO_ONE, SETTLEMENT, SETUP, State
from services.rules.engine.testing import Table

# --- places ---------------------------------------------------------------------------------

N, NE, SE, S, SW, NW = range(6)  # corners of a hex, clockwise from the north
SIDE_NE, SIDE_E, SIDE_SE, SIDE_SW, SIDE_W, SIDE_NW = range(6)  # sides, clockwise from NE


def corner(t: Table | State, h: Hex, i: int) -> int:
    """The vertex id of corner `i` of hex `h`."""
    board = t.state.board if isinstance(t, Table) else t.board
    return board.topo.vertex_index[corners(h)[i]]


def side(t: Table | State, h: Hex, i: int) -> int:
    """The edge id of side `i` of hex `h`."""
    board = t.state.board if isinstance(t, Table) else t.board
    return board.topo.edge_index[sides(h)[i]]


# --- independent recomputations (from the raw state, not the engine's helpers) --------------

VP_CARD = DEV_INDEX["victory_point"]


def recount_vp(state: State) -> tuple[int, ...]:
    """Every seat's victory points counted from the board and the cards, without the engine's
    scoring: the buildings on the land vertices, the award holders, the VP cards in hand."""
    vp = [0] * state.n
    owner, level = state.vertex_owner, state.vertex_level
    for v in state.board.topo.land_vertices:  # `check_board` asserts nothing stands at sea
        o = owner[v]
        if o != NO_ONE:
            vp[o] += 1 if level[v] == SETTLEMENT else 2
    if state.longest_holder != NO_ONE:
        vp[state.longest_holder] += 2
    if state.army_holder != NO_ONE:
        vp[state.army_holder] += 2
    for p in state.players:
        vp[p.seat] += p.dev[VP_CARD]
    return tuple(vp)


def longest_path(state: State, seat: int) -> int:
    """The seat's longest trail of roads (no edge twice), never passing through an opponent's
    building: a plain DFS over edges, written independently of `roads.longest_road`."""
    topo = state.board.topo
    roads = {e for e, o in enumerate(state.edge_owner) if o == seat}

    def blocked(v: int) -> bool:
        return state.vertex_owner[v] not in (NO_ONE, seat)

    best = 0

    def extend(v: int, used: frozenset[int]) -> None:
        nonlocal best
        best = max(best, len(used))
        if blocked(v):
            return
        for f in topo.vertex_edges[v]:
            if f in roads and f not in used:
                a, b = topo.edge_vertices[f]
                extend(b if a == v else a, used | {f})

    for e in roads:
        a, b = topo.edge_vertices[e]
        extend(b, frozenset({e}))
        extend(a, frozenset({e}))
    return best


# --- bots -----------------------------------------------------------------------------------


class TradingBot:
    """A random bot that also makes and counters domestic offers (the shipped bots never
    propose), so the random games exercise the whole trade protocol."""

    name = "trading"
    needs_view = True

    def __init__(self, seed: int = 0, rate: float = 0.15) -> None:
        self.rng = random.Random(seed)
        self.inner = RandomBot(seed + 7919)
        self.rate = rate

    def choose(self, view: View | None, prompt: Prompt) -> Command:
        assert view is not None
        if prompt.may_trade and self.rng.random() < self.rate:
            me = view.players[prompt.seat]
            held = [r for r, n in (me.hand or {}).items() if n > 0]
            if held:
                give = self.rng.choice(held)
                get = self.rng.choice([r for r in RESOURCES if r != give])
                if prompt.stage == "main":
                    others = [p.seat for p in view.players if p.seat != prompt.seat]
                    to = tuple(self.rng.sample(others, self.rng.randint(1, len(others))))
                    return ProposeTrade(seat=prompt.seat, give={give: 1}, get={get: 1}, to=to)
                if prompt.stage == "trade_answer":
                    return CounterTrade(seat=prompt.seat, give={give: 1}, get={get: 1})
        return self.inner.choose(view, prompt)


def make_bots(kinds: Sequence[str], seed: int) -> list[Bot]:
    factories: dict[str, Callable[[int], Bot]] = {
        "random": RandomBot,
        "heuristic": HeuristicBot,
        "trading": TradingBot,
    }
    return [factories[k](seed * 16 + i) for i, k in enumerate(kinds)]


# --- playing with checks --------------------------------------------------------------------


@dataclass
class Played:
    created: GameCreated
    state: State
    log: list[Event] = field(default_factory=list)
    commands: list[Command] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)


def play_game(
    created: GameCreated,
    bots: Sequence[Bot],
    seed: bytes,
    checker: Checker | None = None,
    max_decisions: int = 50_000,
) -> Played:
    """Play to the end with the seeded dealer, running `checker` after every event."""
    dealer = SeededDealer(seed)
    state = initial_state(created)
    game = Played(created=created, state=state, log=[created])
    while not state.finished:
        prompt = next_prompt(state, pending(state))
        bot = bots[prompt.seat]
        command = bot.choose(view(state, prompt.seat) if bot.needs_view else None, prompt)
        events = decide(state, command, dealer)
        game.commands.append(command)
        for e in events:
            evolve(state, e)
            game.log.append(e)
            if checker is not None:
                checker.after_event(state, e)
        if checker is not None:
            checker.after_command(state)
        if len(game.commands) > max_decisions:
            raise AssertionError(f"{created.game_id} did not end in {max_decisions} decisions")
    return game


def random_game(seats: int, seed: bytes, beginner: bool = False) -> GameCreated:
    return new_game(f"game-{seed.hex()}", seats, seed, beginner=beginner)


class Checker:
    """The invariants of a base game.

    Cheap ones after every event: each resource's bank + hands == 19, nothing negative, piece
    limits, the development cards all accounted for, VP recounted from the board == `score`.
    At command boundaries (when derived awards have settled): the award holders follow §1.8/§1.9
    and the active seat never sits at the target without having won. Expensive ones (views for
    every seat and a spectator, board consistency, an independent longest-road search) every
    `sample`-th event and at the end.
    """

    def __init__(self, sample: int = 97) -> None:
        self.sample = sample
        self.events = 0
        self.played_cards = 0  # road building, year of plenty, monopoly (knights are counted)
        self.counts: Counter[str] = Counter()

    def after_event(self, state: State, e: Event) -> None:
        self.events += 1
        kind = type(e)
        self.counts[kind.__name__] += 1
        if kind in (RoadBuildingPlayed, YearOfPlentyPlayed, MonopolyPlayed):
            self.played_cards += 1
        players = state.players
        hands = [p.hand for p in players]
        totals = [sum(column) for column in zip(state.bank, *hands, strict=True)]
        assert totals == [19, 19, 19, 19, 19], f"bank + hands = {totals} after {e!r}"
        assert min(min(state.bank), *(min(h) for h in hands)) >= 0, f"a negative count after {e!r}"
        limits = state.rules.cache.limits
        held_dev = 0
        for p in players:
            assert len(p.roads) <= limits["road"] == 15
            assert len(p.settlements) <= limits["settlement"] == 5
            assert len(p.cities) <= limits["city"] == 4
            held_dev += sum(p.dev) + p.knights
        assert sum(state.deck) + held_dev + self.played_cards == 25, "a development card vanished"
        assert min(state.deck) >= 0
        scores = score(state)
        assert scores == recount_vp(state), e
        if kind is CardStolen or kind is DevelopmentCardBought:
            self.check_redaction(state, e)
        if kind is GameFinished:
            self.check_finish(state, e)  # type: ignore[arg-type]
        if self.events % self.sample == 0:
            self.check_expensive(state)

    def after_command(self, state: State) -> None:
        lengths = [p.road_length for p in state.players]
        holder = state.longest_holder
        if holder != NO_ONE:
            assert lengths[holder] >= 5, lengths
            assert lengths[holder] == max(lengths), lengths
        else:
            best = max(lengths)
            assert best < 5 or lengths.count(best) > 1, f"longest road unclaimed at {lengths}"
        knights = [p.knights for p in state.players]
        army = state.army_holder
        if army != NO_ONE:
            assert knights[army] >= 3, knights
            assert knights[army] == max(knights), knights
        else:
            assert max(knights) < 3, f"largest army unclaimed at {knights}"
        if not state.finished and state.phase != SETUP:
            seat = state.current
            assert score(state)[seat] < state.rules.hooks.win_target(state, seat), "a win was missed"

    def check_redaction(self, state: State, e: Event) -> None:
        involved = {e.thief, e.victim} if isinstance(e, CardStolen) else {e.seat}  # type: ignore[attr-defined]
        for seat in [*range(state.n), None]:
            seen = redact(state, e, seat)
            secret = seen.resource if isinstance(seen, CardStolen) else seen.card  # type: ignore[attr-defined]
            if seat in involved:
                assert seen == e
            else:
                assert secret is None, f"seat {seat} sees the secret of {e!r}"

    def check_finish(self, state: State, e: GameFinished) -> None:
        if e.reason == "victory":
            assert e.winner == state.current, "a seat won outside its own turn"
            assert e.scores == score(state)
            assert e.scores[e.winner] >= state.rules.hooks.win_target(state, e.winner)

    def check_expensive(self, state: State) -> None:
        check_views(state)
        check_board(state)


def check_views(state: State) -> None:
    """Every seat sees its own hand and cards, and of the others only counts."""
    for seat in [*range(state.n), None]:
        v = view(state, seat)
        for pv in v.players:
            p = state.players[pv.seat]
            assert pv.cards == sum(p.hand)
            assert pv.dev_cards == sum(p.dev)
            if pv.seat == seat:
                assert pv.hand == {RESOURCES[r]: n for r, n in enumerate(p.hand) if n}
                assert pv.dev_hand is not None
                assert sum(pv.dev_hand.values()) == sum(p.dev)
                assert pv.vp == score(state)[seat]
            else:
                hidden = (pv.hand, pv.dev_hand, pv.vp)
                assert hidden == (None, None, None), f"seat {seat} sees seat {pv.seat}'s cards"



def check_board(state: State) -> None:
    """Pieces in the players' sets match the board; the distance rule holds; road lengths
    match an independent search."""
    topo = state.board.topo
    for p in state.players:
        assert p.roads == {e for e, o in enumerate(state.edge_owner) if o == p.seat}
        mine = {v for v, o in enumerate(state.vertex_owner) if o == p.seat}
        assert p.settlements | p.cities == mine
        assert not p.settlements & p.cities
        assert all(state.vertex_level[v] == SETTLEMENT for v in p.settlements)
        assert all(state.vertex_level[v] == CITY for v in p.cities)
        assert p.road_length == longest_path(state, p.seat), f"seat {p.seat}'s road length"
    for v, o in enumerate(state.vertex_owner):
        if o != NO_ONE:
            assert topo.vertex_is_land[v]
            assert all(state.vertex_owner[u] == NO_ONE for u in topo.vertex_neighbours[v])
    for e, o in enumerate(state.edge_owner):
        if o != NO_ONE:
            assert topo.edge_is_land[e]
