"""`hexlog up` keeps its services running: a child that dies is started again."""

from __future__ import annotations

import os
import signal
import sys
import time

from services.runtime.processes import Supervised, Supervisor


def test_supervisor_restarts_a_service_that_was_killed() -> None:
    sleeper = [sys.executable, "-c", "import time; time.sleep(60)"]
    sup = Supervisor("redis://unused", [Supervised("sleeper", sleeper)], quiet=True)
    sup.start()
    try:
        first = sup.services[0].proc
        assert first is not None
        assert first.poll() is None
        os.kill(first.pid, signal.SIGKILL)
        first.wait(5)
        assert sup.check() == ["sleeper"]
        second = sup.services[0].proc
        assert second is not None
        assert second.pid != first.pid
        assert second.poll() is None
        assert sup.services[0].restarts == 1
        assert sup.check() == []  # a running service is left alone
    finally:
        sup.stop()
    assert all(s.proc is not None and s.proc.poll() is not None for s in sup.services)


def test_supervisor_restarts_a_service_that_exited_cleanly() -> None:
    # FastStream exits with status 0 when Redis loses its consumer groups: any exit counts.
    quick = [sys.executable, "-c", "pass"]
    sup = Supervisor("redis://unused", [Supervised("quick", quick)], quiet=True)
    sup.start()
    try:
        proc = sup.services[0].proc
        assert proc is not None
        proc.wait(5)
        time.sleep(0.05)
        assert sup.check() == ["quick"]
    finally:
        sup.stop()
