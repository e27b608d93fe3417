"""Helpers for the tournament tests: `hexlog` commands as real processes (with their child
services), reading games back from the store, and dumping projection keys.

Every process started here is killed at the end of its test, children included: the services
a `hexlog tournament` spawns live in sessions of their own, so they are tracked by pid.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import psutil
from redis.asyncio import Redis

from events.codec import codec
from events.envelope import EventEnvelope
from services.store import EventStore

HERE = Path(__file__).parent
T = TypeVar("T")


@dataclass
class Proc:
    """A `hexlog` process with its output files; `tree` remembers every descendant seen."""

    proc: subprocess.Popen[bytes]
    out: Path
    err: Path
    seen: dict[int, psutil.Process] = field(default_factory=dict)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def stdout(self) -> str:
        return self.out.read_text(errors="replace")

    def stderr(self) -> str:
        return self.err.read_text(errors="replace")

    def describe(self) -> str:
        return f"exit {self.proc.returncode}\nstdout:\n{self.stdout()[-3000:]}\nstderr:\n{self.stderr()[-3000:]}"

    def children(self) -> list[psutil.Process]:
        """Descendants now alive (also remembered, to be killed later even if re-parented)."""
        try:
            found = psutil.Process(self.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            found = []
        for p in found:
            self.seen.setdefault(p.pid, p)
        return found

    def wait(self, timeout: float) -> int:
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.children()
            self.kill()
            raise AssertionError(f"hexlog {self.pid} did not end in {timeout}s\n{self.describe()}") from None

    def kill(self) -> None:
        """SIGKILL the process and every descendant ever seen."""
        self.children()
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        for p in self.seen.values():
            try:
                if p.is_running():
                    p.kill()
            except psutil.NoSuchProcess:
                pass


class Hexlog:
    """Starts `hexlog …` processes on one Redis; `kill_all` at the end of a test."""

    def __init__(self, url: str, tmp: Path) -> None:
        self.url = url
        self.tmp = tmp
        self.procs: list[Proc] = []

    def start(self, *args: str, name: str = "hexlog", **env: str) -> Proc:
        n = len(self.procs)
        out, err = self.tmp / f"{name}-{n}.out", self.tmp / f"{name}-{n}.err"
        path = os.environ.get("PYTHONPATH", "")
        full_env = {
            **os.environ,
            "REDIS_URL": self.url,
            "HEXLOG_LOG_DIR": str(self.tmp / "logs"),
            "HEXLOG_LOG_LEVEL": "info",
            "PYTHONPATH": str(HERE) + (os.pathsep + path if path else ""),
            **env,
        }
        with out.open("wb") as o, err.open("wb") as e:
            proc = subprocess.Popen([sys.executable, "-m", "services.cli.main", *args],
                                    env=full_env, cwd=self.tmp, stdin=subprocess.DEVNULL,
                                    stdout=o, stderr=e, start_new_session=True)
        p = Proc(proc, out, err)
        self.procs.append(p)
        return p

    def run(self, *args: str, timeout: float = 120.0, **env: str) -> Proc:
        """Run to the end; fails the test on a non-zero exit."""
        p = self.start(*args, **env)
        code = p.wait(timeout)
        assert code == 0, p.describe()
        return p

    def kill_all(self) -> None:
        for p in self.procs:
            p.kill()


async def wait_for(check: Callable[[], Awaitable[T]], timeout: float, what: str,
                   every: float = 0.1) -> T:
    deadline = time.monotonic() + timeout
    while True:
        value = await check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        await asyncio.sleep(every)


def kill_pid(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


async def events(redis: Redis, game_id: str) -> list[EventEnvelope]:
    c = codec()
    return [c.decode_event_envelope(b) for _, b in await EventStore(redis).read(game_id, 0)]


async def dump_keys(redis: Redis, pattern: str) -> dict[str, Any]:
    """Every key matching `pattern` with its value (strings, hashes, lists, sets, zsets)."""
    out: dict[str, Any] = {}
    async for raw in redis.scan_iter(match=pattern, count=1000):
        key = raw.decode()
        kind = (await redis.type(key)).decode()
        if kind == "string":
            value: Any = await redis.get(key)
        elif kind == "hash":
            value = await redis.hgetall(key)
        elif kind == "list":
            value = await redis.lrange(key, 0, -1)
        elif kind == "set":
            value = sorted(await redis.smembers(key))
        elif kind == "zset":
            value = await redis.zrange(key, 0, -1, withscores=True)
        else:
            value = f"<{kind}>"
        out[key] = value
    return out


def standings_of(stdout: str) -> dict[str, Any]:
    """The `--json` object a `hexlog tournament --json` printed."""
    result: dict[str, Any] = json.loads(stdout.strip().splitlines()[-1])
    return result


# The tournament most tests look at: 3 duplicate sets of random vs heuristic, 2 + 2 seats.
# Deadlines of 3 s: shorter than the resume test's downtime, so a restart that let deadlines
# run out while no rules service was up would show (default moves the first run never made).
BASELINE = ("tournament", "--bots", "random,heuristic", "--games", "12", "--seed", "tests-baseline",
            "--deadline-ms", "3000", "--concurrency", "4", "--json")


@dataclass
class Finished:
    url: str
    result: dict[str, Any]  # the `--json` output
    hexlog: Hexlog
