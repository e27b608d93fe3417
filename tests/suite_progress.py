"""A line of progress with an estimate of what is left, every minute of a long test run.

`make test` runs over 1,600 tests for several minutes; pytest's dots say how many ran, not how
long the rest will take. This plugin (registered by tests/conftest.py) counts finished tests in
the process that reports them (the controller under pytest-xdist) and prints, once a minute,
`tests: 640 of 1,650 in 5 min; about 8 min left`, from the pace so far.
"""

from __future__ import annotations

import os
import time
from typing import Any

import pytest

EVERY_S = float(os.environ.get("HEXLOG_TEST_PROGRESS_S", "60"))


def _minutes(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min"


class SuiteProgress:
    def __init__(self, config: pytest.Config, every: float = EVERY_S) -> None:
        self.config = config
        self.every = every
        self.total = 0
        self.done = 0
        self.start = time.monotonic()
        self.last = self.start
        self.first = 0.0  # when the first test ended: the pace is measured from there

    # One server (no xdist): the items collected here.
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.total = len(session.items)

    # Under xdist the controller collects nothing itself; every worker collects the whole set.
    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        self.total = max(self.total, len(ids))

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when != "teardown":
            return
        self.done += 1
        now = time.monotonic()
        self.first = self.first or now
        if now - self.last >= self.every and self.total and self.done > 1:
            self.last = now
            self.say(self.line(now - self.start, now - self.first))

    def line(self, elapsed: float, pacing: float) -> str:
        """`pacing`: the time since the first test ended (start-up is not the pace)."""
        left = (self.total - self.done) * pacing / (self.done - 1)
        return (f"tests: {self.done:,} of {self.total:,} in {_minutes(elapsed)}; "
                f"about {_minutes(left)} left")

    def say(self, text: str) -> None:
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.ensure_newline()
            reporter.write_line(text)
