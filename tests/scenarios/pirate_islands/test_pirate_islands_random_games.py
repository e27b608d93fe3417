"""Property test: 1,000 complete random games of The Pirate Islands (3 and 4 seats, random bots
with a heuristic seat in every fourth game and a heuristic table in every tenth) end with a
winner or at the turn cap, keep the invariants below after every event, and audit clean.

* conservation: for each resource bank + hands == 19, nothing negative; the development
  cards (20 with 3 seats, 25 with 4) are all in the deck, in hands or played;
* pieces: at most 15 roads, 15 ships, 5 settlements, 4 cities; each route is the seat's ships
  in order, joined from its slot settlement, on its lanes; warships never exceed the ships;
* the fleet is on its loop until every fortress has fallen, then off the board; fortress
  strengths stay within 0..3 and a captured one is its seat's piece; no robber, no awards;
  buildings off the main island only at a seat's own site or captured fortress;
* a winner has captured their own fortress and reached the target on their turn.

Every 100th game is also recorded as the rules service stores it and audited (`hexlog audit`)."""

from __future__ import annotations

import os
from collections import Counter

import pytest
from pirate_helpers import PIRATES
from recording import Recorder, bot_chooser
from tampering_kit import audit_recorded

from bots.heuristic import HeuristicBot
from bots.local import next_prompt
from bots.random_bot import RandomBot
from bots.sdk import Bot
from events.events import (
    Event,
    GameFinished,
    LargestArmyChanged,
    LongestRoadChanged,
    MonopolyPlayed,
    RoadBuildingPlayed,
    YearOfPlentyPlayed,
)
from events.pirate_islands import FleetRemoved, FortressCaptured, WarshipCommissioned
from services.rules.engine import (
    decide,
    evolve,
    initial_state,
    new_game,
    pending,
    total_vp,
    view,
)
from services.rules.engine.chance import SeededDealer
from services.rules.engine.pieces import count
from services.rules.engine.scenarios.pirate_islands.common import (
    EXT,
    FORTRESS,
    places,
)
from services.rules.engine.scenarios.pirate_islands.state import PirateState
from services.rules.engine.state import State

GAMES = int(os.environ.get("PIRATE_GAMES", "1000"))
TURN_LIMIT = 50  # random tables: enough for ships, fleet, 7s and attacks
LONG_LIMIT = 250  # heuristic tables: play on to a winner
HEURISTIC_TABLE = 20
CAPTURE = (FortressCaptured, FleetRemoved)
PLAYED = (WarshipCommissioned, RoadBuildingPlayed, YearOfPlentyPlayed, MonopolyPlayed)


def check(state: State, played: int) -> None:
    ps: PirateState = state.ext[EXT]
    pl = places(state.board)
    seats = state.players[: state.n]
    for r in range(5):
        assert state.bank[r] + sum(p.hand[r] for p in seats) == 19
        assert state.bank[r] >= 0
        assert all(p.hand[r] >= 0 for p in seats)
    assert sum(state.deck) + sum(sum(p.dev) for p in seats) + played == (25 if state.n == 4 else 20)
    assert state.robber == -1
    ev = state.board.topo.edge_vertices
    for p in seats:
        s = p.seat
        rules = state.rules
        assert count(p, "road", rules) <= 15
        assert count(p, "ship", rules) <= 15
        assert len(p.settlements) <= 5
        assert len(p.cities) <= 4
        route = ps.routes[s]
        assert set(route) == p.pieces.get("ship", set())
        assert len(route) == len(set(route))
        sp = pl.slots[s]
        at = sp.home
        for e in route:
            assert e in sp.lanes
            assert at in ev[e]
            a, b = ev[e]
            at = b if a == at else a
        assert 0 <= ps.warships[s] <= len(route)
        assert 0 <= ps.strength[s] <= 3
        assert (ps.strength[s] == 0) == (sp.fortress in p.pieces.get(FORTRESS, ()))
        for v in [*p.settlements, *p.cities]:
            on_main = any(h in pl.main_hexes for h in state.board.topo.vertex_land_hexes[v])
            assert on_main or v == sp.site
    assert (ps.fleet == -1) == all(x == 0 for x in ps.strength)
    assert -1 <= ps.fleet < len(pl.loop)


def bots_for(i: int, seats: int) -> list[Bot]:
    kinds = ["random"] * seats
    if i % 4 == 1:
        kinds[i % seats] = "heuristic"
    if i % HEURISTIC_TABLE == 3:
        kinds = ["heuristic"] * seats
    return [HeuristicBot(i * 7 + k) if kind == "heuristic" else RandomBot(i * 7 + k)
            for k, kind in enumerate(kinds)]


def play_checked(i: int) -> str:
    """One game, checked after every event (the engine and bots in one loop, as bots.local)."""
    seats = 4 if i % 3 else 3
    seed = f"pirates-{i}".encode()
    limit = LONG_LIMIT if i % HEURISTIC_TABLE == 3 else TURN_LIMIT
    created = new_game(f"p{i}", seats, seed, modules=[PIRATES], turn_limit=limit)
    bots = bots_for(i, seats)
    dealer = SeededDealer(seed)
    state = initial_state(created)
    played = 0
    last: Event = created
    while not state.finished:
        prompts = pending(state)
        prompt = next_prompt(state, prompts)
        bot = bots[prompt.seat]
        command = bot.choose(view(state, prompt.seat) if bot.needs_view else None, prompt)
        events = decide(state, command, dealer)
        for at, e in enumerate(events):
            evolve(state, e)
            played += isinstance(e, PLAYED)
            assert not isinstance(e, LongestRoadChanged | LargestArmyChanged)
            # A fortress's last hit, its capture and the fleet's leaving are one move.
            if not isinstance(events[at + 1] if at + 1 < len(events) else None, CAPTURE):
                check(state, played)
            if isinstance(e, GameFinished) and e.winner is not None:
                ps: PirateState = state.ext[EXT]
                assert e.winner == state.current
                assert ps.strength[e.winner] == 0
                assert total_vp(state, e.winner) >= state.rules.hooks.win_target(state, e.winner)
            last = e
    assert isinstance(last, GameFinished)
    return last.reason


def audited(i: int) -> None:
    seats = 4 if i % 2 else 3
    rec = Recorder.new(f"a{i}", f"audit-{i}".encode(), seats=seats, modules=[PIRATES],
                       turn_limit=LONG_LIMIT)
    rec.play(bot_chooser(["random", "heuristic", "random", "random"][:seats]), max_decisions=50_000)
    report = audit_recorded(rec)
    assert report.exit_code == 0, report.to_dict()


@pytest.mark.slow  # ~25 s of CPU; PIRATE_GAMES=100 for a quick run
def test_random_pirate_games_end_with_invariants_and_clean_audits() -> None:
    reasons = Counter(play_checked(i) for i in range(GAMES))
    assert sum(reasons.values()) == GAMES
    assert reasons["victory"] >= GAMES // HEURISTIC_TABLE // 2, reasons
    for i in range(0, GAMES, 100):
        audited(i)
