"""A benchmark SIGKILLed while its embedded Valkey runs leaves that server behind in a folder
nobody opens again; the next benchmark stops it and removes the folder, and leaves alone the
folder of a benchmark that still runs (services/runtime/scratch.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from services.runtime.scratch import LOCK, UNLOCKED_GRACE_S, clear_abandoned, scratch_folder

ROOT = Path(__file__).resolve().parents[2]

# A benchmark stand-in: its folder, a server in it, then it waits (to be killed).
BENCH = (
    "import sys, time; from pathlib import Path; "
    "from services.runtime.scratch import scratch_folder; "
    "from services.runtime.valkey import EmbeddedValkey; "
    "cm = scratch_folder(Path(sys.argv[1]), 'bench-'); folder = cm.__enter__(); "
    "EmbeddedValkey(folder).start(); "
    "print(folder, (folder / 'valkey.pid').read_text().strip(), flush=True); time.sleep(120)"
)


def start_bench(root: Path) -> tuple[subprocess.Popen[str], Path, int]:
    bench = subprocess.Popen([sys.executable, "-c", BENCH, str(root)], cwd=ROOT,
                             stdout=subprocess.PIPE, text=True)
    assert bench.stdout is not None
    folder, pid = bench.stdout.readline().split()
    return bench, Path(folder), int(pid)


def alive(pid: int) -> bool:
    try:
        return bool(psutil.Process(pid).status() != psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:
        return False


def test_the_next_benchmark_stops_the_server_a_killed_one_left(tmp_path: Path) -> None:
    killed, killed_folder, killed_server = start_bench(tmp_path)
    running, running_folder, running_server = start_bench(tmp_path)
    try:
        os.kill(killed.pid, signal.SIGKILL)
        killed.wait(5)
        assert alive(killed_server), "the server should outlive its killed benchmark"

        with scratch_folder(tmp_path, "bench-") as mine:
            assert mine.is_dir()
            assert mine not in (killed_folder, running_folder)
            assert not killed_folder.exists()
            assert not alive(killed_server)
            assert running_folder.is_dir()
            assert alive(running_server)
        assert not mine.exists()  # removed after its block
    finally:
        for proc in (killed, running):
            proc.kill()
            proc.wait()
        for pid in (killed_server, running_server):
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_a_folder_not_yet_locked_is_left_for_a_minute(tmp_path: Path) -> None:
    starting = tmp_path / "bench-starting"  # made by mkdtemp, its lock not yet taken
    starting.mkdir()
    assert clear_abandoned(tmp_path) == []
    old = time.time() - UNLOCKED_GRACE_S - 1
    os.utime(starting, (old, old))
    assert clear_abandoned(tmp_path) == [starting]
    assert not starting.exists()


def test_only_benchmark_folders_are_touched(tmp_path: Path) -> None:
    for name in ("games", "logs", "benchmark-notes"):
        folder = tmp_path / name
        folder.mkdir()
        (folder / LOCK).touch()
    assert clear_abandoned(tmp_path) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["benchmark-notes", "games", "logs"]
    with pytest.raises(ValueError, match="bench-"), scratch_folder(tmp_path, "games-"):
        pass
