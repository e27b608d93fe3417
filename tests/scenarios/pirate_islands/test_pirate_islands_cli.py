"""The Pirate Islands end to end through Redis, as a user runs it: `hexlog play --scenario
pirate-islands` plays a whole game on the embedded Valkey with the real services and bots,
`hexlog replay` shows the sea and the ships and tells the fleet and fortresses in words,
`hexlog audit` re-judges it clean, `hexlog render` draws it; the engine benchmark runs it."""

from __future__ import annotations

import json
import re

from cli_helpers import Hexlog
from scenario_kit import audit_passes, play, replay

from services.cli.result import format_result


def test_play_replay_audit_and_render_a_pirate_islands_game(hexlog: Hexlog) -> None:
    game = play(hexlog, "--scenario", "pirate-islands", "--bots",
                "heuristic,random,heuristic,random", "--seed", "pirates", "--turn-limit", "300")
    assert game["modules"] == [{"name": "pirate-islands", "params": {}}]
    assert game["events"] > 200
    gid = game["game_id"]
    # The text report's parts add up: a captured fortress is module VP.
    for p in game["players"]:
        assert p["vp"] == (p["settlements"] + 2 * p["cities"] + p["vp_cards"] + p["module_vp"])
    if any(p["module_vp"] for p in game["players"]):
        assert "module VP" in format_result(game)
    text = replay(hexlog, gid)
    assert "the pirate fleet sails" in text
    assert "built a ship at" in text
    assert "GOL" in text  # the gold fields on the text board
    assert "~~~" in text  # the sea between the islands
    early = hexlog.run("replay", gid, "--at", "120")
    # The fleet on its hex, the fortresses with their strength, listed in words by label.
    assert "\n  the pirate fleet: hex " in early.out
    assert re.search(r"\n  pirate fortress of \S+ \(\w+\), strength 3: corner \w+", early.out)
    assert "OK:" in audit_passes(hexlog, gid)
    picture = hexlog.cwd / "board.svg"
    drawn = hexlog.run("render", gid, "-o", str(picture), "--at", "120")
    assert drawn.code == 0, drawn.err
    svg = picture.read_text()
    legend = svg[svg.index('id="legend"'):]
    assert "the pirate fleet" in legend
    assert "pirate fortress of a seat, with its strength" in legend


def test_bench_engine_runs_the_scenario(hexlog: Hexlog) -> None:
    result = hexlog.run("bench", "engine", "--scenario", "pirate-islands", "--games", "3",
                        "--json")
    assert result.code == 0, result.err
    rates = json.loads(result.out)
    assert rates["variants"] == ["pirate-islands"]
    assert rates["unfinished_games"] == 0
    assert rates["games_per_s"] > 0
