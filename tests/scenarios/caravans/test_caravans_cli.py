"""The Caravans through Redis: `hexlog play --scenario caravans [--variant …]` plays whole games
on the embedded Valkey, `hexlog replay` tells the votes and camels in words, `hexlog audit`
passes; `hexlog rulesets` lists what combines and `hexlog play` refuses what cannot."""

from __future__ import annotations

import json

import pytest
from cli_helpers import Hexlog
from scenario_kit import audit_passes, play, replay


def test_caravans_play_replay_and_audit_through_redis(hexlog: Hexlog) -> None:
    game = play(hexlog, "--scenario", "caravans", "--seed", "caravans-cli")
    assert game["modules"] == [{"name": "caravans", "params": {}}]
    assert game["vp_target"] == 12
    assert game["winner"] is not None
    assert game["scores"][game["winner"]] >= 12
    shown = replay(hexlog, game["game_id"])
    assert "the table votes on the next camel" in shown
    assert "names a placement (sealed)" in shown
    assert "The vote is revealed" in shown
    assert "A camel joins" in shown
    assert " caravan at " not in "".join(x for x in shown.splitlines() if "names" in x)
    referee = replay(hexlog, game["game_id"], "--as", "referee")
    named = [x for x in referee.splitlines() if " names " in x]
    assert named
    assert all(" caravan at " in x for x in named)  # the referee sees every sealed choice
    assert "OK" in audit_passes(hexlog, game["game_id"])


def test_caravans_play_with_the_variants_through_redis(hexlog: Hexlog) -> None:
    for variants, target in ((["friendly-robber", "event-cards", "harbormaster"], 13),
                             (["catan-for-two"], 12)):
        argv = [a for v in variants for a in ("--variant", v)]
        game = play(hexlog, "--scenario", "caravans", *argv, "--seed", "cv-var",
                    "--turn-limit", "400")
        assert game["vp_target"] == target
        audit_passes(hexlog, game["game_id"])


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
