"""Child processes of the `hexlog` command: spawning services, and a small supervisor that
restarts any that exit (FastStream exits with status 0 when Redis loses its groups, so *any*
exit of a long-running service is a reason to restart it).

structlog is imported where it logs: `hexlog up --help` states the restart rule from here, and
building the parser must not load the service stack (tests/engine/test_cli_imports.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from services.runtime.die_with_parent import DIE_WITH


def _log() -> Any:
    import structlog

    return structlog.get_logger("hexlog.supervisor")


def hexlog_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "services.cli.main", *args]


_log_dir = Path(".hexlog/logs")


def use_log_dir(path: Path) -> None:
    """Where services started from now on log: the data dir in use's `logs/` (the CLI sets
    it), unless `$HEXLOG_LOG_DIR` says otherwise."""
    global _log_dir
    _log_dir = path


def log_dir() -> Path:
    return Path(os.environ.get("HEXLOG_LOG_DIR") or _log_dir)


def log_path(args: Sequence[str]) -> Path:
    """The log file of a child started with `args` (`…/rules.log`, `…/serve-bots.log`)."""
    name = "-".join(a for a in args[3:5] if not a.startswith("-")) or "hexlog"
    return log_dir() / f"{name}.log"


def spawn(args: Sequence[str], url: str, quiet: bool = True) -> subprocess.Popen[bytes]:
    """Start a child service. A quiet child logs (JSON lines, level info) to a file under
    `log_dir()` (the data dir's `logs/`), named after the service (`log_path`): when a command
    fails, that is where to look."""
    env = dict(os.environ, REDIS_URL=url)
    env[DIE_WITH] = str(os.getpid())  # read by the child: `die_with_parent`
    out: Any = None
    if quiet:
        path = log_path(args)
        path.parent.mkdir(parents=True, exist_ok=True)
        out = path.open("ab")
        env.setdefault("HEXLOG_LOG_LEVEL", "info")
    try:
        return subprocess.Popen(
            list(args),
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=out,
            start_new_session=True,
        )
    finally:
        if out is not None:
            out.close()


def stop(procs: Sequence[subprocess.Popen[bytes]], timeout: float = 5.0) -> None:
    for p in procs:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + timeout
    for p in procs:
        try:
            p.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


STEADY_S = 10.0  # a service that ran this long was fine: its next exit restarts it at once
MAX_BACKOFF_S = 5.0  # the longest pause between two restarts of a service that keeps dying

Say = Callable[[str], None]


def backoff(failures: int) -> float:
    """Seconds before restart number `failures` in a row of a service that keeps exiting
    within STEADY_S of its start: none for the first, then 1, 2, 4 and MAX_BACKOFF_S from then
    on. Bounded low because whatever needs the service (a tournament, the games' deadlines)
    waits that long after each crash; the pause only keeps a service that fails at start from
    spinning."""
    # The exponent is capped: 2.0 ** 1024 overflows, after some 85 minutes of a service
    # that cannot start.
    return 0.0 if failures <= 1 else min(MAX_BACKOFF_S, 2.0 ** min(failures - 2, 32))


def restart_policy() -> str:
    """The restart rule in words, from the numbers above (`hexlog up --help` says it)."""
    growing, failures = [], 2
    while (pause := backoff(failures)) < MAX_BACKOFF_S:
        growing.append(f"{pause:g}")
        failures += 1
    return (f"a service that exits is started again at once if it ran {STEADY_S:g} s or more; "
            f"one that keeps exiting sooner waits {', '.join(growing)}, then {MAX_BACKOFF_S:g} s "
            "(never more) before each restart")


def restart_note(failures: int) -> str:
    """`restarting now`, or when and why later (one line of `hexlog up`)."""
    pause = backoff(failures)
    if not pause:
        return "restarting now"
    return (f"restarting in {pause:g}s (it keeps exiting within {STEADY_S:g} s of starting; "
            f"never more than {MAX_BACKOFF_S:g} s between restarts)")


class ServerLost(RuntimeError):
    """The server under the services is gone and will not be started again (why, and where
    its log is): the supervisor stops its services and the command ends with this."""


@dataclass
class Supervised:
    name: str
    args: list[str]
    url: str = ""  # its own Redis URL (its service's user); "" for the supervisor's
    proc: subprocess.Popen[bytes] | None = None
    restarts: int = 0
    started: float = field(default=0.0)
    failures: int = 0  # exits in a row that came before STEADY_S
    due: float = 0.0  # when a stopped service may start again


class Supervisor:
    """Keeps a set of services running: a service that exits is started again, at once the
    first time and then with a pause that grows to MAX_BACKOFF_S while it keeps exiting early
    (`backoff`). `gate` (if given) says why the services cannot run now (Redis unreachable) or
    None; while it says so, nothing is started and the supervisor waits, retrying with the same
    pauses, instead of restarting services that can only fail. `say` tells the user (one line
    each)."""

    def __init__(self, url: str, services: Sequence[Supervised], quiet: bool = False,
                 say: Say | None = None, gate: Callable[[], str | None] | None = None,
                 revive: Callable[[], list[str]] | None = None) -> None:
        """`revive`: starts again the Valkey nodes that died (a replicated set; the single
        embedded server: runtime/restart.py), each poll; what it says is told as the restarts
        are. A `ServerLost` it raises ends `run_forever` (the services stopped)."""
        self.url = url
        self.services = list(services)
        self.quiet = quiet
        self.say: Say = say or (lambda text: _log().warning(text))
        self.gate = gate
        self.revive = revive
        self.blocked = 0  # gate checks in a row that failed
        self.gate_due = 0.0

    def start(self) -> None:
        for s in self.services:
            self._start(s)

    def _start(self, s: Supervised) -> None:
        s.proc = spawn(s.args, s.url or self.url, quiet=self.quiet)
        s.started = time.monotonic()
        _log().info("started", service=s.name, pid=s.proc.pid)

    def check(self) -> list[str]:
        """Note every service that exited and start those that are due; returns the names
        (re)started."""
        now = time.monotonic()
        if self.revive is not None:
            try:
                for line in self.revive():
                    self.say(line)
            except ServerLost:
                raise
            except Exception as exc:  # a node that cannot start now is tried again next poll
                self.say(f"could not start a Valkey node again: {exc}")
        for s in self.services:
            if s.proc is None or s.proc.poll() is None:
                continue
            ran = now - s.started
            s.failures = s.failures + 1 if ran < STEADY_S else 1
            s.restarts += 1
            s.due = now + backoff(s.failures)
            where = f" (log: {log_path(s.args)})" if self.quiet else ""
            self.say(f"{s.name} exited with code {s.proc.returncode} after {ran:.1f}s; "
                     f"{restart_note(s.failures)}{where}")
            s.proc = None
        waiting = [s for s in self.services if s.proc is None and s.due <= now]
        if not waiting or not self._gate_open(now):
            return []
        for s in waiting:
            self._start(s)
        return [s.name for s in waiting]

    def _gate_open(self, now: float) -> bool:
        if self.gate is None:
            return True
        if now < self.gate_due:
            return False
        reason = self.gate()
        if reason is None:
            if self.blocked:
                self.say("Redis answers again; starting the services")
            self.blocked = 0
            return True
        self.blocked += 1
        pause = max(1.0, backoff(self.blocked + 1))
        self.gate_due = now + pause
        self.say(f"waiting for Redis: {reason.rstrip('.')}; trying again in {pause:.0f}s "
                 "(Ctrl-C stops)")
        return False

    def run_forever(self, poll_s: float = 0.5) -> None:
        if self.revive is not None:  # a dead Valkey: every tenth of a second counts
            poll_s = min(poll_s, 0.1)
        for s in self.services:
            s.proc, s.due = None, 0.0
        try:
            while True:
                self.check()
                time.sleep(poll_s)
        finally:
            self.stop()

    def stop(self) -> None:
        stop([s.proc for s in self.services if s.proc is not None])
