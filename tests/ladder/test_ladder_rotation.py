"""A rotation of rule sets: the ladder plays `base` and `catan-for-two` in turn, each rated on a
board of its own and every game on the overall board; a bot that accepts only `base` never plays
Catan for Two; no game seats a bot twice. (Which pods make a duplicate set is
test_matchmaking.py's.)"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from ladder_helpers import Ladder, ladder_up

GAMES = 8


@pytest.fixture(scope="module")
def rotated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Ladder, dict[str, Any]]]:
    with ladder_up(tmp_path_factory.mktemp("ladder"), "--rulesets", "base,catan-for-two",
                   "--deadline-ms", "5000", "--stop-after", str(GAMES)) as ladder:
        ids = {}
        for bot, name, only in (("heuristic", "strong-1", ""), ("heuristic", "strong-2", ""),
                                ("random", "weak-1", ""), ("random", "weak-2", ""),
                                ("random", "base-only", "base")):
            options = ("--rulesets", only) if only else ()
            ids[name] = ladder.player(bot, name, f"owner-of-{name}", *options)["id"]
        ladder.wait_rated(GAMES, timeout=1200)
        data = ladder.wait_all_finished(timeout=600)
        games = []
        for bot_id in ids.values():
            games += ladder.call("GET", f"/v1/ladder/bots/{bot_id}").json()["games"]
        yield ladder, data | {"ids": ids, "games": {g["id"]: g for g in games}}


def test_each_rule_set_has_its_board_and_every_game_counts_overall(
        rotated: tuple[Ladder, dict[str, Any]]) -> None:
    _, data = rotated
    boards = data["boards"]
    assert list(boards)[0] == "overall"
    assert set(boards) == {"overall", "base", "catan-for-two"}
    assert boards["overall"]["games"] == GAMES
    assert boards["base"]["games"] + boards["catan-for-two"]["games"] == GAMES
    assert boards["base"]["games"] > 0
    assert boards["catan-for-two"]["games"] > 0
    assert data["ladder"]["rulesets"] == [
        {"key": "base", "seats": 4, "modules": []},
        {"key": "catan-for-two", "seats": 2, "modules": ["catan-for-two"]}]


def test_a_bot_plays_only_the_rule_sets_it_accepts(rotated: tuple[Ladder, dict[str, Any]]
                                                   ) -> None:
    _, data = rotated
    played = [g for g in data["games"].values()
              if any(s["name"] == "base-only" for s in g["seats"])]
    assert played
    assert {g["ruleset"] for g in played} == {"base"}
    for g in data["games"].values():
        assert len(g["seats"]) == (4 if g["ruleset"] == "base" else 2)
        assert len({s["id"] for s in g["seats"]}) == len(g["seats"])  # never two seats
