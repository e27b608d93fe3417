"""Random complete games with the friendly-robber and/or harbormaster modules, checked after
every event against values recounted from the raw state (not with the modules' own helpers).

Used by tests/variants/test_friendly_robber.py and test_harbormaster.py.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from bots.heuristic import HeuristicBot
from bots.local import next_prompt
from bots.random_bot import RandomBot
from bots.sdk import Bot
from events.events import Event, GameCreated, GameFinished, ModuleSpec, RobberMoved
from events.harbormaster import HarbormasterChanged
from events.types import DEV_INDEX, RESOURCES
from services.rules.engine import decide, evolve, initial_state, new_game, pending, score, view
from services.rules.engine.chance import SeededDealer
from services.rules.engine.state import CITY, NO_ONE, SETTLEMENT, SETUP, State

VP_CARD = DEV_INDEX["victory_point"]
START_VP = 2
BASE_TARGET = 10


def harbor_points(state: State) -> list[int]:
    """Per seat, from the vertices: 1 per settlement and 2 per city on a harbor vertex."""
    pts = [0] * state.n
    owner, level = state.vertex_owner, state.vertex_level
    for v in harbor_vertices(state.board.vertex_harbor):
        o = owner[v]
        if 0 <= o < state.n:  # seats only, not neutral pieces
            pts[o] += 2 if level[v] == CITY else 1
    return pts


@cache
def harbor_vertices(vertex_harbor: tuple[str | None, ...]) -> tuple[int, ...]:
    """The vertices on a harbor (checked after every command of thousands of games: the
    other two thirds of the board need not be looked at each time)."""
    return tuple(v for v, kind in enumerate(vertex_harbor) if kind is not None)


def public_recount(state: State, harbormaster: bool) -> list[int]:
    vp = [0] * state.n
    for o, level in zip(state.vertex_owner, state.vertex_level, strict=True):
        if 0 <= o < state.n:
            vp[o] += 1 if level == SETTLEMENT else 2
    if state.longest_holder != NO_ONE:
        vp[state.longest_holder] += 2
    if state.army_holder != NO_ONE:
        vp[state.army_holder] += 2
    if harbormaster and state.ext["harbormaster"] != NO_ONE:
        vp[state.ext["harbormaster"]] += 2
    return vp


@dataclass
class Checker:
    friendly: bool
    harbormaster: bool
    counts: Counter[str] = field(default_factory=Counter)
    robber_before: int = NO_ONE

    def before_command(self, state: State) -> None:
        self.robber_before = state.robber

    def after_event(self, state: State, e: Event) -> None:
        for r in range(5):
            total = state.bank[r] + sum(p.hand[r] for p in state.players)
            assert total == 19, f"{RESOURCES[r]}: bank + hands = {total} after {e!r}"
            assert min(p.hand[r] for p in state.players) >= 0
        for p in state.players:
            assert len(p.roads) <= 15
            assert len(p.settlements) <= 5
            assert len(p.cities) <= 4
        public = public_recount(state, self.harbormaster)
        total = tuple(public[p.seat] + p.dev[VP_CARD] for p in state.players)
        assert score(state) == total, (score(state), total, e)
        kind = type(e)
        self.counts[kind.__name__] += 1
        if kind is RobberMoved and self.friendly:
            self.check_robber(state, e, public)  # type: ignore[arg-type]
        elif kind is HarbormasterChanged:
            assert "Harbormaster card" in e.describe()  # type: ignore[attr-defined]
        elif kind is GameFinished:
            target = BASE_TARGET + (1 if self.harbormaster else 0)
            assert state.rules.hooks.win_target(state, 0) == target
            if e.winner is not None:  # type: ignore[attr-defined]
                assert e.scores[e.winner] >= target  # type: ignore[attr-defined]

    def check_robber(self, state: State, e: RobberMoved, public: list[int]) -> None:
        """§2: never next to a protected player unless no hex was open (then the desert);
        never a protected victim."""
        topo = state.board.topo
        shielded = {s for s in range(state.n) if public[s] <= START_VP}

        def touches(h: int) -> bool:
            return any(state.vertex_owner[v] in shielded for v in topo.hex_vertices[h])

        if touches(e.hex) or e.hex == self.robber_before:
            others = [h for h in range(len(topo.hexes))
                      if topo.hex_is_land[h] and h != self.robber_before]
            assert all(touches(h) for h in others), f"robber next to a protected player: {e!r}"
            assert e.hex in state.board.desert_hexes, f"fallback must be the desert: {e!r}"
            self.counts["fallback_stay" if e.hex == self.robber_before else "fallback_desert"] += 1
        if e.victim is not None:
            assert e.victim not in shielded, f"a protected player was robbed: {e!r}"
        if shielded:
            self.counts["robber_with_protected"] += 1

    def after_command(self, state: State) -> None:
        if self.harbormaster:
            pts = harbor_points(state)
            held = state.ext["harbormaster"]
            if held == NO_ONE:
                assert max(pts) < 3, f"harbormaster card unclaimed at {pts}"
            else:
                assert pts[held] >= 3, (held, pts)
                assert pts[held] == max(pts), (held, pts)
        if not state.finished and state.phase != SETUP:
            seat = state.current
            assert score(state)[seat] < state.rules.hooks.win_target(state, seat), "a win was missed"


def modules_for(names: Sequence[str]) -> tuple[ModuleSpec, ...]:
    return tuple(ModuleSpec(name=n) for n in names)


def play_checked(names: Sequence[str], seed: bytes, bots: Sequence[Bot], seats: int,
                 checker: Checker) -> tuple[GameCreated, State, list[Event]]:
    created = new_game(seed.decode(), seats, seed, modules=modules_for(names), turn_limit=2000)
    state, log = play_to_end(created, bots, SeededDealer(seed), checker)
    return created, state, log


def play_to_end(created: GameCreated, bots: Sequence[Bot], dealer: SeededDealer,
                checker: Any) -> tuple[State, list[Event]]:
    """Play with `checker` watching (before_command / after_event / after_command); every
    prompt's default must be one of its options. Returns the final state and the log."""
    state = initial_state(created)
    log: list[Event] = [created]
    while not state.finished:
        prompt = next_prompt(state, pending(state))
        assert prompt.default in prompt.options or not prompt.options, prompt
        bot = bots[prompt.seat]
        command = bot.choose(view(state, prompt.seat) if bot.needs_view else None, prompt)
        checker.before_command(state)
        for e in decide(state, command, dealer):
            evolve(state, e)
            log.append(e)
            checker.after_event(state, e)
        checker.after_command(state)
    return state, log


def replay(created: GameCreated, log: Sequence[Event]) -> State:
    state = initial_state(created)
    for e in log[1:]:
        evolve(state, e)
    return state


def run_games(names: Sequence[str], games: int, kind: str = "random", tag: str = "g",
              seats_cycle: Sequence[int] = (4, 3, 2)) -> Counter[str]:
    """Play `games` checked games; every game's log replays to its live state."""
    friendly = "friendly-robber" in names
    harbor = "harbormaster" in names
    checker = Checker(friendly=friendly, harbormaster=harbor)
    for g in range(games):
        seats = seats_cycle[g % len(seats_cycle)]
        seed = f"{tag}:{'+'.join(names)}:{g}".encode()
        bots: list[Bot] = [
            (HeuristicBot if kind == "heuristic" else RandomBot)(g * 10 + s) for s in range(seats)
        ]
        created, state, log = play_checked(names, seed, bots, seats, checker)
        assert replay(created, log).to_dict() == state.to_dict(), f"replay differs in game {g}"
        checker.counts["games"] += 1
        checker.counts["won" if state.winner != NO_ONE else "undecided"] += 1
    return checker.counts

