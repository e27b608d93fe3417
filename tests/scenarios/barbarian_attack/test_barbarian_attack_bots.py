"""The heuristic bot plays Barbarian Attack sensibly (its advice, advice.py): it buys cards,
raises knights, marches them onto the barbarians' hexes, wins battles for prisoners, and beats
random bots; the random bot finishes its games."""

from __future__ import annotations

from collections import Counter

from ba_helpers import SPEC
from recording import Recorder, bot_chooser

from events.barbarian_attack import (
    AttackCardDrawn,
    CoastalBattleWon,
    KnightMarched,
    KnightRaised,
)
from services.rules.engine.scenarios.barbarian_attack.common import attack

HEURISTIC = (0, 2)


def test_heuristic_bots_raise_and_march_knights_win_battles_and_beat_random() -> None:
    wins: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    for i in range(4):
        rec = Recorder.new(f"bots-{i}", f"ba-bots-{i}".encode(), seats=4, modules=[SPEC],
                           turn_limit=400)
        rec.play(bot_chooser(["heuristic", "random", "heuristic", "random"]),
                 max_decisions=30_000)
        for entry in rec.record().events:
            e = entry.event
            if isinstance(e, AttackCardDrawn) and e.seat in HEURISTIC:
                seen["cards"] += 1
            elif isinstance(e, KnightRaised) and e.seat in HEURISTIC:
                seen["raised"] += 1
            elif isinstance(e, KnightMarched) and e.seat in HEURISTIC:
                seen["marched"] += 1
            elif isinstance(e, CoastalBattleWon):
                seen["won by heuristic"] += sum(e.prisoners[s] for s in HEURISTIC)
        assert rec.state.finished
        wins["heuristic" if rec.state.winner in HEURISTIC else "other"] += 1
        prisoners = attack(rec.state).prisoners
        seen["prisoners"] += sum(prisoners[s] for s in HEURISTIC)
    assert wins["heuristic"] >= 3, wins
    assert seen["cards"] >= 20, seen
    assert seen["raised"] >= 10, seen
    assert seen["marched"] >= 10, seen
    assert seen["won by heuristic"] >= 5, seen


def test_random_bots_finish_their_games() -> None:
    for i in range(6):
        rec = Recorder.new(f"random-{i}", f"ba-random-{i}".encode(), seats=2 + i % 3,
                           modules=[SPEC], turn_limit=2000)
        rec.play(bot_chooser(["random"] * (2 + i % 3)), max_decisions=60_000)
        assert rec.state.finished
