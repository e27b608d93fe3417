"""benchmarks/compare_e2e.py puts two trees through `hexlog bench e2e` in one run: a table of
medians against the first (the share of the ceiling among its columns), each round's paired
ratio, and with `--json FILE` every run's figures, one item per tree in the order given (two
trees of the same name included). A tiny run on the engine this run tests (`--compiled` where
that is the compiled build: the tree is used as found); no timing asserted."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from services.rules.build import engine_build

ROOT = Path(__file__).resolve().parents[2]


def test_two_trees_give_a_table_with_the_ceiling_share_and_every_run_in_the_file(
        tmp_path: Path) -> None:
    out = tmp_path / "runs.json"
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "compare_e2e.py"), str(ROOT), str(ROOT),
         "--rounds", "1", "--json", str(out),
         *(["--compiled"] if engine_build() == "compiled" else []), "--",
         "--games", "2", "--concurrency", "2", "--ceiling-s", "1"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    header = next(line for line in run.stdout.splitlines() if "commands_per_s" in line)
    assert header.split()[-1] == "of_ceiling"
    assert "rules_and_bots" in run.stdout
    assert "paired" in run.stdout
    assert f"engines {engine_build()}" in run.stdout
    assert not run.stderr.strip().endswith("}")  # the figures go to the file, not the screen
    runs = json.loads(out.read_text())
    assert [item["revision"] for item in runs] == [ROOT.name, ROOT.name]
    for item in runs:
        (figures,) = item["runs"]
        assert figures["commands"] > 0
        assert 0 < figures["of_ceiling"] < 1
