"""Progress on stderr, drawn by rich on a terminal and as a few plain lines elsewhere.

On a terminal each display redraws in place (rich handles the cursor and the width); in a log
or CI (stderr not a terminal) a game says nothing until its result and a run of many games
writes one plain line at the start, every tenth of the way, every 10 s while the caller has
news (a long run must not look stuck) and at the end, so a log stays readable. Every display is a context manager and is closed before the result is printed.
"""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from services.rules.engine import public_vp
from services.rules.engine.state import State


def _console() -> Console:
    return Console(file=sys.stderr, highlight=False)


class _Display:
    """A rich Progress with one task, or nothing when disabled."""

    def __init__(self, enabled: bool, *columns: Any) -> None:
        self.progress = Progress(*columns, console=_console(), transient=False) if enabled else None
        self.task = self.progress.add_task("", total=None) if self.progress else None

    def __enter__(self) -> _Display:
        if self.progress is not None:
            self.progress.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.progress is not None:
            self.progress.stop()

    def show(self, **fields: Any) -> None:
        if self.progress is not None and self.task is not None:
            self.progress.update(self.task, **fields)


class GameProgress(_Display):
    """`⠋ turn 42 · main · public VP 3/5/2/4 · 612 events · 0:00:07` for `hexlog play`."""

    def __init__(self, enabled: bool) -> None:
        super().__init__(enabled, SpinnerColumn(), TextColumn("{task.description}"),
                         TimeElapsedColumn())

    def update(self, state: State) -> None:
        if self.progress is None:
            return
        vps = "/".join(str(public_vp(state, s)) for s in range(state.n))
        self.show(description=f"turn {state.turn:4d} · {state.phase:<14} · public VP {vps} · "
                              f"{state.version} events")

    def __enter__(self) -> GameProgress:
        super().__enter__()
        return self


LINE_EVERY_S = 10.0  # in a log, a line at least this often while there is news


class CountProgress(_Display):
    """A bar over `total` items (games), with a rate and what else the caller says; on a
    terminal only. `lines` prints plain lines instead (a log, CI)."""

    def __init__(self, total: int, what: str = "games", *, lines: bool = False) -> None:
        super().__init__(sys.stderr.isatty() and not lines, BarColumn(), TextColumn(
            "{task.completed}/{task.total} " + what + " · {task.fields[rate]} · {task.fields[extra]}"),
            TimeElapsedColumn())
        self.total = total
        self.what = what
        self.started = time.monotonic()
        self.lines = lines and total > 0
        self.shown = -1
        self.line_at = 0.0
        self.extra = ""
        self.show(total=total, rate="", extra="")

    def __enter__(self) -> CountProgress:
        super().__enter__()
        return self

    def update(self, done: int, extra: str | None = None, rate: str = "") -> None:
        """`extra` None: what the last call said."""
        extra = self.extra if extra is None else extra
        self.extra = extra
        if not rate:
            elapsed = time.monotonic() - self.started
            rate = f"{done / elapsed * 60:.1f} {self.what}/min" if elapsed > 0 and done else "-"
        self.show(completed=done, rate=rate, extra=extra)
        if self.lines:
            step = max(1, self.total // 10)
            stale = time.monotonic() - self.line_at > LINE_EVERY_S
            if (self.shown < 0 or done // step != self.shown // step or done == self.total
                    or (stale and extra)):
                self.shown, self.line_at = done, time.monotonic()
                print(f"  {done}/{self.total} {self.what} | {rate} | {extra}", file=sys.stderr,
                      flush=True)
