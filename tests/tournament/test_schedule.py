"""The schedule: equal shares of seats, pairs that meet equally often, every seat rotation of a
pod on one seed (the duplicate format), and all of it a pure function of the tournament seed."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from services.tournament.schedule import ScheduledGame, schedule


def seat_counts(games: list[ScheduledGame]) -> Counter[str]:
    return Counter(bot for g in games for bot in g.seats)


def sets_of(games: list[ScheduledGame]) -> dict[int, list[ScheduledGame]]:
    out: dict[int, list[ScheduledGame]] = {}
    for g in games:
        out.setdefault(g.set_index, []).append(g)
    return out


@pytest.mark.parametrize(
    ("bots", "seats", "games"),
    [
        (["random", "heuristic"], 4, 8),
        (["a", "b", "c"], 4, 12),  # 4 seats, 3 bots: one bot takes 2 seats, in turn per set
        (["a", "b", "c", "d"], 4, 8),
        (["solo"], 4, 4),
        (["random", "heuristic"], 2, 6),  # Catan for Two
    ],
)
def test_fewer_bots_than_seats_share_the_seats_equally(bots: list[str], seats: int, games: int) -> None:
    sched = schedule(bots, games, seats, "equal")
    assert len(sched) == games
    assert all(len(g.seats) == seats for g in sched)
    counts = seat_counts(sched)
    assert set(counts) == set(bots)
    assert len(set(counts.values())) == 1, counts  # the very same number of seats each
    if seats % len(bots) == 0:  # ... and then in every single game
        for g in sched:
            assert set(Counter(g.seats).values()) == {seats // len(bots)}, g


def test_two_bots_sit_in_blocks_so_that_rotations_differ() -> None:
    """AABB, not ABAB: the 4 rotations of ABAB would be only 2 different games."""
    sched = schedule(["random", "heuristic"], 4, 4, "blocks")
    assert len({g.seats for g in sched}) == 4


def test_games_are_rounded_up_to_whole_sets() -> None:
    assert len(schedule(["a", "b"], 5, 4, "s")) == 8
    assert len(schedule(["a", "b"], 3, 2, "s")) == 4
    with pytest.raises(ValueError, match="at least one game"):
        schedule(["a"], 0, 4, "s")
    with pytest.raises(ValueError, match="at least one bot"):
        schedule([], 4, 4, "s")


@pytest.mark.parametrize(("bots", "seats"), [(["a", "b"], 4), (list("abcdef"), 4), (["x", "y"], 2),
                                             (list("abc"), 2)])
def test_every_pod_is_played_in_all_seat_rotations_on_one_seed(bots: list[str], seats: int) -> None:
    sched = schedule(bots, 10 * seats, seats, "rotations")
    assert [g.index for g in sched] == list(range(len(sched)))
    by_set = sets_of(sched)
    assert len({games[0].seed for games in by_set.values()}) == len(by_set)  # a seed per set
    for games in by_set.values():
        assert [g.rotation for g in games] == list(range(seats))
        assert len({g.seed for g in games}) == 1  # duplicate format: one seed per set
        lineup = games[0].seats
        for g in games:
            r = g.rotation
            assert g.seats == lineup[r:] + lineup[:r]
        # So each bot sits in each seat as often as it holds seats in the pod.
        for seat in range(seats):
            assert Counter(g.seats[seat] for g in games) == Counter(lineup)


def test_with_six_bots_every_pair_meets_equally_often() -> None:
    bots = [f"bot{i}" for i in range(6)]
    sched = schedule(bots, 15 * 4, 4, "pairs")  # 15 pods: as many as 4-subsets of 6 bots
    pods = [g.seats for g in sched if g.rotation == 0]
    assert len(pods) == 15
    assert all(len(set(p)) == 4 for p in pods)  # four different bots in each pod
    meets = Counter(pair for p in pods for pair in itertools.combinations(sorted(p), 2))
    assert len(meets) == 15
    assert set(meets.values()) == {6}, meets  # 15 pods x 6 pairs / 15 pairs
    assert set(Counter(b for p in pods for b in p).values()) == {10}


@pytest.mark.parametrize(("n", "sets"), [(6, 7), (6, 40), (7, 21), (9, 30)])
def test_more_bots_than_seats_meet_about_equally_often(n: int, sets: int) -> None:
    bots = [f"bot{i}" for i in range(n)]
    pods = [g.seats for g in schedule(bots, sets * 4, 4, "about") if g.rotation == 0]
    meets = Counter(pair for p in pods for pair in itertools.combinations(sorted(p), 2))
    counts = [meets[pair] for pair in itertools.combinations(sorted(bots), 2)]
    assert max(counts) - min(counts) <= 2, meets
    played = Counter(b for p in pods for b in p)
    assert max(played.values()) - min(played.values()) <= 1


def test_the_schedule_is_a_function_of_the_seed() -> None:
    bots = [f"bot{i}" for i in range(6)]
    assert schedule(bots, 40, 4, "same") == schedule(bots, 40, 4, "same")
    assert schedule(bots, 40, 4, "same") != schedule(bots, 40, 4, "other")
    assert schedule(["a", "b"], 8, 4, "same")[0].seed != schedule(["a", "b"], 8, 4, "other")[0].seed
