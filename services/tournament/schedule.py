"""Who plays whom, in which seat, on which seed (the duplicate format).

A *set* is one pod of bots and one seed, played once per cyclic seat rotation: the same board,
dice and decks in every rotation (chance is indexed by what is drawn, not by who draws), so
seat order and luck cancel out within a set. With fewer distinct bots than seats each bot
fills an equal share of seats (`random,heuristic` → 2 + 2, in blocks so that the rotations move
every bot through every seat); with more bots than seats, pods are drawn greedily so every
pair of bots meets about equally often. Everything is a pure function of the tournament seed.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import math
import random
from dataclasses import dataclass


@dataclass(frozen=True)
class ScheduledGame:
    index: int  # position in the schedule: also the order in which results are rated
    set_index: int
    rotation: int
    seats: tuple[str, ...]  # bot name per seat
    seed: bytes  # the set's seed, shared by its rotations


MAX_CANDIDATES = 5000  # pods compared per set


def set_seed(tournament_seed: str, set_index: int) -> bytes:
    return hmac.digest(tournament_seed.encode(), f"set:{set_index}".encode(), hashlib.sha256)


def pods(bots: list[str], seats: int, sets: int, rng: random.Random) -> list[tuple[str, ...]]:
    """One lineup (bot per seat, before rotation) per set."""
    if len(bots) <= seats:
        out = []
        k = len(bots)
        for s in range(sets):
            # Each bot holds a block of neighbouring seats (AABB, not ABAB: the rotations of
            # ABAB repeat themselves); when seats is not a multiple of the number of bots the
            # extra seats go to each bot in turn, set after set.
            shift = s % k
            lineup: list[str] = []
            for i in range(k):
                bot = bots[(shift + i) % k]
                lineup.extend([bot] * (seats // k + (1 if i < seats % k else 0)))
            out.append(tuple(lineup))
        return out
    meet: dict[tuple[str, ...], int] = {
        pair: 0 for pair in itertools.combinations(sorted(bots), 2)
    }
    played = dict.fromkeys(bots, 0)
    out = []
    for _ in range(sets):
        # Least-played bots first (so every bot plays about as many sets), then the pod whose
        # pairs have met least, counting squares (a pair that met often weighs more). Every
        # pod is a candidate while there are few (up to 16 bots in 4 seats); beyond, only pods
        # of the least-played bots. With 6 bots every pair meets equally often after 15 sets.
        order = sorted(bots, key=lambda b: (played[b], rng.random()))
        pool = order if math.comb(len(order), seats) <= MAX_CANDIDATES else order[: seats + 4]
        best = min(
            itertools.combinations(pool, seats),
            key=lambda pod: (
                sum(played[b] for b in pod),
                sum(meet[tuple(sorted(p))] ** 2 for p in itertools.combinations(pod, 2)),
                rng.random(),
            ),
        )
        for p in itertools.combinations(best, 2):
            meet[tuple(sorted(p))] += 1
        for b in best:
            played[b] += 1
        lineup = list(best)
        rng.shuffle(lineup)
        out.append(tuple(lineup))
    return out


def schedule(bots: list[str], games: int, seats: int, seed: str,
             pod: tuple[str, ...] = ()) -> list[ScheduledGame]:
    """`games` games in whole sets of `seats` rotations (rounded up to a whole set). A given
    `pod` (a bot per seat, `search,heuristic,heuristic,heuristic`) is every set's lineup:
    one pod on fresh seeds, rotated through the seats, instead of pods drawn from `bots`."""
    if pod and len(pod) != seats:
        raise ValueError(f"a pod names a bot for each of the {seats} seats, not {len(pod)}")
    if not bots:
        raise ValueError("a tournament needs at least one bot")
    if games < 1:
        raise ValueError("a tournament needs at least one game")
    sets = -(-games // seats)
    rng = random.Random(seed)
    out: list[ScheduledGame] = []
    lineups = [tuple(pod)] * sets if pod else pods(bots, seats, sets, rng)
    for s, lineup in enumerate(lineups):
        sseed = set_seed(seed, s)
        for r in range(seats):
            rotated = lineup[r:] + lineup[:r]
            out.append(ScheduledGame(len(out), s, r, rotated, sseed))
    return out
