"""Oil Springs through Redis as a user runs it: `hexlog play --scenario oil-springs` plays a
whole game on the embedded Valkey, `hexlog replay` tells the oil and the disasters in words,
`hexlog audit` re-judges the game clean, and `hexlog bench engine --scenario oil-springs --json`
gives rates."""

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


def test_play_replay_and_audit_an_oil_springs_game_through_redis(hexlog: Hexlog) -> None:
    played = hexlog.run("play", "--scenario", "oil-springs", "--seed", "oil-cli-1",
                        "--game-id", "oil-cli", "--bots", "random,random,random,heuristic",
                        "--json")
    assert played.code == 0, played.err[-2000:]
    result = json.loads(played.out)
    assert result["modules"] == [{"name": "oil-springs", "params": {}}]
    assert result["vp_target"] == 12
    replayed = hexlog.run("replay", "oil-cli")
    assert replayed.code == 0, replayed.err[-2000:]
    assert "The oil springs pay out oil" in replayed.out
    assert "disaster! The dice show" in replayed.out
    assert ("Industrial pollution" in replayed.out) or ("floods the coast" in replayed.out)
    audited = hexlog.run("audit", "oil-cli")
    assert audited.code == 0, audited.out[-2000:]
    assert audited.out.splitlines()[-1].startswith("OK")


def test_bench_engine_rates_oil_springs(hexlog: Hexlog) -> None:
    bench = hexlog.run("bench", "engine", "--scenario", "oil-springs", "--games", "10", "--json")
    assert bench.code == 0, bench.err[-2000:]
    data = json.loads(bench.out)
    assert data
