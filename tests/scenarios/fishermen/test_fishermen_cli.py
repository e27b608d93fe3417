"""The Fishermen through the command line and Redis (the embedded Valkey): `hexlog play
--scenario fishermen [--variant …]` plays a whole game through the rules service, `hexlog replay`
tells its fish in words, `hexlog audit` re-judges it from the revealed seed; `hexlog rulesets`
lists the scenario with what it combines with; `hexlog bench engine --scenario fishermen`."""

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


@pytest.mark.slow
@pytest.mark.parametrize("variants", [(), ("catan-for-two", "event-cards")], ids=["plain", "two"])
def test_play_replay_and_audit_a_fishermen_game_through_redis(
        hexlog: Hexlog, variants: tuple[str, ...]) -> None:
    game = "fish-" + ("-".join(variants) or "plain")
    argv = ["play", "--scenario", "fishermen", "--seed", "fishing", "--game-id", game, "--json"]
    for v in variants:
        argv += ["--variant", v]
    played = hexlog.run(*argv, timeout=300)
    assert played.code == 0, played.err[-2000:]
    result = json.loads(played.out)
    assert result["winner"] is not None or result.get("reason") == "turn_limit", result
    replayed = hexlog.run("replay", game, timeout=120)
    assert replayed.code == 0, replayed.err[-2000:]
    assert "draws a fish token" in replayed.out  # a spectator sees that a token was drawn
    assert "draws a token of" not in replayed.out  # … never its value
    as_referee = hexlog.run("replay", game, "--as", "referee", timeout=120)
    assert as_referee.code == 0, as_referee.err[-2000:]
    assert "draws a token of" in as_referee.out
    audited = hexlog.run("audit", game, timeout=300)
    assert audited.code == 0, audited.out[-2000:]
    assert audited.out.splitlines()[-1].startswith("OK")


def test_rulesets_lists_the_fishermen_with_every_variant(hexlog: Hexlog) -> None:
    listed = hexlog.run("rulesets", "--json")
    assert listed.code == 0, listed.err
    assert "fishermen" in listed.out


def test_bench_engine_runs_the_fishermen(hexlog: Hexlog) -> None:
    result = hexlog.run("bench", "engine", "--scenario", "fishermen", "--games", "3", "--json")
    assert result.code == 0, result.err
    assert json.loads(result.out)["games_per_s"] > 0
