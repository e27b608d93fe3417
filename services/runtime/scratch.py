"""A benchmark's folder of its own, and the servers a killed benchmark left behind.

`hexlog bench` runs its servers (an embedded Valkey, a cluster, a replicated set) in a fresh
folder under the data dir and removes it at the end. A benchmark that is SIGKILLed cannot:
its services die with it (`die_with_parent`), but its servers keep running, and nobody looks
in a folder with a random name again. So each benchmark holds a lock on its folder while it
runs (`flock`, which the kernel releases when the process dies however it dies), and before
making its own folder stops the servers of every folder whose lock is free and removes it.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import structlog

from services.runtime.valkey import (
    DataDirInUseError,
    OrphanedServerError,
    refuse_live_pidfile,
    stop_orphan,
    take_lock,
)

log = structlog.get_logger("hexlog.scratch")

LOCK = "bench.lock"
PREFIX = "bench-"  # every benchmark's folder: bench-, bench-cluster-, bench-failover-
UNLOCKED_GRACE_S = 60.0  # a folder made but not yet locked (its benchmark is starting)


@contextlib.contextmanager
def scratch_folder(root: Path, prefix: str) -> Iterator[Path]:
    """A new folder `root/<prefix>…`, locked while the block runs and removed after; the
    folders a killed benchmark left under `root` are cleared first."""
    if not prefix.startswith(PREFIX):
        raise ValueError(f"a benchmark folder's prefix starts with {PREFIX!r}, not {prefix!r}")
    root.mkdir(parents=True, exist_ok=True)
    clear_abandoned(root)
    folder = Path(tempfile.mkdtemp(prefix=prefix, dir=root))
    lock = _try_lock(folder / LOCK)
    if lock is None:  # cannot happen to a folder just made; a sweep must not take it
        raise RuntimeError(f"{folder} was locked by another process as it was made")
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        lock.close()


def clear_abandoned(root: Path) -> list[Path]:
    """Stop the servers of each `bench-*` folder under `root` whose benchmark is gone (its
    lock free; a folder with no lock file only once it is a minute old), then remove it.
    Returns the folders removed."""
    removed = []
    for folder in sorted(root.glob(f"{PREFIX}*")):
        try:
            locked = (folder / LOCK).exists()
            lock = _try_lock(folder / LOCK) if locked else None
            young = time.time() - folder.stat().st_mtime < UNLOCKED_GRACE_S
        except OSError:  # not a folder, or removed meanwhile by another sweep
            continue
        if lock is None and (locked or young):
            continue  # a benchmark runs there (or is just starting)
        try:
            stopped = _stop_servers(folder)
            shutil.rmtree(folder, ignore_errors=True)
        finally:
            if lock is not None:
                lock.close()
        log.warning("removed a folder a killed benchmark left", folder=str(folder),
                    servers_stopped=stopped)
        removed.append(folder)
    return removed


def _stop_servers(folder: Path) -> int:
    """Stop every live valkey-server whose pidfile lies in `folder` (nodes of a cluster or a
    replicated set have one each, in folders of their own)."""
    stopped = 0
    for pidfile in folder.rglob("valkey.pid"):
        try:
            refuse_live_pidfile(pidfile)
        except OrphanedServerError as exc:
            stop_orphan(exc.pid)
            stopped += 1
    return stopped


def _try_lock(path: Path) -> IO[bytes] | None:
    """The lock, or None while another process holds it (the embedded server's own `flock`)."""
    try:
        return take_lock(path)
    except DataDirInUseError:
        return None
