"""What `hexlog up` checks before it starts anything: that no other `up` runs on the data dir,
that the gateway's port is free, and (for `--port`) that the server it would open a TCP
listener on is its own.

A second `up` on one data dir once started a second set of services beside the first (two
rules services, two bot workers), and a gateway port in use made the gateway restart forever;
each is now refused in one line, exit 2, before the server starts.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from services.cli.errors import UsageError

UP_LOCK = "up.lock"


@contextlib.contextmanager
def only_up(data_dir: Path) -> Iterator[None]:
    """Hold `<data_dir>/up.lock` for the block; UsageError naming the `up` that holds it."""
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / UP_LOCK
    lock: IO[str] = path.open("a+", encoding="utf-8")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.seek(0)
        try:
            pid = int(json.loads(lock.read() or "{}").get("pid", 0))
        except ValueError:
            pid = 0
        lock.close()
        who = f" (pid {pid})" if pid else ""
        raise UsageError(f"hexlog up already runs on {data_dir}{who}: stop it (Ctrl-C in its "
                         "terminal) or give another --data-dir") from None
    try:
        lock.seek(0)
        lock.truncate()
        lock.write(json.dumps({"pid": os.getpid()}))
        lock.flush()
        yield
    finally:
        lock.close()  # the lock goes with the file; the stale pid inside is never read unlocked


def port_is_free(host: str, port: int, option: str) -> None:
    """UsageError when `host:port` cannot be listened on now (in use, or not ours to take)."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            reason = "in use" if exc.errno == 98 else (exc.strerror or str(exc)).lower()
            raise UsageError(f"{option} {port}: {host}:{port} is {reason}; choose another "
                             "port") from None
