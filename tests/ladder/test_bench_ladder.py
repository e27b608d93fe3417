"""`hexlog bench ladder`: a ladder of its own with bots of known strengths over HTTP; its
report's fields, and Kendall's tau it ranks them by."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import time
from pathlib import Path

import psutil
import pytest
from ladder_helpers import Hexlog

from services.cli.bench_ladder import STRENGTH, kendall_tau
from services.runtime.scratch import clear_abandoned


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


def test_a_killed_benchmark_leaves_nothing_running(tmp_path: Path) -> None:
    # `hexlog up` and the bots run in sessions of their own (a Ctrl-C reaches the benchmark
    # alone): a kill -9 of the benchmark must stop them all the same, its Valkey included.
    hexlog = Hexlog(tmp_path)
    bench = hexlog.start("bench", "ladder", "--bots", "4", "--games", "50")
    family: list[psutil.Process] = []
    try:
        hexlog.wait_for_line(bench, "bots join", timeout=300)
        until = time.monotonic() + 60
        while True:  # the bots start after that line
            family = psutil.Process(bench.pid).children(recursive=True)
            names = " ".join(" ".join(p.cmdline()) for p in family)
            if names.count("services.ladder.player") == 4 or time.monotonic() > until:
                break
            time.sleep(0.2)
        assert "valkey-server" in names
        assert names.count("services.ladder.player") == 4
        os.kill(bench.pid, signal.SIGKILL)
        bench.wait(10)
        _, alive = psutil.wait_procs(family, timeout=60)
        assert not alive, [p.cmdline() for p in alive]
        left = list(hexlog.data.glob("bench-ladder-*"))
        assert len(left) == 1  # the folder stays until the next benchmark clears it
        assert clear_abandoned(hexlog.data) == left
    finally:
        hexlog.stop_all()
        for proc in family:  # what outlived the benchmark, should this test fail
            with contextlib.suppress(psutil.NoSuchProcess):
                proc.kill()
