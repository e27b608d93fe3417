"""Through Redis (the embedded Valkey): `hexlog play --scenario barbarian-attack` plays a full
game, `hexlog replay` tells its knights, barbarians and battles in words, `hexlog audit`
passes; `hexlog bench engine --scenario barbarian-attack --json` measures it."""

from __future__ import annotations

import json

from cli_helpers import Hexlog
from scenario_kit import audit_passes, play, replay


def test_play_replay_and_audit_a_barbarian_attack_game(hexlog: Hexlog) -> None:
    game = play(hexlog, "--scenario", "barbarian-attack", "--seed", "ba-cli")
    assert game["winner"] is not None
    assert game["vp_target"] == 12
    assert game["scores"][game["winner"]] >= 12
    text = replay(hexlog, game["game_id"])
    assert "Barbarians land on" in text
    assert "buys a development card" in text
    assert "knight marches from" in text or "raises a knight" in text
    assert "Battle at" in text
    assert "drive off" in text
    assert "OK: every event" in audit_passes(hexlog, game["game_id"])


def test_bench_engine_for_barbarian_attack(hexlog: Hexlog) -> None:
    result = hexlog.run("bench", "engine", "--scenario", "barbarian-attack", "--games", "5",
                        "--json")
    assert result.code == 0, result.err
    rates = json.loads(result.out)
    assert rates
