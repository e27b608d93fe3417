"""The command line for the Traders & Barbarians variants: `hexlog rulesets` lists each variant
with its one-line description, seats, what it combines with and what it refuses (and why);
`hexlog play` refuses a forbidden combination with the reason and exit code 2 *before* it
starts Redis or any service; `hexlog bench engine --variant …` runs every variant and pair.

Through `services.cli.main.main([...])`, as the console script calls it. (Playing through
Redis is verified by hand and in tests/service; here nothing needs a server.)
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

from services.cli import play as play_cli
from services.cli.main import main
from services.rules.engine import MODULES

VARIANTS = ("friendly-robber", "harbormaster", "event-cards", "catan-for-two")
PAIRS = list(itertools.combinations(VARIANTS, 2))


@pytest.fixture
def no_services(monkeypatch: pytest.MonkeyPatch) -> None:
    """`hexlog play` must refuse before it starts Valkey or a service."""

    def forbidden(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a refused game must not start Redis")

    monkeypatch.setattr(play_cli, "server_for", forbidden)


def test_rulesets_lists_every_variant_with_description_seats_and_combinations(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rulesets"]) == 0
    out = capsys.readouterr().out
    for name in VARIANTS:
        line = next(x for x in out.splitlines() if x.strip().startswith(name + " "))
        assert MODULES[name].description in line
    blocks = {name: block_of(out, name) for name in VARIANTS}
    assert "2 seats" in blocks["catan-for-two"]
    assert "2-4 seats" in blocks["event-cards"]
    combines = next(x for x in blocks["catan-for-two"].splitlines() if "combines with:" in x)
    partners = set(combines.split(":", 1)[1].replace(",", " ").split())
    assert {"event-cards", "friendly-robber", "harbormaster"} <= partners  # scenarios may follow
    assert "catan-for-two (2 seats)" in blocks["harbormaster"]
    assert "not with pirate-islands: Pirate Islands moves its fleet" in blocks["event-cards"]


def block_of(out: str, name: str) -> str:
    lines = out.splitlines()
    start = next(i for i, x in enumerate(lines) if x.strip().startswith(name + " "))
    end = next((i for i in range(start + 1, len(lines))
                if lines[i].startswith("  ") and not lines[i].startswith("   ")), len(lines))
    return "\n".join(lines[start:end])


def test_rulesets_json_gives_the_combinations_as_data(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rulesets", "--json"]) == 0
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["catan-for-two"]["seats"] == [2]
    assert rows["catan-for-two"]["combines_with"]["event-cards"] == [2]
    assert rows["friendly-robber"]["combines_with"]["harbormaster"] == [2, 3, 4]
    assert "pirate-islands" in rows["event-cards"]["refused"]


def test_rulesets_shows_a_conflict_from_either_side_once_both_modules_exist(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rulesets"]) == 0
    out = capsys.readouterr().out
    assert "scenarios (--scenario NAME, one per game)" in out
    assert "not with fishermen" not in block_of(out, "pirate-islands")  # said once, in the title
    assert "not with event-cards:" in block_of(out, "pirate-islands")
    assert "smaller of two dice" in block_of(out, "pirate-islands")
    assert "not with pirate-islands: Pirate Islands moves its fleet" in block_of(out, "event-cards")


@pytest.mark.usefixtures("no_services")
@pytest.mark.parametrize(("argv", "reason"), [
    (["--variant", "catan-for-two", "--bots", "random,random,heuristic"],
     "catan-for-two is played with 2 seats, not 3"),
    (["--variant", "catan-for-two", "--variant", "harbormaster", "--bots",
      "random,random,random,random"], "catan-for-two is played with 2 seats, not 4"),
    (["--variant", "event-cards", "--variant", "event-cards"], "chosen only once"),
    (["--variant", "no-such-variant"], "unknown rule module 'no-such-variant'"),
    (["--bots", "random"], "2 to 4 seats"),
], ids=["c42-3-seats", "c42-pair-4-seats", "twice", "unknown", "one-seat"])
def test_play_refuses_a_forbidden_game_with_the_reason_and_exit_code_2(
        argv: list[str], reason: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", *argv]) == 2
    assert reason in capsys.readouterr().err


@pytest.mark.usefixtures("no_services")
def test_play_refuses_event_cards_with_pirate_islands_with_the_reason(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--ruleset", "pirate-islands", "--variant", "event-cards"]) == 2
    err = capsys.readouterr().err
    assert "cannot be combined with" in err
    assert "smaller of two dice" in err


@pytest.mark.parametrize(("argv", "bots"), [
    ([], "random,random,heuristic,heuristic"),
    (["--variant", "event-cards", "--variant", "harbormaster"], "random,random,heuristic,heuristic"),
    (["--variant", "catan-for-two"], "random,heuristic"),
    (["--variant", "event-cards", "--variant", "catan-for-two"], "random,heuristic"),
    (["--variant", "catan-for-two", "--bots", "heuristic,heuristic"], "heuristic,heuristic"),
])
def test_play_picks_two_seats_for_catan_for_two_when_no_bots_are_given(
        argv: list[str], bots: str) -> None:
    from services.cli.main import build_parser

    args = build_parser().parse_args(["play", *argv])
    assert play_cli.play_bots(args) == bots.split(",")


@pytest.mark.parametrize("names", [(v,) for v in VARIANTS] + PAIRS,
                         ids=["+".join(n) for n in [(v,) for v in VARIANTS] + PAIRS])
def test_bench_engine_runs_every_variant_and_pair(
        names: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["bench", "engine", "--games", "3", "--json"]
    for name in names:
        argv += ["--variant", name]
    assert main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["variants"] == list(names)
    assert result["games"] == 3
    assert result["unfinished_games"] == 0


def test_bench_engine_refuses_catan_for_two_with_four_seats(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "engine", "--games", "1", "--seats", "4",
                 "--variant", "catan-for-two"]) == 2
    assert "played with 2 seats, not 4" in capsys.readouterr().err
