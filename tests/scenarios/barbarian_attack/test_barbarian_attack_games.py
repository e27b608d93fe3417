"""Property test: complete Barbarian Attack games (random bots, a heuristic seat in every tenth
game, 2–4 seats, the combinable variants in every fourth; every 20th game audited) end with a winner or at the turn cap, keep the scenario's invariants after
every command, hide hands, and audit clean from their recorded logs.

Invariants: per resource bank + hands == 19; barbarians on the board + supply + prisoners ==
30, only on coastal hexes, at most three per hex; at most 6 knights per seat, on land paths, one
per path, never two on one path; gold never negative; the deck's counts within the 26 cards;
points recounted from the board (buildings not conquered, Longest Road, prisoner pairs).
"""

from __future__ import annotations

import os

import pytest
from ba_helpers import SPEC
from recording import Recorder, bot_chooser

from events.events import ModuleSpec
from services.audit.audit import audit
from services.rules.engine import score, view
from services.rules.engine.scenarios.barbarian_attack.common import (
    BARBARIANS,
    DECK,
    KNIGHTS,
    attack,
    building_conquered,
    geometry,
)
from services.rules.engine.state import NO_ONE, State

# Every fourth game adds the variants the scenario combines with.
VARIANTS: tuple[tuple[ModuleSpec, ...], ...] = (
    (ModuleSpec(name="harbormaster"),),
    (ModuleSpec(name="event-cards"),),
    (ModuleSpec(name="harbormaster"), ModuleSpec(name="event-cards")),
    (ModuleSpec(name="victory-points", params={"target": 8}),),
)
GAMES = int(os.environ.get("BA_GAMES", "1000"))
TURN_LIMIT = 50  # random tables rarely finish: the cap keeps the sweep short
HEURISTIC_TURN_LIMIT = 300  # a heuristic seat wins in about 80 turns


def check(state: State) -> None:
    a = attack(state)
    g = geometry(state.board)
    for r in range(5):
        assert state.bank[r] + sum(p.hand[r] for p in state.players) == 19
        assert state.bank[r] >= 0
        assert all(p.hand[r] >= 0 for p in state.players)
    assert sum(a.barbarians) + a.supply + sum(a.prisoners) == BARBARIANS
    assert a.supply >= 0
    assert max(a.barbarians) <= 3
    assert min(a.barbarians) >= 0
    assert all(n == 0 for h, n in enumerate(a.barbarians) if h not in g.coastal_set)
    seen: set[int] = set()
    for p in state.players:
        mine = p.pieces.get("knight", set())
        assert len(mine) <= KNIGHTS
        assert not mine & seen
        assert all(state.board.topo.edge_is_land[e] for e in mine)
        seen |= mine
    assert min(a.gold) >= 0
    assert all(p.knights == len(p.pieces.get("knight", ())) for p in state.players)
    assert all(0 <= n <= full for n, full in zip(a.deck, DECK, strict=True))
    assert sum(a.deck) > 0
    expected = []
    for p in state.players:
        vp = sum(1 for v in p.settlements if not building_conquered(state, v))
        vp += sum(2 for v in p.cities if not building_conquered(state, v))
        vp += 2 if state.longest_holder == p.seat else 0
        vp += a.prisoners[p.seat] // 2
        vp += 2 if state.ext.get("harbormaster") == p.seat else 0
        expected.append(vp)
    assert score(state) == tuple(expected)


def check_views(state: State) -> None:
    for seat in [*range(state.n), None]:
        seen = view(state, seat)
        for p in seen.players:
            assert (p.hand is not None) == (p.seat == seat)


def play(i: int, audit_it: bool) -> Recorder:
    seats = 4 if i % 3 == 0 else 3 if i % 3 == 1 else 2
    kinds = ["random"] * seats
    if i % 10 == 1:
        kinds[i % seats] = "heuristic"
    limit = HEURISTIC_TURN_LIMIT if "heuristic" in kinds else TURN_LIMIT
    modules = [SPEC, *VARIANTS[i % len(VARIANTS)]] if i % 4 == 3 else [SPEC]
    rec = Recorder.new(f"ba-{i}", f"ba-sweep-{i}".encode(), seats=seats, modules=modules,
                       turn_limit=limit)
    choose = bot_chooser(kinds)
    decisions = 0
    while not rec.state.finished:
        result = rec.send(choose(rec, rec.prompt()))
        assert not isinstance(result, Exception), result
        check(rec.state)
        decisions += 1
        assert decisions < 20_000
    check_views(rec.state)
    if audit_it:
        report = audit(rec.record())
        assert report.exit_code == 0, report.to_dict()
    return rec


@pytest.mark.slow
def test_barbarian_attack_random_games_keep_the_invariants_and_audit_clean() -> None:
    finished = {"victory": 0, "turn_limit": 0}
    for i in range(GAMES):
        rec = play(i, audit_it=i % 20 == 0)
        s = rec.state
        assert s.finished
        finished["victory" if s.winner != NO_ONE else "turn_limit"] += 1
    assert finished["victory"] >= GAMES // 20, finished
