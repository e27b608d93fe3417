"""A restart of any process loses no ladder game and changes no rating: during play the
matchmaker, the gateway and the rules service are each killed (SIGKILL) and started again by
`hexlog up`; the bots (Python, over HTTP) reconnect; every game the ladder made finishes and is
rated, and the ratings are the ones `hexlog projections rebuild` computes from the log."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from ladder_helpers import Ladder, ladder_up

GAMES = 16


def kill(ladder: Ladder, service: str) -> int:
    """SIGKILL `hexlog serve SERVICE`; once `up` has started it again, the new pid."""
    old = ladder.service(service).pid
    os.kill(old, signal.SIGKILL)
    until = time.monotonic() + 120
    while True:
        try:
            new = ladder.service(service).pid
        except AssertionError:
            new = old
        if new != old:
            return new
        assert time.monotonic() < until, f"{service} was not started again"
        time.sleep(0.2)


def test_killing_the_ladder_the_gateway_and_the_rules_loses_no_game(tmp_path: Path) -> None:
    with ladder_up(tmp_path, "--deadline-ms", "5000", "--stop-after", str(GAMES)) as ladder:
        for bot, name in (("heuristic", "strong-1"), ("heuristic", "strong-2"),
                          ("random", "weak-1"), ("random", "weak-2")):
            ladder.player(bot, name, f"owner-of-{name}")
        rated = ladder.wait_rated(2, timeout=600)["games"]
        for service in ("ladder", "gateway", "rules"):
            until = time.monotonic() + 120
            while not ladder.overview()["live"]:  # killed while a game runs
                assert time.monotonic() < until, "no game ran"
                time.sleep(0.2)
            kill(ladder, service)
            if service == "gateway":  # answering again before the next one dies
                until = time.monotonic() + 120
                while True:
                    try:
                        if ladder.call("GET", "/health").status_code == 200:
                            break
                    except Exception:  # noqa: BLE001  (not listening yet)
                        pass
                    assert time.monotonic() < until, "the gateway did not come back"
                    time.sleep(0.5)
            rated = ladder.wait_rated(rated + 1, timeout=600)["games"]
        data = ladder.wait_all_finished(timeout=900)
        assert data["ladder"]["games"] == GAMES
        assert data["boards"]["overall"]["games"] == GAMES
        assert all(row["games"] == GAMES for row in data["boards"]["overall"]["rows"])
        before = {name: board["rows"] for name, board in data["boards"].items()}
        done = ladder.hexlog.run("projections", "rebuild", timeout=600)
        assert done.code == 0, done.err
        time.sleep(1.5)  # the gateway's listing is at most a second old
        after = {name: board["rows"] for name, board in ladder.overview()["boards"].items()}
        keys = ("bot", "rating", "sigma", "interval", "games", "wins", "mean_vp", "rank")
        assert {n: [{k: r[k] for k in keys} for r in rows] for n, rows in after.items()} == \
            {n: [{k: r[k] for k in keys} for r in rows] for n, rows in before.items()}
