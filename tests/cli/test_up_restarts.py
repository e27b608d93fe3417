"""`hexlog up` restarts a service that dies at once, or after a pause that never passes 5 s
however often it dies (what waits on the service waits that long after each crash), and says
so: in `hexlog up --help` and in the line of each restart."""

from __future__ import annotations

import sys
import time

from cli_helpers import Hexlog

from services.runtime.processes import (
    MAX_BACKOFF_S,
    STEADY_S,
    Supervised,
    Supervisor,
    backoff,
    restart_note,
)


def test_the_pause_before_a_restart_grows_to_five_seconds_and_no_further() -> None:
    assert [backoff(n) for n in range(1, 8)] == [0, 1, 2, 4, 5, 5, 5]
    assert max(backoff(n) for n in range(1, 10_000)) == MAX_BACKOFF_S == 5
    assert STEADY_S == 10  # a service that ran this long is restarted at once (failures = 1)


def test_up_help_states_the_restart_rule_with_its_numbers(hexlog: Hexlog) -> None:
    shown = hexlog.run("up", "--help")
    assert shown.code == 0, shown.err
    text = " ".join(shown.out.split())
    assert ("a service that exits is started again at once if it ran 10 s or more; one that "
            "keeps exiting sooner waits 1, 2, 4, then 5 s (never more) before each restart"
            ) in text


def test_each_restart_line_says_when_and_the_bound() -> None:
    quick = [sys.executable, "-c", "pass"]  # exits at once, again and again
    lines: list[str] = []
    sup = Supervisor("redis://unused", [Supervised("quick", quick)], quiet=True,
                     say=lines.append)
    sup.start()
    try:
        deadline = time.monotonic() + 30
        while len(lines) < 2:
            assert time.monotonic() < deadline, lines
            sup.check()
            time.sleep(0.05)
    finally:
        sup.stop()
    assert lines[0].startswith("quick exited with code 0 after ")
    assert "; restarting now (log: " in lines[0]
    assert ("; restarting in 1s (it keeps exiting within 10 s of starting; never more than "
            "5 s between restarts) (log: ") in lines[1]
    assert restart_note(50) == ("restarting in 5s (it keeps exiting within 10 s of starting; "
                                "never more than 5 s between restarts)")
