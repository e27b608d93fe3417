"""Who plays whom (services/ladder/matchmaking.py, pure): pods by rating, never a bot twice nor
two bots of one owner; duplicate sets of pods formed together with no bot and no owner in two
of their games, at most one pod per seat, seats rotated so each pod's strongest bot sits in
another seat of the one board; each bot seated where it sat least."""

from __future__ import annotations

import random

from services.ladder.matchmaking import (
    Candidate,
    History,
    duplicate_sets,
    form_pods,
    rotated_lineups,
    seat_lineup,
)


def bot(i: int, mu: float = 25.0, owner: str = "") -> Candidate:
    return Candidate(f"b{i}", owner or f"o{i}", mu=mu)


def test_pods_are_disjoint_and_near_in_rating() -> None:
    bots = [bot(i, mu=10.0 * i) for i in range(8)]
    pods = form_pods(bots, 4, History(), random.Random(1))
    assert len(pods) == 2
    assert {c.id for p in pods for c in p} == {c.id for c in bots}
    assert {c.id for c in pods[0]} in ({"b0", "b1", "b2", "b3"}, {"b4", "b5", "b6", "b7"})


def test_one_owners_bots_never_share_a_pod_unless_allowed() -> None:
    bots = [bot(0, owner="ann"), bot(1, owner="ann"), bot(2), bot(3)]
    assert form_pods(bots, 4, History(), random.Random(1)) == []
    assert len(form_pods(bots, 4, History(), random.Random(1), owners_together=True)) == 1
    assert form_pods(bots, 2, History(), random.Random(1))  # ann's two apart: b0+b2, b1+b3
    for pod in form_pods(bots, 2, History(), random.Random(1)):
        assert len({c.owner for c in pod}) == 2


def test_duplicate_sets_share_no_owner_and_hold_one_pod_per_seat() -> None:
    a = (bot(0, owner="ann"), bot(1))
    b = (bot(2, owner="ann"), bot(3))  # ann again: not with a
    c = (bot(4), bot(5))
    d = (bot(6), bot(7))
    sets = duplicate_sets([a, b, c, d])
    assert [[p[0].id for p in s] for s in sets] == [["b0", "b4"], ["b2", "b6"]]
    for group in sets:
        owners = [x.owner for p in group for x in p]
        assert len(owners) == len(set(owners))
        assert len(group) <= len(group[0])


def test_a_sets_lineups_rotate_the_strongest_through_the_seats() -> None:
    pods = [(bot(0, 30), bot(1, 20), bot(2, 10), bot(3, 5)),
            (bot(4, 31), bot(5, 21), bot(6, 11), bot(7, 6))]
    first, second = rotated_lineups(pods)
    assert first == ["b0", "b1", "b2", "b3"]
    assert second == ["b7", "b4", "b5", "b6"]  # its strongest one seat on


def test_each_bot_sits_where_it_sat_least() -> None:
    history = History()
    history.sat(["b0", "b1"])
    history.sat(["b0", "b1"])
    assert seat_lineup((bot(0), bot(1)), history, random.Random(1)) == ["b1", "b0"]
