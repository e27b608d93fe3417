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
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Literal, Protocol, TypeVar
from urllib.parse import unquote, urlsplit

import redis
import structlog

from services.runtime import users
from services.runtime.restart import StartAgain
from services.runtime.valkey import (
    URLFILE_NAME,
    AppendFsync,
    DataDirInUseError,
    EmbeddedValkey,
    OrphanedServerError,
    fsync_policy,
    stop_orphan,
)
from services.store.connect import check_url, connect_sync, is_cluster_url, is_sentinel_url

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
    ha: str = ""  # started as an embedded set under Sentinels: "a primary and 1 replica …"
    malloc: str = ""  # started: the allocator the server runs with (runtime/allocator.py)
    # started: starts again what died, the single server (restart.py) or a replicated set's
    # nodes (`hexlog up` asks it every poll)
    revive: Callable[[], list[str]] | None = None

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
        if self.ha:
            return (f"started an embedded Valkey set of {self.ha}, with its data in "
                    f"{self.data_dir / HA_DIR} (--data-dir or $HEXLOG_DATA_DIR to use another)")
        malloc = f" (malloc: {self.malloc})" if self.malloc else ""
        return (f"started the embedded Valkey{malloc} with its data in {self.data_dir} "
                "(--data-dir or $HEXLOG_DATA_DIR to use another)")


def redact(url: str) -> str:
    """A URL fit to print: no password (a Sentinel URL's login to the Sentinels neither)."""
    parts = urlsplit(url)
    query = re.sub(r"(sentinel_password=)[^&]*", r"\1***", parts.query)
    if parts.password is None:
        return parts._replace(query=query).geturl()
    host = parts.netloc.rpartition("@")[2]
    user = f"{parts.username}:***@" if parts.username else ":***@"
    return parts._replace(netloc=user + host, query=query).geturl()


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


def kept_replicas(data_dir: Path) -> int:
    """How many replicas each master of the cluster kept on `data_dir` has."""
    from services.runtime.cluster import EmbeddedCluster

    return EmbeddedCluster(data_dir / CLUSTER_DIR).existing_replicas()


@contextlib.contextmanager
def open_cluster(data_dir: Path, command: str, masters: int, *,
                 appendfsync: AppendFsync | None = None, replicas: int = 0,
                 say: Say | None = None) -> Iterator[Server]:
    """An embedded `masters`-master Valkey Cluster on 127.0.0.1 ports for one command (`hexlog
    up --cluster N`), each master with `replicas` replicas (`--cluster-replicas`), its data in
    `<data_dir>/cluster/`. It holds the data dir as a single embedded server would (its lock,
    `valkey.url`, `valkey.owner`), so other commands attach to it rather than start a server
    of their own; the services' users are made on every node. DataDirInUseError when another
    command runs a server on `data_dir`; ValueError when the cluster kept there has another
    number of masters or replicas."""
    from services.runtime.cluster import EmbeddedCluster

    def start() -> EmbeddedCluster:
        cluster = EmbeddedCluster(data_dir / CLUSTER_DIR, masters, replicas=replicas,
                                  appendfsync=appendfsync or fsync_policy())
        kept, kept_replicas = cluster.existing_masters(), cluster.existing_replicas()
        if kept and (kept, kept_replicas) != (masters, replicas):
            raise ValueError(f"the cluster kept in {cluster.data_dir} has {kept} masters with "
                             f"{kept_replicas} replicas each, not {masters} with {replicas}: "
                             f"use --cluster {kept} --cluster-replicas {kept_replicas}, or "
                             "another --data-dir")
        return cluster.start()

    def opened(cluster: EmbeddedCluster, handle: Server) -> None:
        cluster.secure()
        handle.url = cluster.url
        handle.cluster = cluster.describe()
        handle.revive = cluster.revive if replicas else None
        users.register(handle.url, users.ClusterUsers("", cluster.password,
                                                      admin_url=handle.url))

    with _holding(data_dir, command, start, opened, say) as server:
        yield server


HA_DIR = "ha"


@contextlib.contextmanager
def open_ha(data_dir: Path, command: str, *, replicas: int = 1,
            appendfsync: AppendFsync | None = None, say: Say | None = None) -> Iterator[Server]:
    """An embedded primary with `replicas` replicas under three Sentinels for one command
    (`hexlog up --ha`), its data in `<data_dir>/ha/` (services/runtime/ha.py), holding the data
    dir as a single embedded server would; the services' users are made on every node and
    Sentinel. ValueError when the set kept there has another number of replicas."""
    from services.runtime.ha import EmbeddedHA

    def start() -> EmbeddedHA:
        return EmbeddedHA(data_dir / HA_DIR, replicas=replicas,
                          appendfsync=appendfsync or fsync_policy()).start()

    def opened(ha: EmbeddedHA, handle: Server) -> None:
        handle.url = ha.url
        handle.ha = ha.describe()
        handle.revive = ha.revive
        users.register(handle.url, users.SentinelUsers("", ha.password, admin_url=handle.url))

    with _holding(data_dir, command, start, opened, say) as server:
        yield server


class _Topology(Protocol):
    def stop(self) -> None: ...


T = TypeVar("T", bound=_Topology)


@contextlib.contextmanager
def _holding(data_dir: Path, command: str, start: Callable[[], T],
             opened: Callable[[T, Server], None], say: Say | None) -> Iterator[Server]:
    """Start a set of nodes (`start`) holding `data_dir` as a single embedded server would:
    its lock, `valkey.url` (the admin's URL, which `opened` sets with the users) and
    `valkey.owner`; stopped when the block ends, after the commands attached to it."""
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
        nodes = start()
    except BaseException:
        lock.close()
        raise
    owner_file = data_dir / OWNER_FILE
    url_file = data_dir / URLFILE_NAME
    interrupted = False
    handle = Server("", "started", data_dir)
    try:
        opened(nodes, handle)
        write_private(url_file, handle.url)
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
            users.forget(handle.url)
            nodes.stop()
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
        handle.malloc = server.allocator()
        made = users.EmbeddedUsers(str(server.socket_path), password)
        users.register(admin, made)
        handle.revive = StartAgain(server, made)  # (`hexlog up` asks it every poll)
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
        client = connect_sync(url, socket_connect_timeout=2)  # one node
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
    made: users.EmbeddedUsers = users.EmbeddedUsers(parts.path, password, attached=True)
    if is_cluster_url(url):
        made = users.ClusterUsers("", password, attached=True, admin_url=url)
    elif is_sentinel_url(url):
        made = users.SentinelUsers("", password, attached=True, admin_url=url)
    users.register(url, made)
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
