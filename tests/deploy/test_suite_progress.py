"""`make test` says, once a minute, how many tests ran and about how long the rest will take
(tests/suite_progress.py), from the pace since the first test ended."""

from __future__ import annotations

import pytest
from suite_progress import SuiteProgress


class Said(SuiteProgress):
    def __init__(self, config: pytest.Config) -> None:
        super().__init__(config, every=0.0)
        self.lines: list[str] = []

    def say(self, text: str) -> None:
        self.lines.append(text)


def test_the_estimate_is_the_pace_since_the_first_test_times_what_is_left(
        pytestconfig: pytest.Config) -> None:
    progress = Said(pytestconfig)
    progress.total = 1650
    progress.done = 641
    assert progress.line(elapsed=330.0, pacing=300.0) == (
        "tests: 641 of 1,650 in 6 min; about 8 min left")  # 1009 left at 640 per 300 s


def test_a_line_comes_only_after_teardown_reports(pytestconfig: pytest.Config) -> None:
    progress = Said(pytestconfig)
    progress.total = 3
    for when in ("setup", "call", "teardown", "setup", "call", "teardown"):
        progress.pytest_runtest_logreport(pytest.TestReport(
            "t.py::x", ("t.py", 1, "x"), {}, "passed", None, when))
    assert progress.done == 2
    assert len(progress.lines) == 1
    assert progress.lines[0].startswith("tests: 2 of 3 in ")
