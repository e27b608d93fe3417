"""Standings from game results: openskill Plackett–Luce ratings, win rates with a 95% Wilson
interval, mean VP; ordered by the conservative rating μ − 3σ.

Results are rated in schedule order, whatever order the games finished in, so the same
tournament always gives the same table. A bot that holds several seats in one game gets the
mean of its seats' rating updates for that game (one rating per bot, not per seat).

Counts are per game, not per seat: `games` is the games a bot played in, `wins` the games one
of its seats won (so with `random,heuristic` sharing every game 2 + 2, the two win rates add up
to the decided games), `forfeits` the games it left for good. `mean_vp` is per seat.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from openskill.models import PlackettLuce


@dataclass(frozen=True)
class GameResult:
    index: int
    game_id: str
    bots: tuple[str, ...]  # per seat
    scores: tuple[int, ...]  # final VP per seat
    winner: int | None
    forfeits: tuple[int, ...] = ()  # seats whose bot forfeited (ranked last)


@dataclass
class Standing:
    bot: str
    games: int = 0
    wins: int = 0
    seats: int = 0  # seats held over all its games (mean VP is per seat)
    vp_total: int = 0
    forfeits: int = 0
    mu: float = 25.0
    sigma: float = 25.0 / 3
    history: list[tuple[int, float]] = field(default_factory=list)  # (game index, μ after it)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def mean_vp(self) -> float:
        return self.vp_total / self.seats if self.seats else 0.0

    @property
    def conservative(self) -> float:
        return self.mu - 3 * self.sigma

    def as_dict(self) -> dict[str, Any]:
        lo, hi = wilson(self.wins, self.games)
        return {
            "bot": self.bot,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "win_rate_95": [lo, hi],
            "mean_vp": self.mean_vp,
            "mu": self.mu,
            "sigma": self.sigma,
            "conservative": self.conservative,
            "forfeits": self.forfeits,
            "seats": self.seats,
        }


def wilson(wins: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval for a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def ranks(result: GameResult) -> list[int]:
    """1 = best. The winner first, then by VP (ties share a rank), forfeits last."""
    keys = []
    for seat, vp in enumerate(result.scores):
        if seat in result.forfeits:
            keys.append((2, 0))
        elif seat == result.winner:
            keys.append((0, 0))
        else:
            keys.append((1, -vp))
    order = sorted(set(keys))
    return [order.index(k) + 1 for k in keys]


class Rater:
    """Rates results one by one, in schedule order (`standings` from scratch; the projector
    keeps one per tournament over the results that arrived in order, so a finished game costs
    one rating update, not a re-rating of the whole tournament)."""

    def __init__(self) -> None:
        self.model = PlackettLuce()
        self.table: dict[str, Standing] = {}
        self.last = -1  # index of the last result rated

    def rate(self, result: GameResult) -> None:
        if result.index <= self.last:
            raise ValueError(f"result {result.index} rated after {self.last}: out of order")
        self.last = result.index
        table, model = self.table, self.model
        for bot in result.bots:
            table.setdefault(bot, Standing(bot))
        teams = [[model.rating(mu=table[b].mu, sigma=table[b].sigma)] for b in result.bots]
        rated = model.rate(teams, ranks=[float(r) for r in ranks(result)])
        deltas: dict[str, list[tuple[float, float]]] = {}
        for bot, team in zip(result.bots, rated, strict=True):
            deltas.setdefault(bot, []).append((team[0].mu, team[0].sigma))
        for bot, new in deltas.items():
            s = table[bot]
            s.mu = sum(m for m, _ in new) / len(new)
            s.sigma = sum(sg for _, sg in new) / len(new)
            s.history.append((result.index, s.mu))
        for bot in dict.fromkeys(result.bots):
            seats = [i for i, b in enumerate(result.bots) if b == bot]
            s = table[bot]
            s.games += 1
            s.wins += result.winner in seats
            s.seats += len(seats)
            s.vp_total += sum(result.scores[i] for i in seats)
            s.forfeits += any(i in result.forfeits for i in seats)

    def copy(self) -> Rater:
        other = Rater()
        other.last = self.last
        other.table = {b: replace(s, history=list(s.history)) for b, s in self.table.items()}
        return other

    def standings(self) -> list[Standing]:
        return sorted(self.table.values(), key=lambda s: (-s.conservative, s.bot))


def standings(results: Iterable[GameResult]) -> list[Standing]:
    rater = Rater()
    for result in sorted(results, key=lambda r: r.index):
        rater.rate(result)
    return rater.standings()


def binomial_p_value(wins: int, n: int, p: float = 0.5) -> float:
    """Two-sided exact binomial test: how likely a result at least this far from p*n is."""
    if n == 0:
        return 1.0
    probs = [math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]
    observed = probs[wins]
    return min(1.0, sum(q for q in probs if q <= observed * (1 + 1e-9)))
