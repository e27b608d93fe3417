"""Bots over HTTP play rated games on a ladder, unattended: `hexlog up --ladder`, four Python
ladder bots in processes of their own (two heuristic, two random, four owners) that register,
say ready and answer the prompts of their one stream. The heuristic bots end ranked above the
random ones; the public pages show the boards, the bots and the games; and the ratings are
the ones `hexlog projections rebuild` computes again from the log."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from ladder_helpers import Ladder, ladder_up

GAMES = 12


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Ladder, dict[str, Any]]]:
    with ladder_up(tmp_path_factory.mktemp("ladder"), "--deadline-ms", "5000",
                   "--stop-after", str(GAMES)) as ladder:
        ids = {}
        for bot, name in (("heuristic", "strong-1"), ("heuristic", "strong-2"),
                          ("random", "weak-1"), ("random", "weak-2")):
            said = ladder.player(bot, name, f"owner-of-{name}")
            ids[name] = said["id"]
        ladder.wait_rated(GAMES, timeout=900)
        yield ladder, ladder.wait_all_finished(timeout=300) | {"ids": ids}


def test_the_stronger_bots_rank_above_the_weaker(played: tuple[Ladder, dict[str, Any]]) -> None:
    _, data = played
    board = data["boards"]["overall"]
    assert board["games"] == GAMES
    order = [row["bot"] for row in board["rows"]]
    assert set(order[:2]) == {"strong-1", "strong-2"}, board["rows"]
    assert set(order[2:]) == {"weak-1", "weak-2"}, board["rows"]
    for rank, row in enumerate(board["rows"], 1):
        low, high = row["interval"]
        assert low < row["rating"] < high
        assert row["rank"] == rank
        assert row["games"] == GAMES  # four bots, every game seats all four
        assert row["id"] == data["ids"][row["bot"]]
        assert row["provisional"] is False  # 10 games make a rating (the default)
    assert data["boards"]["base"]["rows"] == board["rows"]  # one rule set: its board is all


def test_the_public_pages_show_boards_bots_and_games(played: tuple[Ladder, dict[str, Any]]
                                                     ) -> None:
    ladder, data = played
    page = ladder.call("GET", "/ladder.html")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    for name in data["ids"]:
        assert name in page.text
    finished = data["recent"]
    assert len(finished) == GAMES
    game = finished[0]
    assert game["status"] == "finished"
    assert len(game["scores"]) == 4
    assert {s["name"] for s in game["seats"]} == set(data["ids"])
    one = ladder.call("GET", f"/v1/ladder/games/{game['id']}").json()
    assert one["winner"] == game["winner"]
    assert one["scores"] == game["scores"]
    replay = ladder.call("GET", game["links"]["replay"])
    assert replay.status_code == 200
    assert game["id"] in replay.text
    bot_id = data["ids"]["strong-1"]
    mine = ladder.call("GET", f"/v1/ladder/bots/{bot_id}").json()
    assert mine["bot"]["name"] == "strong-1"
    assert mine["bot"]["owner"] == "owner-of-strong-1"
    assert len(mine["games"]) == GAMES
    assert mine["boards"]["overall"]["games"] == GAMES
    assert "token" not in str(mine)  # no token, no token hash
    html = ladder.call("GET", f"/ladder/bots/{bot_id}")
    assert html.status_code == 200
    assert "strong-1" in html.text
    assert "replay" in html.text


def test_the_ratings_are_the_ones_rebuilt_from_the_log(played: tuple[Ladder, dict[str, Any]]
                                                       ) -> None:
    ladder, data = played
    before = {name: board["rows"] for name, board in data["boards"].items()}
    done = ladder.hexlog.run("projections", "rebuild", timeout=600)
    assert done.code == 0, done.err
    time.sleep(1.5)  # the gateway's listing is at most a second old
    after = {name: board["rows"] for name, board in ladder.overview()["boards"].items()}
    keys = ("bot", "rating", "sigma", "interval", "games", "wins", "mean_vp", "rank")
    assert {n: [{k: r[k] for k in keys} for r in rows] for n, rows in after.items()} == \
        {n: [{k: r[k] for k in keys} for r in rows] for n, rows in before.items()}


def test_a_finished_ladder_made_no_game_past_its_limit(played: tuple[Ladder, dict[str, Any]]
                                                        ) -> None:
    ladder, data = played
    assert data["ladder"]["games"] == GAMES
    time.sleep(2)
    assert ladder.overview()["ladder"]["games"] == GAMES


def test_a_game_is_watched_in_the_browser_from_its_live_page(
        played: tuple[Ladder, dict[str, Any]]) -> None:
    """The live page and its feed (Server-Sent Events of steps: the board as an SVG, the
    moves narrated); a game over shows its last board and its winner at once."""
    ladder, data = played
    game = data["recent"][0]
    page = ladder.call("GET", game["links"]["live"])
    assert page.status_code == 200
    assert "EventSource" in page.text
    assert f"/v1/ladder/games/{game['id']}/steps" in page.text
    with httpx.Client(timeout=60) as client, \
            client.stream("GET", f"{ladder.base}/v1/ladder/games/{game['id']}/steps") as r:
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        step = next(json.loads(line[5:]) for line in r.iter_lines()
                    if line.startswith("data:") and line[5:].strip())
    assert step["finished"] is True
    assert step["svg"].startswith("<svg")
    winner = game["seats"][game["winner"]]["name"]
    assert step["winner"] == winner
