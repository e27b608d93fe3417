"""Standings: openskill Plackett–Luce ratings in schedule order, per-game counts, the Wilson
interval, the exact binomial test; and the projector's incremental rating equals a rating from
scratch whatever order games finish in."""

from __future__ import annotations

import json
import math
import random

from redis.asyncio import Redis

from services.cli.projections import shipped
from services.projections.projector import Projector, results_key, standings_key
from services.tournament.projection import NONE_REFUSED
from services.tournament.ratings import GameResult, binomial_p_value, ranks, standings, wilson
from services.tournament.report import JSON_KEYS, head_to_head, json_result, ratings_svg, table


def result(index: int, bots: tuple[str, ...], scores: tuple[int, ...], winner: int | None,
           forfeits: tuple[int, ...] = ()) -> GameResult:
    return GameResult(index, f"g{index}", bots, scores, winner, forfeits)


def test_ranks_put_the_winner_first_ties_together_and_forfeits_last() -> None:
    assert ranks(result(0, ("a", "b", "c", "d"), (10, 7, 7, 3), 0)) == [1, 2, 2, 3]
    assert ranks(result(0, ("a", "b", "c", "d"), (6, 7, 7, 3), None, (1,))) == [2, 4, 1, 3]


def test_counts_are_per_game_and_the_order_is_by_conservative_rating() -> None:
    games = [result(i, ("r", "r", "h", "h"), (2, 3, 10, 6), 2) for i in range(8)]
    games.append(result(8, ("r", "h", "h", "r"), (4, 5, 6, 7), None))
    rows = standings(games)
    assert [s.bot for s in rows] == ["h", "r"]
    h, r = rows
    assert (h.games, h.wins, h.seats) == (9, 8, 18)
    assert (r.games, r.wins, r.seats) == (9, 0, 18)
    assert math.isclose(h.mean_vp, (8 * 16 + 11) / 18)
    assert h.conservative == h.mu - 3 * h.sigma
    assert h.conservative > r.conservative
    assert [i for i, _ in h.history] == list(range(9))


def test_wilson_interval_and_binomial_p_value() -> None:
    lo, hi = wilson(8, 8)
    assert hi == 1.0
    assert math.isclose(lo, 0.676, abs_tol=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)
    assert binomial_p_value(8, 8) == 2 * 0.5**8
    assert math.isclose(binomial_p_value(60, 100), 0.0569, abs_tol=1e-4)
    assert binomial_p_value(50, 100) == 1.0
    assert binomial_p_value(0, 0) == 1.0


def test_report_keys_head_to_head_and_plot() -> None:
    rows = [s.as_dict() | {"history": s.history}
            for s in standings([result(i, ("r", "r", "h", "h"), (2, 3, 10, 6), 2) for i in range(6)])]
    res = {"tournament": "t-x-1", "games": 6, "standings": rows, "games_ids": [f"g{i}" for i in range(6)]}
    out = json_result(res)
    assert [list(r) for r in out["standings"]] == [list(JSON_KEYS)] * 2
    assert out["head_to_head"]["wins"] == [6, 0]
    assert out["head_to_head"]["p_value"] == binomial_p_value(6, 6)
    assert head_to_head(res | {"games": 7}) is None  # not every game had both bots
    assert "forfeits" not in table(res)
    svg = ratings_svg(rows, 6)
    assert svg.count("<polyline") == 2
    assert svg.startswith("<svg")


async def test_the_projection_rates_incrementally_as_from_scratch(redis_client: Redis) -> None:
    rng = random.Random(5)
    bots = ["a", "b", "c", "d", "e", "f"]
    games = []
    for i in range(40):
        seats = tuple(rng.sample(bots, 4))
        scores = tuple(rng.randrange(2, 10) for _ in seats)
        winner = rng.choice([None, 0, 1, 2, 3])
        forfeits = (rng.randrange(4),) if rng.random() < 0.1 else ()
        games.append(result(i, seats, scores, winner, forfeits))
    # Finishing roughly in order, with some games ahead of their turn.
    arrival = sorted(games, key=lambda g: g.index + rng.uniform(0, 6))
    projector = Projector(redis_client, shipped())
    for g in arrival:
        body = {"index": g.index, "game_id": g.game_id, "bots": list(g.bots),
                "scores": list(g.scores), "winner": g.winner, "forfeits": list(g.forfeits)}
        await redis_client.hset(results_key("t-inc-1"), str(g.index), json.dumps(body))
        await projector.update_standings("t-inc-1")
        got = json.loads(await redis_client.get(standings_key("t-inc-1")))
        so_far = [x for x in games if x in arrival[: arrival.index(g) + 1]]
        expected = [s.as_dict() | {"history": [list(h) for h in s.history]} | NONE_REFUSED
                    for s in standings(so_far)]
        assert got == {"games": len(so_far), "standings": expected}
