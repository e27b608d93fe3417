"""`make test` says, once a minute, how many tests ran and about how long the rest will take
(tests/suite_progress.py): from the last run's durations when pytest's cache has them, else
from this run's pace since the first test ended."""

from __future__ import annotations

import pytest
from suite_progress import SuiteProgress


class Said(SuiteProgress):
    def __init__(self, config: pytest.Config, before: dict[str, float]) -> None:
        super().__init__(config, every=0.0)
        self.before = before
        self.workers = 2
        self.lines: list[str] = []

    def say(self, text: str) -> None:
        self.lines.append(text)


def report(nodeid: str, when: str, duration: float) -> pytest.TestReport:
    return pytest.TestReport(nodeid, ("t.py", 1, nodeid), {}, "passed", None, when,
                             duration=duration)


def test_without_a_last_run_the_estimate_is_this_runs_pace(pytestconfig: pytest.Config) -> None:
    progress = Said(pytestconfig, before={})
    progress.total = 1650
    progress.done = 641
    assert progress.line(elapsed=330.0, pacing=300.0) == (
        "tests: 641 of 1,650 in 6 min; about 8 min left")  # 1009 left at 640 per 300 s


def test_with_a_last_run_the_estimate_is_what_the_rest_took_then_on_a_machine_this_busy(
        pytestconfig: pytest.Config) -> None:
    before = {"a": 1.0, "b": 1.0, "slow": 100.0, "quick": 2.0}
    progress = Said(pytestconfig, before=before)
    progress.ids = {"a", "b", "slow", "quick", "new"}
    progress.total = 5
    for nodeid in ("a", "b"):  # each took twice as long as last time: a busier machine
        for when in ("setup", "call", "teardown"):
            progress.pytest_runtest_logreport(report(nodeid, when, 2 / 3))
    # left: slow 100 + quick 2 + new (the mean of the last run, 26) = 128 s, x2, over 2 workers
    assert progress.left(pacing=1.0) == pytest.approx(128.0)
    assert progress.lines[-1].startswith("tests: 2 of 5 in ")
    assert progress.lines[-1].endswith("; about 2 min left")
