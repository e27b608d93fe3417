"""The ladder's boards: openskill Plackett–Luce ratings (as tournaments use), one board per rule
set and one over every game.

A board rates its games in the order they finished (the `at` of their `GameFinished`, then the
game id), whatever order the projector learns of them in: a game learned of late is put in its
place and the games after it rated again, from the nearest checkpoint (every CHECKPOINT games),
so the board is always the one a rebuild from the log gives, and a game that arrives in order
costs one rating update.

A row: the rating μ, its interval [μ − 3σ, μ + 3σ], the rank key μ − 3σ (the interval's lower
end: a bot is placed where the ladder is sure it is at least, so a new bot climbs as it plays),
games, wins, mean VP. A board knows nothing of the ladder's settings (what is provisional is
said when it is shown), so it is a function of the log alone.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, replace
from typing import Any

from openskill.models import PlackettLuce

from services.tournament.ratings import GameResult, ranks, wilson

CHECKPOINT = 32
SPREAD = 3.0  # the interval is μ ± SPREAD·σ; rows rank by its lower end


@dataclass(frozen=True)
class LadderResult:
    game_id: str
    finished_at: str  # ISO 8601 UTC, from the log
    ruleset: str
    bots: tuple[str, ...]  # each seat's bot, by name
    scores: tuple[int, ...]
    winner: int | None

    @property
    def order(self) -> tuple[str, str]:
        return (self.finished_at, self.game_id)


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    vp_total: int = 0

    @property
    def low(self) -> float:
        return self.mu - SPREAD * self.sigma

    def row(self, bot: str) -> dict[str, Any]:
        lo, hi = wilson(self.wins, self.games)
        return {
            "bot": bot, "rating": self.mu, "sigma": self.sigma,
            "interval": [self.low, self.mu + SPREAD * self.sigma],
            "games": self.games, "wins": self.wins,
            "win_rate": self.wins / self.games if self.games else 0.0,
            "win_rate_95": [lo, hi],
            "mean_vp": self.vp_total / self.games if self.games else 0.0,
        }


class Board:
    def __init__(self) -> None:
        self.model = PlackettLuce()
        self.results: list[LadderResult] = []
        self.table: dict[str, Rating] = {}
        self.checkpoints: list[dict[str, Rating]] = [{}]  # the table before result k·CHECKPOINT
        self.known: set[str] = set()

    def add(self, result: LadderResult) -> None:
        """Rate a finished game in its place (a game rated already changes nothing)."""
        if result.game_id in self.known:
            return
        self.known.add(result.game_id)
        at = bisect.bisect(self.results, result.order, key=lambda r: r.order)
        self.results.insert(at, result)
        if at == len(self.results) - 1:
            self.rate(result)
            self.checkpoint(at + 1)
            return
        mark = at // CHECKPOINT
        del self.checkpoints[mark + 1:]
        self.table = dict(self.checkpoints[mark])
        for k in range(mark * CHECKPOINT, len(self.results)):
            self.rate(self.results[k])
            self.checkpoint(k + 1)

    def checkpoint(self, done: int) -> None:
        if done % CHECKPOINT == 0 and len(self.checkpoints) == done // CHECKPOINT:
            self.checkpoints.append(dict(self.table))

    def rate(self, result: LadderResult) -> None:
        model, table = self.model, self.table
        fresh = Rating(model.mu, model.sigma)
        before = [table.get(b, fresh) for b in result.bots]
        teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in before]
        order = ranks(GameResult(0, result.game_id, result.bots, result.scores, result.winner))
        rated = model.rate(teams, ranks=[float(r) for r in order])
        for seat, (bot, old, team) in enumerate(zip(result.bots, before, rated, strict=True)):
            table[bot] = replace(old, mu=team[0].mu, sigma=team[0].sigma, games=old.games + 1,
                                 wins=old.wins + (result.winner == seat),
                                 vp_total=old.vp_total + result.scores[seat])

    def rows(self) -> list[dict[str, Any]]:
        """Best first: by the interval's lower end, then by name."""
        ranked = sorted(self.table.items(), key=lambda item: (-item[1].low, item[0]))
        return [r.row(bot) | {"rank": i + 1} for i, (bot, r) in enumerate(ranked)]

    def summary(self) -> dict[str, Any]:
        return {"games": len(self.results),
                "last": self.results[-1].finished_at if self.results else None,
                "rows": self.rows()}
