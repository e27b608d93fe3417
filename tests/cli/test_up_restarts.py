"""`hexlog up` restarts a service that dies at once, or after a pause that never passes 5 s
however often it dies (what waits on the service waits that long after each crash), and says
so: in `hexlog up --help` and in the line of each restart. Its embedded Valkey too: killed, it
is started again from its AOF with the services' users, once; killed again soon after, `up`
stops with the reason instead of restarting it in a loop."""

from __future__ import annotations

import os
import signal
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
    assert ("The embedded Valkey, killed or crashed, is started again from its AOF; dying "
            "again within a minute of that, it stops `up` (exit 1, with its log).") in text


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


def test_up_starts_its_killed_valkey_again_from_its_aof_and_stops_if_it_dies_again(
    hexlog: Hexlog,
) -> None:
    proc = hexlog.start("up")
    hexlog.wait_for_line(proc, "supervising rules, projections and bots")
    before = hexlog.run("play", "--game-id", "before", "--turn-limit", "30")
    assert before.code == 0, before.err
    pidfile = hexlog.data / "valkey.pid"
    first = int(pidfile.read_text())

    os.kill(first, signal.SIGKILL)  # what the OOM killer does
    said = hexlog.wait_for_line(proc, "started again from its AOF")[-1]
    assert "the embedded Valkey stopped (killed by SIGKILL)" in said
    assert f"started again from its AOF in {hexlog.data} (every acknowledged write is back)" in said
    second = int(pidfile.read_text())
    assert second != first
    # up's services (rules, bots) play on with the users and passwords they had.
    after = hexlog.run("play", "--game-id", "after", "--turn-limit", "30")
    assert after.code == 0, after.err
    assert "attached to the running server" in after.err
    assert hexlog.run("replay", "before").code == 0  # the game played before the kill is kept

    os.kill(second, signal.SIGKILL)  # again within a minute: not a loop of restarts
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 1, err
    last = err.strip().splitlines()[-1]
    assert last.startswith("hexlog: up: the embedded Valkey stopped again "), last
    assert "not starting it a third time; its log: " in last
    assert "`hexlog up` again starts the server from its AOF" in last
