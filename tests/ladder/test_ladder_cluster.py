"""The ladder on a Redis Cluster (`hexlog up --cluster 3 --ladder`): every key of the ladder a
slot of its own, every change of a record a transaction on its one key; bots over HTTP play
rated games and the ratings are the ones rebuilt from the log."""

from __future__ import annotations

import time
from pathlib import Path

from ladder_helpers import ladder_up

GAMES = 4


def test_the_ladder_plays_and_rates_on_a_cluster(tmp_path: Path) -> None:
    with ladder_up(tmp_path, "--cluster", "3", "--deadline-ms", "5000",
                   "--stop-after", str(GAMES)) as ladder:
        for bot, name in (("heuristic", "strong-1"), ("heuristic", "strong-2"),
                          ("random", "weak-1"), ("random", "weak-2")):
            ladder.player(bot, name, f"owner-of-{name}")
        ladder.wait_rated(GAMES, timeout=900)
        data = ladder.wait_all_finished(timeout=300)
        assert data["ladder"]["games"] == GAMES
        board = data["boards"]["overall"]
        assert board["games"] == GAMES
        assert {row["bot"] for row in board["rows"]} == {"strong-1", "strong-2", "weak-1",
                                                         "weak-2"}
        done = ladder.hexlog.run("projections", "rebuild", timeout=600)
        assert done.code == 0, done.err
        time.sleep(1.5)
        again = ladder.overview()["boards"]["overall"]
        keys = ("bot", "rating", "sigma", "games", "wins", "rank")
        assert [{k: r[k] for k in keys} for r in again["rows"]] == \
            [{k: r[k] for k in keys} for r in board["rows"]]
