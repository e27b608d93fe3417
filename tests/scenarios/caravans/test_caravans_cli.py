"""The Caravans through Redis: `hexlog play --scenario caravans [--variant …]` plays whole games
on the embedded Valkey, `hexlog replay` tells the votes and camels in words, `hexlog audit`
passes; `hexlog rulesets` lists what combines and `hexlog play` refuses what cannot."""

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


def test_caravans_play_replay_and_audit_through_redis(hexlog: Hexlog) -> None:
    played = hexlog.run("play", "--scenario", "caravans", "--seed", "caravans-cli", "--json")
    assert played.code == 0, played.err
    game = json.loads(played.out)
    assert game["modules"] == [{"name": "caravans", "params": {}}]
    assert game["vp_target"] == 12
    assert game["winner"] is not None
    assert game["scores"][game["winner"]] >= 12
    shown = hexlog.run("replay", game["game_id"])
    assert shown.code == 0, shown.err
    assert "the table votes on the next camel" in shown.out
    assert "names a placement (sealed)" in shown.out
    assert "The vote is revealed" in shown.out
    assert "A camel joins" in shown.out
    assert " caravan at " not in "".join(x for x in shown.out.splitlines() if "names" in x)
    referee = hexlog.run("replay", game["game_id"], "--as", "referee")
    assert referee.code == 0, referee.err
    named = [x for x in referee.out.splitlines() if " names " in x]
    assert named
    assert all(" caravan at " in x for x in named)  # the referee sees every sealed choice
    audited = hexlog.run("audit", game["game_id"])
    assert audited.code == 0, audited.out + audited.err
    assert "OK" in audited.out


def test_caravans_play_with_the_variants_through_redis(hexlog: Hexlog) -> None:
    for variants, target in ((["friendly-robber", "event-cards", "harbormaster"], 13),
                             (["catan-for-two"], 12)):
        argv = [a for v in variants for a in ("--variant", v)]
        played = hexlog.run("play", "--scenario", "caravans", *argv, "--seed", "cv-var",
                            "--turn-limit", "400", "--json")
        assert played.code == 0, played.err
        game = json.loads(played.out)
        assert game["vp_target"] == target
        audited = hexlog.run("audit", game["game_id"])
        assert audited.code == 0, audited.out + audited.err


def test_caravans_rulesets_and_refusals(hexlog: Hexlog) -> None:
    listed = hexlog.run("rulesets", "--json")
    assert listed.code == 0, listed.err
    data = json.loads(listed.out)
    modules = data if isinstance(data, list) else data.get("modules", data)
    caravans = next(m for m in modules if m["name"] == "caravans")
    assert caravans["kind"] == "scenario"
    assert set(caravans["combines_with"]) >= {"friendly-robber", "event-cards", "harbormaster",
                                              "catan-for-two"}
    assert caravans["combines_with"]["catan-for-two"] == [2]
    refused = hexlog.run("play", "--scenario", "caravans", "--variant", "catan-for-two",
                         "--bots", "random,random,random")
    assert refused.code == 2
    assert "catan-for-two is played with 2 seats, not 3" in refused.err


@pytest.mark.parametrize("variants", [(), ("catan-for-two",), ("friendly-robber", "event-cards",
                                                                  "harbormaster")])
def test_caravans_bench_engine_json(variants: tuple[str, ...],
                                    capsys: pytest.CaptureFixture[str]) -> None:
    from services.cli.main import main

    argv = ["bench", "engine", "--scenario", "caravans", "--games", "3", "--json"]
    for name in variants:
        argv += ["--variant", name]
    assert main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["ruleset"] == "caravans"
    assert result["variants"] == ["caravans", *variants]
    assert result["games"] == 3
    assert result["unfinished_games"] == 0
