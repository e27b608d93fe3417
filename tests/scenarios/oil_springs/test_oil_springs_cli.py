"""Oil Springs through Redis as a user runs it: `hexlog play --scenario oil-springs` plays a
whole game on the embedded Valkey, `hexlog replay` tells the oil and the disasters in words,
`hexlog audit` re-judges the game clean, and `hexlog bench engine --scenario oil-springs --json`
gives rates."""

from __future__ import annotations

import json

from cli_helpers import Hexlog
from scenario_kit import audit_passes, play, replay


def test_play_replay_and_audit_an_oil_springs_game_through_redis(hexlog: Hexlog) -> None:
    result = play(hexlog, "--scenario", "oil-springs", "--seed", "oil-cli-1",
                  "--game-id", "oil-cli", "--bots", "random,random,random,heuristic")
    assert result["modules"] == [{"name": "oil-springs", "params": {}}]
    assert result["vp_target"] == 12
    replayed = replay(hexlog, "oil-cli")
    assert "The oil springs pay out oil" in replayed
    assert "disaster! The dice show" in replayed
    assert ("Industrial pollution" in replayed) or ("floods the coast" in replayed)
    assert audit_passes(hexlog, "oil-cli").splitlines()[-1].startswith("OK")


def test_bench_engine_rates_oil_springs(hexlog: Hexlog) -> None:
    bench = hexlog.run("bench", "engine", "--scenario", "oil-springs", "--games", "10", "--json")
    assert bench.code == 0, bench.err[-2000:]
    data = json.loads(bench.out)
    assert data
