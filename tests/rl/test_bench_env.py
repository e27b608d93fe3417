"""`hexlog bench env`: steps per second of each environment on a ruleset, as JSON; a venv
without catanatron's environment is refused in one line."""

from __future__ import annotations

import json
import sys

from cli_helpers import Hexlog, one_line_error


def test_bench_env_measures_each_environment(hexlog: Hexlog) -> None:
    result = hexlog.run("bench", "env", "--steps", "300", "--scenario", "fishermen", "--json")
    assert result.code == 0, result.err[-2000:]
    report = json.loads(result.out)
    assert report["build"] in ("compiled", "interpreted")
    rows = {(r["ruleset"], r["env"]): r for r in report["results"]}
    assert set(rows) == {("fishermen", "gym 1v1"), ("fishermen", "gym 1v3"), ("fishermen", "aec")}
    assert all(r["steps_per_s"] > 0 for r in rows.values())
    assert rows[("fishermen", "gym 1v1")]["actions"] > 800


def test_a_python_without_catanatron_is_refused(hexlog: Hexlog) -> None:
    result = hexlog.run("bench", "env", "--steps", "50", "--scenario", "caravans",
                        "--catanatron-python", sys.executable)
    one_line_error(result, 1, "catanatron's environment did not run")
