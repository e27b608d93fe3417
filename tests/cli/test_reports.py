"""What the commands tell a user (issue 11, items 8 and 9): a played game's VP add up and name the
rules; `--json` carries the seed and the modules; harbor points show; a spectator sees the
winner's true total once the game is over; a tournament lists its games; the data dir is said
and the services log under it; `--version`; every option explains itself.
"""

from __future__ import annotations

import argparse
import json

from cli_helpers import CORPUS, Hexlog

from services.cli.main import build_parser

AWARD = 2


def test_play_reports_vp_that_add_up_with_the_seed_and_the_rules(hexlog: Hexlog) -> None:
    result = hexlog.run("play", "--variant", "harbormaster", "--variant",
                        "victory-points:target=8", "--seed", "report", "--json")
    assert result.code == 0, result.err
    game = json.loads(result.out)
    assert game["modules"] == [{"name": "harbormaster", "params": {}},
                               {"name": "victory-points", "params": {"target": 8}}]
    assert len(game["seed"]) == 64
    assert game["vp_target"] == 9  # harbormaster plays to one more
    for p in game["players"]:
        awards = [a for a in p["awards"] if a != "harbormaster"]
        assert p["vp"] == (p["settlements"] + 2 * p["cities"] + AWARD * len(awards)
                           + p["vp_cards"] + p["module_vp"]), p
        assert p["harbor_points"] is not None
    assert game["scores"] == [p["vp"] for p in game["players"]]
    assert game["scores"][game["winner"]] >= 9
    again = hexlog.run("play", "--variant", "harbormaster", "--variant", "victory-points:target=8",
                       "--seed", game["seed"], "--json")
    replayed = json.loads(again.out)  # the revealed seed deals this game again, and the
    assert replayed["seed"] == game["seed"]  # bots, seeded per decision from it, play it again
    assert (replayed["scores"], replayed["events"]) == (game["scores"], game["events"])

    text = hexlog.run("play", "--variant", "harbormaster", "--seed", "report-text")
    assert text.code == 0, text.err
    assert "rules: base + harbormaster; play to 11 VP" in text.out
    assert "harbor pts" in text.out
    assert "VP = settlements + 2 x cities" in text.out
    assert "seed: " in text.out


def test_a_spectator_sees_the_winners_total_once_the_game_is_over(hexlog: Hexlog) -> None:
    played = json.loads(hexlog.run("play", "--seed", "spectator", "--json").out)
    winner = played["winner"]
    shown = hexlog.run("replay", played["game_id"])
    assert shown.code == 0, shown.err
    rows = shown.out.split("\nseat name", 1)[1].splitlines()[1:]
    row = next(r for r in rows if r.startswith(str(winner)))
    vp = row.split(")", 1)[1].split()[0:2]  # "public" or "public (total)"
    total = vp[1].strip("()") if len(vp) > 1 and vp[1].startswith("(") else vp[0]
    assert int(total) == played["scores"][winner]


def test_replay_shows_harbor_points(hexlog: Hexlog) -> None:
    shown = hexlog.run("replay", str(CORPUS / "harbormaster-3.jsonl"))
    assert shown.code == 0
    assert " hb awards" in shown.out


def test_the_tournament_table_lists_its_games(hexlog: Hexlog) -> None:
    result = hexlog.run("tournament", "--bots", "random,heuristic", "--games", "4",
                        "--turn-limit", "40", "--seed", "listing")
    assert result.code == 0, result.err
    assert "games (`hexlog replay ID` shows one" in result.out
    ids = [line.split()[0] for line in result.out.splitlines() if line.startswith("  t-")]
    assert len(ids) == 4
    assert hexlog.run("replay", ids[0]).code == 0


def test_the_data_dir_is_said_and_holds_the_logs(hexlog: Hexlog) -> None:
    elsewhere = hexlog.cwd / "elsewhere"
    result = hexlog.run("play", "--turn-limit", "30", "--data-dir", str(elsewhere))
    assert result.code == 0, result.err
    assert f"with its data in {elsewhere}" in result.err
    assert (elsewhere / "logs" / "serve-rules.log").exists()
    assert not (hexlog.cwd / ".hexlog").exists()
    assert not hexlog.data.exists()
    kept = list((elsewhere / "credentials").glob("*.json"))
    assert len(kept) == 1
    assert oct(kept[0].stat().st_mode & 0o777) == "0o600"


def test_version(hexlog: Hexlog) -> None:
    result = hexlog.run("--version")
    assert result.code == 0
    assert result.out.startswith("hexlog ")
    assert "(rules " in result.out


def test_every_option_of_every_command_has_help() -> None:
    parser = build_parser()
    missing = []
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, sub in [("hexlog", parser), *commands.choices.items()]:
        for action in sub._actions:
            if not action.help and not isinstance(action, argparse._SubParsersAction):
                missing.append(f"{name} {'/'.join(action.option_strings) or action.dest}")
    assert not missing, missing
    help_text = parser.format_help()
    for code in ("0 ok", "1 the command failed", "2 bad usage", "130 interrupted"):
        assert code in help_text


def test_acl_prints_the_deploy_file_for_the_shipped_pools(hexlog: Hexlog) -> None:
    from pathlib import Path

    result = hexlog.run("acl")
    assert result.code == 0
    assert result.out == (Path(__file__).parents[2] / "deploy" / "users.acl").read_text()
    mine = hexlog.run("acl", "--pools", "plain", "--password", "s3cret-{user}")
    assert "user bot-plain on" in mine.out
    assert ">s3cret-bot-plain" in mine.out
