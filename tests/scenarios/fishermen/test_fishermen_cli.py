"""The Fishermen through the command line and Redis (the embedded Valkey): `hexlog play
--scenario fishermen [--variant …]` plays a whole game through the rules service, `hexlog replay`
tells its fish in words, `hexlog audit` re-judges it from the revealed seed; `hexlog rulesets`
lists the scenario with what it combines with; `hexlog bench engine --scenario fishermen`."""

from __future__ import annotations

import json

import pytest
from cli_helpers import Hexlog
from scenario_kit import audit_passes, play, replay


@pytest.mark.slow
@pytest.mark.parametrize("variants", [(), ("catan-for-two", "event-cards")], ids=["plain", "two"])
def test_play_replay_and_audit_a_fishermen_game_through_redis(
        hexlog: Hexlog, variants: tuple[str, ...]) -> None:
    game = "fish-" + ("-".join(variants) or "plain")
    argv = ["--scenario", "fishermen", "--seed", "fishing", "--game-id", game]
    for v in variants:
        argv += ["--variant", v]
    result = play(hexlog, *argv, timeout=300)
    assert result["winner"] is not None or result.get("reason") == "turn_limit", result
    replayed = replay(hexlog, game)
    assert "draws a fish token" in replayed  # a spectator sees that a token was drawn
    assert "draws a token of" not in replayed  # … never its value
    assert "draws a token of" in replay(hexlog, game, "--as", "referee")
    assert audit_passes(hexlog, game, timeout=300).splitlines()[-1].startswith("OK")


def test_rulesets_lists_the_fishermen_with_every_variant(hexlog: Hexlog) -> None:
    listed = hexlog.run("rulesets", "--json")
    assert listed.code == 0, listed.err
    assert "fishermen" in listed.out


def test_bench_engine_runs_the_fishermen(hexlog: Hexlog) -> None:
    result = hexlog.run("bench", "engine", "--scenario", "fishermen", "--games", "3", "--json")
    assert result.code == 0, result.err
    assert json.loads(result.out)["games_per_s"] > 0
