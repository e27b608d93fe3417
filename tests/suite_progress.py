"""A line of progress with an estimate of what is left, every minute of a long test run.

`make test` runs over 1,600 tests for several minutes; pytest's dots say how many ran, not how
long the rest will take. This plugin (registered by tests/conftest.py) counts finished tests in
the process that reports them (the controller under pytest-xdist) and prints, once a minute,
`tests: 640 of 1,650 in 5 min; about 8 min left`.

The estimate: each test's duration of the last run is kept in pytest's cache, so what is left
is the sum of the remaining tests' last durations spread over the workers, scaled by how this
run's finished tests compare with their last durations (a busier machine); a test never timed
before counts as the mean of those that were. With no cache (a fresh clone, CI), the pace of
this run since the first test ended.
"""

from __future__ import annotations

import os
import time
from typing import Any

import pytest

EVERY_S = float(os.environ.get("HEXLOG_TEST_PROGRESS_S", "60"))
CACHE_KEY = "hexlog/durations"


def _minutes(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min"


class SuiteProgress:
    def __init__(self, config: pytest.Config, every: float = EVERY_S) -> None:
        self.config = config
        self.every = every
        self.ids: set[str] = set()
        self.total = 0
        self.done = 0
        self.start = time.monotonic()
        self.last = self.start
        self.first = 0.0  # when the first test ended: the pace is measured from there
        self.took: dict[str, float] = {}  # this run: seconds per finished test
        cache = getattr(config, "cache", None)
        self.before: dict[str, float] = dict(cache.get(CACHE_KEY, {})) if cache else {}
        self.workers = max(1, int(getattr(config.option, "numprocesses", 0) or 1))

    # One server (no xdist): the items collected here.
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.ids = {item.nodeid for item in session.items}
        self.total = len(self.ids)

    # Under xdist the controller collects nothing itself; every worker collects the whole set.
    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        self.ids |= set(ids)
        self.total = len(self.ids)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.took[report.nodeid] = self.took.get(report.nodeid, 0.0) + report.duration
        if report.when != "teardown":
            return
        self.done += 1
        now = time.monotonic()
        self.first = self.first or now
        if now - self.last >= self.every and self.total and self.done > 1:
            self.last = now
            self.say(self.line(now - self.start, now - self.first))

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        cache = getattr(self.config, "cache", None)
        if cache is not None and self.took:
            cache.set(CACHE_KEY, {**self.before, **{k: round(v, 3) for k, v in self.took.items()}})

    def left(self, pacing: float) -> float:
        """Seconds left: from the last run's durations when they cover what ran, else from
        this run's pace."""
        finished = [i for i in self.took if i in self.before]
        if self.before and len(finished) * 2 >= self.done:
            then = sum(self.before[i] for i in finished)
            now = sum(self.took[i] for i in finished)
            busier = now / then if then > 0 else 1.0
            mean = sum(self.before.values()) / len(self.before)
            remaining = [i for i in self.ids if i not in self.took]
            seconds = sum(self.before.get(i, mean) for i in remaining)
            return seconds * busier / self.workers
        return (self.total - self.done) * pacing / (self.done - 1)

    def line(self, elapsed: float, pacing: float) -> str:
        """`pacing`: the time since the first test ended (start-up is not the pace)."""
        return (f"tests: {self.done:,} of {self.total:,} in {_minutes(elapsed)}; "
                f"about {_minutes(self.left(pacing))} left")

    def say(self, text: str) -> None:
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.ensure_newline()
            reporter.write_line(text)
