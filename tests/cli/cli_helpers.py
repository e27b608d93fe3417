"""The `hexlog` command as a user runs it: the installed console script as a subprocess, in a
folder of its own, with its own data dir and no REDIS_URL (unless a test sets one).

`Hexlog.run` returns the exit code, stdout and stderr; `one_line_error` is what every failure
must look like: no traceback, and every line on stderr a single `hexlog…` line, the last one
the error. Long-running commands (`hexlog up`) are started with `Hexlog.start` and always
stopped (their children too) at the end of the test. The `hexlog` fixture is imported by the
conftest.py of each directory that uses it (tests/cli, tests/scenarios).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psutil
import pytest

SCRIPT = Path(sys.executable).parent / "hexlog"
CORPUS = Path(__file__).parents[1] / "corpus"


@dataclass
class Result:
    code: int
    out: str
    err: str

    def lines(self) -> list[str]:
        return [line for line in self.err.splitlines() if line.strip()]


def one_line_error(result: Result, code: int, text: str) -> None:
    """Exit `code`, no traceback, every stderr line one `hexlog` line, the last naming `text`."""
    assert result.code == code, (result.code, result.err[-2000:])
    assert "Traceback" not in result.err, result.err[-3000:]
    lines = result.lines()
    assert lines, "no message at all"
    assert all(line.startswith("hexlog") for line in lines), lines
    assert text in lines[-1], lines


class Hexlog:
    def __init__(self, tmp: Path) -> None:
        self.cwd = tmp
        self.data = tmp / "data"
        self.env = {k: v for k, v in os.environ.items()
                    if k not in ("REDIS_URL", "HEXLOG_LOG_DIR", "HEXLOG_DEBUG")}
        self.env["HEXLOG_DATA_DIR"] = str(self.data)
        self.procs: list[subprocess.Popen[str]] = []

    def command(self, *args: str) -> list[str]:
        if SCRIPT.exists():
            return [str(SCRIPT), *args]
        return [sys.executable, "-m", "services.cli.main", *args]  # an uninstalled checkout

    def run(self, *args: str, timeout: float = 120, **env: str) -> Result:
        done = subprocess.run(self.command(*args), cwd=self.cwd, env={**self.env, **env},
                              capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
        return Result(done.returncode, done.stdout, done.stderr)

    def start(self, *args: str, **env: str) -> subprocess.Popen[str]:
        """In a session of its own, as a terminal would run it; SIGINT to its group is Ctrl-C."""
        proc = subprocess.Popen(self.command(*args), cwd=self.cwd, env={**self.env, **env},
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        self.procs.append(proc)
        return proc

    def wait_for_line(self, proc: subprocess.Popen[str], text: str, timeout: float = 30) -> list[str]:
        """stderr lines of `proc` read until one holds `text`."""
        assert proc.stderr is not None
        seen: list[str] = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = proc.stderr.readline()
            if not line and proc.poll() is not None:
                break
            seen.append(line)
            if text in line:
                return seen
        raise AssertionError(f"no {text!r} on stderr within {timeout}s: {seen}")

    def stop_all(self) -> None:
        for proc in self.procs:
            try:
                family = psutil.Process(proc.pid).children(recursive=True)
            except psutil.NoSuchProcess:
                family = []
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
            for child in family:
                with contextlib.suppress(psutil.NoSuchProcess):
                    child.kill()
            proc.wait(10)


@pytest.fixture
def hexlog(tmp_path: Path) -> Iterator[Hexlog]:
    h = Hexlog(tmp_path)
    yield h
    h.stop_all()
