"""Through Redis (the embedded Valkey): `hexlog play --scenario barbarian-attack` plays a full
game, `hexlog replay` tells its knights, barbarians and battles in words, `hexlog audit`
passes; `hexlog bench engine --scenario barbarian-attack --json` measures it."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[2] / "cli"))

from cli_helpers import Hexlog  # noqa: E402


@pytest.fixture
def hexlog(tmp_path: Path) -> Iterator[Hexlog]:
    h = Hexlog(tmp_path)
    yield h
    h.stop_all()


def test_play_replay_and_audit_a_barbarian_attack_game(hexlog: Hexlog) -> None:
    played = hexlog.run("play", "--scenario", "barbarian-attack", "--seed", "ba-cli", "--json")
    assert played.code == 0, played.err
    game = json.loads(played.out)
    assert game["winner"] is not None
    assert game["vp_target"] == 12
    assert game["scores"][game["winner"]] >= 12
    shown = hexlog.run("replay", game["game_id"])
    assert shown.code == 0, shown.err
    text = shown.out
    assert "Barbarians land on" in text
    assert "buys a development card" in text
    assert "knight marches from" in text or "raises a knight" in text
    assert "Battle at" in text
    assert "drive off" in text
    checked = hexlog.run("audit", game["game_id"])
    assert checked.code == 0, checked.err
    assert "OK: every event" in checked.out


def test_bench_engine_for_barbarian_attack(hexlog: Hexlog) -> None:
    result = hexlog.run("bench", "engine", "--scenario", "barbarian-attack", "--games", "5",
                        "--json")
    assert result.code == 0, result.err
    rates = json.loads(result.out)
    assert rates
