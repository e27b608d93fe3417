"""`--pod`: one lineup, rotated through the seats on each set's seed, and each bot's win rate
tested against its share of the seats (1 seat of 4: parity is 25%, not 50%)."""

from __future__ import annotations

from collections import Counter

import pytest

from services.tournament.report import head_to_head, pod_tests, table
from services.tournament.runner import Spec
from services.tournament.schedule import schedule

POD = ("search", "heuristic", "heuristic", "heuristic")


def test_a_pod_is_every_set_rotated_through_the_seats_on_one_seed() -> None:
    games = schedule(["search", "heuristic"], 8, 4, "seed", POD)
    assert len(games) == 8
    for g in games:
        assert g.seats == POD[g.rotation:] + POD[:g.rotation]
    assert [g.seats.index("search") for g in games] == [0, 3, 2, 1, 0, 3, 2, 1]
    for s in (0, 1):
        assert len({g.seed for g in games if g.set_index == s}) == 1
    assert games[0].seed != games[4].seed
    assert Counter(b for g in games for b in g.seats) == {"search": 8, "heuristic": 24}


def test_a_pod_must_fill_the_seats() -> None:
    with pytest.raises(ValueError, match="each of the 4 seats"):
        schedule(["search", "heuristic"], 4, 4, "seed", ("search", "heuristic"))


def test_a_pod_changes_the_digest_and_no_pod_keeps_the_old_one() -> None:
    plain = Spec(bots=["search", "heuristic"], games=4, seed="s")
    podded = Spec(bots=["search", "heuristic"], games=4, seed="s", pod=list(POD))
    assert plain.digest() != podded.digest()
    assert plain.digest() == Spec(bots=["search", "heuristic"], games=4, seed="s").digest()


def result(search_wins: int, games: int) -> dict[str, object]:
    row = {"games": games, "win_rate_95": [0.0, 1.0], "mean_vp": 0.0, "mu": 25.0, "sigma": 8.0,
           "conservative": 1.0, "forfeits": 0}
    return {"tournament": "t", "games": games, "pod": list(POD), "seed": "",
            "standings": [row | {"bot": "search", "wins": search_wins,
                                 "win_rate": search_wins / games},
                          row | {"bot": "heuristic", "wins": games - search_wins,
                                 "win_rate": 1 - search_wins / games}]}


def test_the_pod_test_is_against_the_share_of_seats() -> None:
    tests = {t["bot"]: t for t in pod_tests(result(25, 100))}
    assert tests["search"]["parity"] == 0.25
    assert tests["search"]["p_value"] == pytest.approx(1.0, abs=0.01)  # exactly parity
    assert tests["heuristic"]["parity"] == 0.75
    strong = {t["bot"]: t for t in pod_tests(result(50, 100))}["search"]
    assert strong["p_value"] < 1e-6
    lo, hi = strong["win_rate_95"]
    assert lo < 0.5 < hi
    # Unequal shares: no 50/50 head-to-head line; the pod lines instead.
    assert head_to_head(result(50, 100)) is None
    assert "pod: search (1 of 4 seats) won 50 of 100 games" in table(result(50, 100))
