"""The tournament's projection: each finished tournament game's result, and the standings
recomputed from them (hexlog's services hand it to their projector:
services/cli/projections.py `shipped()`)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from services.projections.projector import (
    Projector,
    results_key,
    standings_key,
)
from services.rules.refusals import refused_by_seat
from services.tournament.ratings import GameResult, Rater


class Standings:
    """Results per tournament and its ratings, kept between calls (see `refresh`)."""

    def __init__(self) -> None:
        self.raters: dict[str, tuple[Rater, list[GameResult]]] = {}

    async def finished(self, projector: Projector, summary: dict[str, str | int],
                       game_id: str) -> None:
        if not summary["tournament"]:
            return
        tid = str(summary["tournament"])
        controllers = json.loads(str(summary["controllers"]))
        result = {
            "index": int(summary["tournament_index"]),
            "game_id": game_id,
            "bots": [c.split(":", 1)[1] if c.startswith("bot:") else c for c in controllers],
            "scores": json.loads(str(summary["scores"])),
            "winner": None if int(summary["winner"]) < 0 else int(summary["winner"]),
            "forfeits": json.loads(str(summary["forfeits"])),
            # Per seat: answers refused and the first reason (services/rules/refusals.py).
            "refused": await refused_by_seat(projector.redis, game_id, len(controllers)),
        }
        await projector.redis.hset(results_key(tid), str(result["index"]), json.dumps(result))
        await self.refresh(projector, tid)

    async def refresh(self, projector: Projector, tid: str) -> None:
        """Rate the tournament's results in schedule order. The ratings of the results that
        arrived as an unbroken run from index 0 are kept between calls (results never change),
        so a finished game costs one rating update plus those of the few games that finished
        ahead of their turn; the table is the same as `standings(results)` from scratch."""
        raw = await projector.redis.hgetall(results_key(tid))
        results = sorted(
            (GameResult(
                index=d["index"], game_id=d["game_id"], bots=tuple(d["bots"]),
                scores=tuple(d["scores"]), winner=d["winner"], forfeits=tuple(d["forfeits"]),
            ) for d in (json.loads(v) for v in raw.values())),
            key=lambda r: r.index,
        )
        rater, rated = self.raters.get(tid, (Rater(), []))
        if results[: len(rated)] != rated:  # not what was rated (a rebuild, another writer)
            rater, rated = Rater(), []
        done = len(rated)
        while done < len(results) and results[done].index == done:
            rater.rate(results[done])
            done += 1
        self.raters[tid] = (rater, results[:done])
        if done < len(results):
            rater = rater.copy()
            for r in results[done:]:
                rater.rate(r)
        refused = refusals_by_bot(json.loads(v) for v in raw.values())
        table = [s.as_dict() | {"history": s.history} | refused.get(s.bot, NONE_REFUSED)
                 for s in rater.standings()]
        await projector.redis.set(standings_key(tid), json.dumps({"games": len(results), "standings": table}))


NONE_REFUSED = {"refused": 0, "first_refusal": ""}


def refusals_by_bot(results: Iterable[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per bot, over every game in schedule order: how many of its answers were refused,
    and the first reason (a bot whose every answer is refused must show it, not just lose)."""
    out: dict[str, dict[str, Any]] = {}
    for result in sorted(results, key=lambda r: int(r["index"])):
        for bot, (count, first) in zip(result["bots"], result.get("refused") or [], strict=False):
            row = out.setdefault(bot, dict(NONE_REFUSED))
            row["refused"] += count
            row["first_refusal"] = row["first_refusal"] or first
    return out

