"""One embedded server per data dir, shared by every `hexlog` command that uses it.

Why: the obvious flow is `hexlog up` in one terminal, then `hexlog play` and `hexlog replay
--follow` in others, or two `play` at once. Only one Valkey may run on a data dir (two would
interleave their AOF files), so the first command starts it (it *owns* it) and the others
*attach*: they read the admin URL the owner wrote to `<data_dir>/valkey.url` (mode 0600, so
only the same OS user can), and make their services' Redis users on it like the owner does.

Lifetimes: an attached command holds a shared `flock` on `<data_dir>/attached.lock` while it
runs. The owner, when its own work is done, takes that lock exclusively before it stops the
server, so it waits for the commands attached to it (and says so) instead of pulling the
server from under them; Ctrl-C on the owner stops at once. `<data_dir>/valkey.owner` names the
owner's command, so that an attached command knows whether services it finds running will
outlive it (those of `hexlog up` or `hexlog serve` do; those of another `play` end with it).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Literal
from urllib.parse import unquote, urlsplit

import redis
import structlog

from services.runtime import users
from services.runtime.valkey import (
    URLFILE_NAME,
    AppendFsync,
    DataDirInUseError,
    EmbeddedValkey,
    OrphanedServerError,
    fsync_policy,
    stop_orphan,
)
from services.store.connect import check_url, is_cluster_url, plain_url

log = structlog.get_logger("hexlog.valkey")

OWNER_FILE = "valkey.owner"
ATTACH_LOCK = "attached.lock"
LONG_RUNNING = frozenset({"up", "serve"})  # owners whose services outlive any one command
ATTACH_TIMEOUT_S = 15.0  # a server that is starting (or stopping) gets this long to settle

Say = Callable[[str], None]


@dataclass
class Server:
    """The Redis a command uses: `$REDIS_URL` (`env`), an embedded Valkey it `started`, or
    one another command runs (`attached`)."""

    url: str
    how: Literal["env", "started", "attached"]
    data_dir: Path
    owner: str = ""  # attached: the owner's command (`up`, `play`, …)
    owner_pid: int = 0
    wait_for_others: bool = True  # started: wait for attached commands before stopping
    cluster: str = ""  # started as an embedded cluster: "3 masters on 127.0.0.1 ports …"

    @property
    def services_outlive_us(self) -> bool:
        """Whether services found running on this server will run as long as this command
        needs them (else the command starts its own; more replicas are always safe)."""
        return self.how != "attached" or self.owner in LONG_RUNNING

    def where(self) -> str:
        """Where this server is, as the end of a sentence (`no game 'x' <where>`)."""
        if self.how == "env":
            return f"in Redis at {redact(self.url)} (REDIS_URL)"
        return f"on the server of {self.data_dir}"

    def describe(self) -> str:
        """One line for the user: which server, where its data is."""
        if self.how == "env":
            return f"using Redis at {redact(self.url)} (REDIS_URL)"
        if self.how == "attached":
            by = f"hexlog {self.owner}" if self.owner else "another hexlog command"
            pid = f", pid {self.owner_pid}" if self.owner_pid else ""
            return f"attached to the running server at {self.data_dir} (started by {by}{pid})"
        if self.cluster:
            return (f"started an embedded Valkey Cluster of {self.cluster} with its data in "
                    f"{self.data_dir / CLUSTER_DIR} (--data-dir or $HEXLOG_DATA_DIR to use "
                    "another)")
        return (f"started the embedded Valkey with its data in {self.data_dir} "
                "(--data-dir or $HEXLOG_DATA_DIR to use another)")


def redact(url: str) -> str:
    """A URL fit to print: no password."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    user = f"{parts.username}:***@" if parts.username else ":***@"
    return parts._replace(netloc=user + host).geturl()


@contextlib.contextmanager
def open_server(data_dir: Path, command: str, *, appendfsync: AppendFsync | None = None,
                say: Say | None = None) -> Iterator[Server]:
    """The Redis for one command: `$REDIS_URL`, else the embedded Valkey of `data_dir`,
    started for this command or attached to if another command runs it. `command` names this
    command (written for the commands that attach to a server it starts)."""
    tell = say or (lambda _: None)
    url = os.environ.get("REDIS_URL")
    if url:
        yield Server(check_url(url), "env", data_dir)
        return
    deadline = time.monotonic() + ATTACH_TIMEOUT_S
    while True:
        started = _start(data_dir, appendfsync or fsync_policy())
        if started is not None:
            with _owning(started, command, tell) as server:
                yield server
            return
        attached = _attach(data_dir)
        if attached is not None:
            with attached as server:
                yield server
            return
        if time.monotonic() > deadline:
            raise DataDirInUseError(
                f"{data_dir} is held by a server that does not answer; if no hexlog command "
                "runs on it, remove its valkey.pid and try again")
        time.sleep(0.1)


CLUSTER_DIR = "cluster"


def kept_masters(data_dir: Path) -> int:
    """How many masters the cluster kept on `data_dir` has (0: none was made there)."""
    from services.runtime.cluster import EmbeddedCluster

    return EmbeddedCluster(data_dir / CLUSTER_DIR).existing_masters()


@contextlib.contextmanager
def open_cluster(data_dir: Path, command: str, masters: int, *,
                 appendfsync: AppendFsync | None = None,
                 say: Say | None = None) -> Iterator[Server]:
    """An embedded `masters`-master Valkey Cluster on 127.0.0.1 ports for one command (`hexlog
    up --cluster N`), its data in `<data_dir>/cluster/`. It holds the data dir as a single
    embedded server would (its lock, `valkey.url`, `valkey.owner`), so other commands attach
    to it rather than start a server of their own; the services' users are made on every node.
    DataDirInUseError when another command runs a server on `data_dir`; ValueError when the
    cluster kept there has another number of masters."""
    from services.runtime.cluster import EmbeddedCluster
    from services.runtime.valkey import (
        LOCKFILE_NAME,
        PIDFILE_NAME,
        refuse_live_pidfile,
        take_lock,
    )

    tell = say or (lambda _: None)
    data_dir.mkdir(parents=True, exist_ok=True)
    lock = take_lock(data_dir / LOCKFILE_NAME)
    try:
        try:
            refuse_live_pidfile(data_dir / PIDFILE_NAME)
        except OrphanedServerError as exc:  # a single server left by a killed command
            stop_orphan(exc.pid)
        cluster = EmbeddedCluster(data_dir / CLUSTER_DIR, masters,
                                  appendfsync=appendfsync or fsync_policy())
        kept = cluster.existing_masters()
        if kept and kept != masters:
            raise ValueError(f"the cluster kept in {cluster.data_dir} has {kept} masters, not "
                             f"{masters}: use --cluster {kept}, or another --data-dir")
        cluster.start()
    except BaseException:
        lock.close()
        raise
    owner_file = data_dir / OWNER_FILE
    url_file = data_dir / URLFILE_NAME
    admin = ""
    interrupted = False
    handle = Server("", "started", data_dir)
    try:
        cluster.secure()
        admin = handle.url = cluster.url
        ports = ", ".join(str(p) for p in cluster.ports)
        handle.cluster = f"{masters} masters on 127.0.0.1 ports {ports}"
        users.register(admin, users.ClusterUsers("", cluster.password, admin_url=admin))
        write_private(url_file, admin)
        write_private(owner_file, json.dumps({"command": command, "pid": os.getpid()}))
        yield handle
    except KeyboardInterrupt:
        interrupted = True
        raise
    finally:
        attached = None
        try:
            if handle.wait_for_others and not interrupted:
                attached = _wait_for_attached(data_dir, tell)
        finally:
            owner_file.unlink(missing_ok=True)
            url_file.unlink(missing_ok=True)
            users.forget(admin)
            cluster.stop()
            if attached is not None:
                attached.close()
            lock.close()


@contextlib.contextmanager
def running_server(data_dir: Path) -> Iterator[Server | None]:
    """`$REDIS_URL`, else the embedded server another command runs on `data_dir`, else None:
    never starts one (a probe must not bring up the server it probes)."""
    url = os.environ.get("REDIS_URL")
    if url:
        yield Server(check_url(url), "env", data_dir)
        return
    attached = _attach(data_dir)
    if attached is None:
        yield None
        return
    with attached as server:
        yield server


def _start(data_dir: Path, appendfsync: AppendFsync) -> EmbeddedValkey | None:
    """A server started on `data_dir`, or None when another command runs one there."""
    server = EmbeddedValkey(data_dir, appendfsync=appendfsync)
    try:
        return server.start()
    except OrphanedServerError as exc:
        # Its command was killed before it could stop it (the lock it held is free). Stop it
        # as that command would have, and start afresh on the same data: `--resume` works
        # after a kill -9.
        log.warning("stopping an embedded valkey left running by a killed command",
                    pid=exc.pid, data_dir=str(server.data_dir))
        stop_orphan(exc.pid)
        return server.start()
    except DataDirInUseError:
        return None


@contextlib.contextmanager
def _owning(server: EmbeddedValkey, command: str, say: Say) -> Iterator[Server]:
    owner_file = server.data_dir / OWNER_FILE
    admin = ""
    interrupted = False
    handle = Server("", "started", server.data_dir)
    try:
        password = server.secure()
        admin = handle.url = server.url
        users.register(admin, users.EmbeddedUsers(str(server.socket_path), password))
        write_private(owner_file, json.dumps({"command": command, "pid": os.getpid()}))
        yield handle
    except KeyboardInterrupt:
        interrupted = True
        raise
    finally:
        lock = None
        try:
            if handle.wait_for_others and not interrupted:
                lock = _wait_for_attached(server.data_dir, say)
        finally:
            owner_file.unlink(missing_ok=True)
            users.forget(admin)
            server.stop()
            if lock is not None:
                lock.close()


def _wait_for_attached(data_dir: Path, say: Say) -> IO[bytes] | None:
    """Take the attach lock exclusively: at once if nobody is attached, else when the last
    attached command ends (Ctrl-C gives up). Held until the server has stopped, so a command
    that attaches meanwhile waits and then starts a server of its own."""
    lock = (data_dir / ATTACH_LOCK).open("ab")
    try:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        say(f"waiting for the other hexlog commands using the server in {data_dir} to end "
            "(Ctrl-C stops it now)")
        try:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        except BaseException:
            lock.close()
            raise
    return lock


class _Attachment:
    """A shared hold on another command's server, with this process's users on it."""

    def __init__(self, lock: IO[bytes], server: Server) -> None:
        self.lock = lock
        self.server = server

    def __enter__(self) -> Server:
        return self.server

    def __exit__(self, *exc: object) -> None:
        users.forget(self.server.url)  # and drop the passwords this process added
        self.lock.close()


def _attach(data_dir: Path) -> _Attachment | None:
    """A hold on the server another command runs on `data_dir`, if it answers; None while it
    is starting or stopping."""
    try:
        lock = (data_dir / ATTACH_LOCK).open("ab")
    except OSError:
        return None
    try:
        fcntl.flock(lock.fileno(), fcntl.LOCK_SH | fcntl.LOCK_NB)
        url = (data_dir / URLFILE_NAME).read_text(encoding="utf-8").strip()
        parts = urlsplit(url)
        client = redis.Redis.from_url(plain_url(url), socket_connect_timeout=2)  # one node
        try:
            client.ping()
        finally:
            client.close()
    except (BlockingIOError, FileNotFoundError, redis.exceptions.RedisError):
        lock.close()
        return None
    command, pid = _read_owner(data_dir)
    if not command:  # the owner has not finished starting it (its password, its users)
        lock.close()
        return None
    server = Server(url, "attached", data_dir, owner=command, owner_pid=pid)
    password = unquote(parts.password or "")
    users.register(url, users.ClusterUsers("", password, attached=True, admin_url=url)
                   if is_cluster_url(url) else
                   users.EmbeddedUsers(parts.path, password, attached=True))
    return _Attachment(lock, server)


def _read_owner(data_dir: Path) -> tuple[str, int]:
    """(the owner's command, its pid), or ("", 0) when it has not said."""
    try:
        found = json.loads((data_dir / OWNER_FILE).read_text(encoding="utf-8"))
        return str(found["command"]), int(found["pid"])
    except (OSError, ValueError, KeyError, TypeError):
        return "", 0


def write_private(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text + "\n")


@contextlib.contextmanager
def redis_url_from_env_or_embedded(
    data_dir: str | os.PathLike[str],
    *,
    appendfsync: AppendFsync | None = None,
    command: str = "hexlog",
) -> Iterator[str]:
    """Yield `$REDIS_URL` if set (non-empty); else the admin URL of the embedded Valkey of
    `data_dir` for the block: started (AOF fsync policy `appendfsync`, else `fsync_policy()`),
    or attached to when another command runs it (`open_server`). Either way the
    services' users are made on demand (`users.role_url`, `users.pools_url`)."""
    with open_server(Path(data_dir).resolve(), command, appendfsync=appendfsync) as server:
        yield server.url
