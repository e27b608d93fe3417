"""A service `spawn` started stops when the process that started it dies, even by SIGKILL
(Linux: the child asks for PR_SET_PDEATHSIG itself, reading the parent's pid from the
environment `spawn` gives it; no `preexec_fn`, which runs Python between fork and exec)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from services.runtime import processes
from services.runtime.die_with_parent import DIE_WITH

ROOT = Path(__file__).resolve().parents[2]

# The service stand-in: what every `hexlog` command does first, then it waits.
CHILD = "from services.runtime.die_with_parent import die_with_parent; die_with_parent(); " \
        "import time; print('ready', flush=True); time.sleep(60)"
# The parent: spawns the stand-in through `spawn`, says its pid, and waits to be killed.
PARENT = (
    "import sys; from services.runtime import processes; "
    "p = processes.spawn([sys.executable, '-c', sys.argv[1]], 'redis://unused', quiet=False); "
    "print(p.pid, flush=True); import time; time.sleep(60)"
)


def gone(pid: int, within: float) -> bool:
    until = time.monotonic() + within
    while time.monotonic() < until:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        # A child of a dead parent is reaped by init; until then it is a zombie.
        with open(f"/proc/{pid}/stat") as f:
            if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                return True
        time.sleep(0.05)
    return False


def kill_and_see_it_go(parent: subprocess.Popen[str], child: int, within: float) -> None:
    """SIGKILL `parent`; `child` must be gone within `within` s (killed here if not)."""
    try:
        assert not gone(child, within=0.2)
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(5)
        assert gone(child, within=within), "the child outlived its SIGKILLed parent"
    finally:
        parent.kill()
        parent.wait()
        if not gone(child, within=0.1):
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, signal.SIGKILL)


def test_a_spawned_service_dies_with_its_sigkilled_parent() -> None:
    parent = subprocess.Popen([sys.executable, "-c", PARENT, CHILD], cwd=ROOT,
                              stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    child = int(parent.stdout.readline())
    assert parent.stdout.readline().strip() == "ready"  # the child's line: prctl is done
    kill_and_see_it_go(parent, child, within=10)


def test_a_service_whose_parent_died_before_it_asked_stops_at_once() -> None:
    # The pid it should die with is not its parent's: that parent is already gone.
    env = dict(os.environ, **{DIE_WITH: str(2**22 + 1)})
    child = subprocess.run([sys.executable, "-c", CHILD], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=30)
    assert child.returncode == -signal.SIGTERM
    assert "ready" not in child.stdout


def test_outside_spawn_nothing_happens() -> None:
    env = {k: v for k, v in os.environ.items() if k != DIE_WITH}
    child = subprocess.run([sys.executable, "-c", CHILD.replace("time.sleep(60)", "")],
                           cwd=ROOT, env=env, capture_output=True, text=True, timeout=30)
    assert child.returncode == 0
    assert child.stdout.strip() == "ready"


def test_spawn_runs_no_python_between_fork_and_exec(monkeypatch: pytest.MonkeyPatch) -> None:
    # A preexec_fn would fork the whole interpreter and run CPython's after-fork hooks in the
    # child, which can print a traceback into the parent's terminal (CPython 3.11).
    seen: dict[str, object] = {}
    real = subprocess.Popen

    class Spy(real):  # type: ignore[misc,valid-type]
        def __init__(self, *args: object, **kwargs: object) -> None:
            seen.update(kwargs)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(subprocess, "Popen", Spy)
    p = processes.spawn([sys.executable, "-c", "pass"], "redis://unused", quiet=False)
    p.wait(10)
    assert seen.get("preexec_fn") is None
    env = seen["env"]
    assert isinstance(env, dict)
    assert env[DIE_WITH] == str(os.getpid())


# A `hexlog up --homeserver local` stand-in: starts the throwaway Synapse, says its pid, waits.
SYNAPSE_PARENT = (
    "import sys; from pathlib import Path; "
    "from services.chat.local_synapse import free_port, start_synapse; "
    "s = start_synapse(Path(sys.argv[1]), free_port(8008)); "
    "print(s.proc.pid, flush=True); import time; time.sleep(120)"
)


def test_the_local_homeserver_dies_with_its_sigkilled_parent(tmp_path: Path) -> None:
    parent = subprocess.Popen([sys.executable, "-c", SYNAPSE_PARENT, str(tmp_path / "hs")],
                              cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    synapse = int(parent.stdout.readline())  # it answered /health: running
    kill_and_see_it_go(parent, synapse, within=30)
