"""A service started by `hexlog up` (or a tournament) stops when the process that started it
dies. Kept apart from `processes` so that every `hexlog` command can call it first thing
without importing the service stack (tests/engine/test_cli_imports.py)."""

from __future__ import annotations

import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG = 1
DIE_WITH = "HEXLOG_DIE_WITH"  # the pid of the process a spawned service dies with


def die_with_parent() -> None:
    """In a service `spawn` started: ask Linux to send it SIGTERM when its parent dies
    (`prctl(PR_SET_PDEATHSIG)`), so services a command started do not outlive it even when it
    is SIGKILLed: they stop cleanly and clear their liveness keys. Linux sends the signal when
    the *thread* that spawned the child ends, so spawn from the main thread (as every caller
    does). The child does this itself rather than in a `preexec_fn`: a `preexec_fn` makes
    subprocess fork the whole interpreter and run Python between fork and exec, where
    CPython 3.11's threading cleanup can fail on the parent's other threads and print a
    traceback into the parent's terminal. Nothing happens off Linux or outside `spawn`."""
    parent = os.environ.pop(DIE_WITH, "")
    if not parent.isdigit() or not sys.platform.startswith("linux"):
        return
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return
    prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != int(parent):  # the parent died before prctl: nobody would signal us
        os.kill(os.getpid(), signal.SIGTERM)
