"""`hexlog bench ladder`: a ladder of its own with bots of known strengths over HTTP; its
report's fields, and Kendall's tau it ranks them by."""

from __future__ import annotations

import json

import pytest
from ladder_helpers import Hexlog

from services.cli.bench_ladder import STRENGTH, kendall_tau


def test_kendall_tau_b_of_orders_with_and_without_ties() -> None:
    assert kendall_tau([3, 2, 1], [3, 2, 1]) == 1.0
    assert kendall_tau([3, 2, 1], [1, 2, 3]) == -1.0
    # Two kinds of two bots each, found in the right order: the ties are no discordance.
    assert kendall_tau([2, 2, 1, 1], [4, 3, 2, 1]) == pytest.approx(0.8165, abs=1e-4)
    assert kendall_tau([2, 2, 1, 1], [1, 2, 3, 4]) == pytest.approx(-0.8165, abs=1e-4)


def test_a_short_run_reports_what_it_promises(tmp_path: pytest.TempPathFactory) -> None:
    hexlog = Hexlog(tmp_path)  # type: ignore[arg-type]
    try:
        done = hexlog.run("bench", "ladder", "--bots", "4", "--games", "2", "--json",
                          timeout=900)
    finally:
        hexlog.stop_all()
    assert done.code == 0, done.err[-3000:]
    out = json.loads(done.out)
    assert out["games"] >= 2
    assert out["games_per_hour"] > 0
    assert 0 < out["first_game_s"] < out["seconds"]
    assert len(out["ranking"]) == 4
    assert {row["kind"] for row in out["ranking"]} <= set(STRENGTH)
    for row in out["ranking"]:
        low, high = row["interval"]
        assert low < row["rating"] < high
        assert row["games"] >= 2
    assert -1.0 <= out["kendall_tau"] <= out["kendall_tau_max"] <= 1.0


def test_too_few_bots_is_refused_in_one_line(tmp_path: pytest.TempPathFactory) -> None:
    done = Hexlog(tmp_path).run("bench", "ladder", "--bots", "3")  # type: ignore[arg-type]
    assert done.code == 2
    assert "--bots" in done.err
