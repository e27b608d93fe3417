"""Who plays whom: pods of ready bots by rating, and who sits where. Pure functions.

The bot that has waited longest for a game (fewest games at once first, then fewest rated
games, then the longest since it last started one) anchors a pod; its opponents are drawn from
the bots nearest it in rating, choosing the group whose game openskill finds most even (the
chance of a draw its model gives, `predict_draw`: TrueSkill's match quality), with pairs that
met recently weighed down so a bot meets everyone in turn. New bots, whose rating is wide, thus
play at once, and play many games while their interval narrows. A bot never takes two seats of
one pod, and two bots of one owner share none unless the ladder allows it.

Seats: each bot sits where it has sat least, so every bot plays every seat about as often. Pods
formed together for one rule set may share a seed (a *duplicate set*: the same board, dice and
cards, no bot in two of its games); their seats are then rotated, so the strongest bot of each
pod sits in another seat of the same board.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

NEAREST = 11  # opponents considered per pod: C(11, 3) = 165 groups for 4 seats
REPEAT_WEIGHT = 0.02  # quality lost per recent meeting of a pair
MODEL = PlackettLuce()


@dataclass(frozen=True)
class Candidate:
    id: str
    owner: str  # compared as given (registry keeps it lower-cased for this)
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    rated: int = 0  # rated games on the board of the rule set
    playing: int = 0  # games at once now
    waiting_since: float = 0.0  # when it last started a game (or said ready)


@dataclass
class History:
    """What matchmaking remembers between rounds: recent pairs and each bot's seats."""

    pairs: Counter[tuple[str, str]] = field(default_factory=Counter)
    seats: dict[str, Counter[int]] = field(default_factory=dict)
    kept: int = 2000  # pairs remembered (the oldest decay first)

    def met(self, pod: Sequence[str]) -> None:
        for a, b in itertools.combinations(sorted(pod), 2):
            self.pairs[(a, b)] += 1
        if sum(self.pairs.values()) > self.kept:
            for pair in list(self.pairs):
                self.pairs[pair] //= 2
                if not self.pairs[pair]:
                    del self.pairs[pair]

    def sat(self, lineup: Sequence[str]) -> None:
        for seat, bot in enumerate(lineup):
            self.seats.setdefault(bot, Counter())[seat] += 1


def quality(pod: Sequence[Candidate], history: History) -> float:
    teams = [[MODEL.rating(mu=c.mu, sigma=c.sigma)] for c in pod]
    repeats = sum(history.pairs[(a.id, b.id) if a.id < b.id else (b.id, a.id)]
                  for a, b in itertools.combinations(pod, 2))
    return float(MODEL.predict_draw(teams)) - REPEAT_WEIGHT * repeats


def compatible(pod: Sequence[Candidate], owners_together: bool) -> bool:
    ids = [c.id for c in pod]
    if len(set(ids)) != len(ids):
        return False
    owners = [c.owner for c in pod]
    return owners_together or len(set(owners)) == len(owners)


def form_pods(candidates: Sequence[Candidate], seats: int, history: History,
              rng: random.Random, *, owners_together: bool = False,
              most: int = 64) -> list[tuple[Candidate, ...]]:
    """Disjoint pods of `seats` bots each, the most waiting bots first, at most `most`."""
    left = sorted(candidates, key=lambda c: (c.playing, c.rated, c.waiting_since, c.id))
    pods: list[tuple[Candidate, ...]] = []
    while len(left) >= seats and len(pods) < most:
        anchor, rest = left[0], left[1:]
        nearest = sorted(rest, key=lambda c: (abs(c.mu - anchor.mu), rng.random()))[:NEAREST]
        groups = [(anchor, *g) for g in itertools.combinations(nearest, seats - 1)
                  if compatible((anchor, *g), owners_together)]
        if not groups:
            left = rest  # nobody can sit with the anchor now; it waits for the next round
            continue
        best = max(groups, key=lambda g: (quality(g, history), rng.random()))
        pods.append(best)
        chosen = {c.id for c in best}
        left = [c for c in left if c.id not in chosen]
    return pods


def seat_lineup(pod: Sequence[Candidate], history: History, rng: random.Random) -> list[str]:
    """The pod's bots by seat: each where it has sat least (ties drawn at random)."""
    ids = [c.id for c in pod]
    best: list[str] = ids
    best_cost: tuple[int, float] | None = None
    for order in itertools.permutations(ids):
        cost = (sum(history.seats.get(bot, Counter())[seat] for seat, bot in enumerate(order)),
                rng.random())
        if best_cost is None or cost < best_cost:
            best, best_cost = list(order), cost
    return best


def duplicate_sets(pods: Sequence[Sequence[Candidate]]) -> list[list[Sequence[Candidate]]]:
    """Pods formed together, grouped into duplicate sets (one seed each): a set never holds
    two bots of one owner, even in different games (one owner's bots could tell each other
    the dice to come), nor more pods than a game has seats (one rotation each)."""
    sets: list[list[Sequence[Candidate]]] = []
    owners: list[set[str]] = []
    for pod in pods:
        mine = {c.owner for c in pod}
        for group, held in zip(sets, owners, strict=True):
            if len(group) < len(pod) and not held & mine:
                group.append(pod)
                held |= mine
                break
        else:
            sets.append([pod])
            owners.append(set(mine))
    return sets


def rotated_lineups(pods: Sequence[Sequence[Candidate]]) -> list[list[str]]:
    """A duplicate set's lineups: each pod strongest first, pod j rotated by j seats, so the
    pods' strongest bots sit in different seats of the one board."""
    out = []
    for j, pod in enumerate(pods):
        ranked = [c.id for c in sorted(pod, key=lambda c: (-c.mu, c.id))]
        shift = j % len(ranked)
        out.append(ranked[-shift:] + ranked[:-shift] if shift else ranked)
    return out
