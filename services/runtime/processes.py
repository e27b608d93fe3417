"""Child processes of the `hexlog` command: spawning services, and a small supervisor that
restarts any that exit (FastStream exits with status 0 when Redis loses its groups, so *any*
exit of a long-running service is a reason to restart it)."""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import structlog

log = structlog.get_logger("hexlog.supervisor")


def hexlog_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "services.cli.main", *args]


LOG_DIR = Path(os.environ.get("HEXLOG_LOG_DIR", ".hexlog/logs"))


def _die_with_parent(parent: int) -> Callable[[], None] | None:
    """A `preexec_fn` that makes the child get SIGTERM when its parent dies (Linux
    `prctl(PR_SET_PDEATHSIG)`), so services a command started do not outlive it even when it is
    SIGKILLed: they stop cleanly and clear their liveness keys. None where that is not available
    (the children then only stop when the parent stops them). Linux sends the signal when the
    *thread* that spawned the child ends, so spawn from the main thread (as every caller does)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        prctl = libc.prctl
    except (OSError, AttributeError):
        return None

    def preexec() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        if os.getppid() != parent:  # the parent died before prctl: nobody would signal us
            os.kill(os.getpid(), signal.SIGTERM)

    return preexec


PR_SET_PDEATHSIG = 1


def spawn(args: Sequence[str], url: str, quiet: bool = True) -> subprocess.Popen[bytes]:
    """Start a child service. A quiet child logs (JSON lines, level info) to a file under
    `$HEXLOG_LOG_DIR` (default .hexlog/logs/), named after the service: when a command fails,
    that is where to look."""
    env = dict(os.environ, REDIS_URL=url)
    out: Any = None
    if quiet:
        LOG_DIR.mkdir(parents=True, exist_ok=True)
        name = "-".join(a for a in args[3:5] if not a.startswith("-")) or "hexlog"
        out = (LOG_DIR / f"{name}.log").open("ab")
        env.setdefault("HEXLOG_LOG_LEVEL", "info")
    try:
        return subprocess.Popen(
            list(args),
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=out,
            start_new_session=True,
            preexec_fn=_die_with_parent(os.getpid()),
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


@dataclass
class Supervised:
    name: str
    args: list[str]
    url: str = ""  # its own Redis URL (its service's user); "" for the supervisor's
    proc: subprocess.Popen[bytes] | None = None
    restarts: int = 0
    started: float = field(default=0.0)


class Supervisor:
    """Keeps a set of services running; restarts with a short back-off when one exits."""

    def __init__(self, url: str, services: Sequence[Supervised], quiet: bool = False) -> None:
        self.url = url
        self.services = list(services)
        self.quiet = quiet

    def start(self) -> None:
        for s in self.services:
            self._start(s)

    def _start(self, s: Supervised) -> None:
        s.proc = spawn(s.args, s.url or self.url, quiet=self.quiet)
        s.started = time.monotonic()
        log.info("started", service=s.name, pid=s.proc.pid)

    def check(self) -> list[str]:
        """Restart every service that exited; returns the names restarted."""
        restarted = []
        for s in self.services:
            if s.proc is not None and s.proc.poll() is not None:
                code = s.proc.returncode
                # A service that dies right after starting gets a pause before the next try.
                if time.monotonic() - s.started < 2.0:
                    time.sleep(1.0)
                s.restarts += 1
                log.warning("service exited; restarting", service=s.name, code=code,
                            restarts=s.restarts)
                self._start(s)
                restarted.append(s.name)
        return restarted

    def run_forever(self, poll_s: float = 0.5) -> None:
        self.start()
        try:
            while True:
                self.check()
                time.sleep(poll_s)
        finally:
            self.stop()

    def stop(self) -> None:
        stop([s.proc for s in self.services if s.proc is not None])
