"""The ladder's ratings as a projection: each finished ladder game's result (keys.RESULTS),
and the boards rated from them (keys.BOARDS: "overall" and one per rule set).

Everything comes from the log and the game's meta: a ladder game is one whose id the ladder
issues and whose every seat the ladder controls; its bots are its seats' names, its rule set
its `GameCreated` modules, its place in the order of rating the `at` of its `GameFinished`.
`hexlog projections rebuild` therefore gives the same boards (ratings.py rates in that order
whatever order the games are learned of in). Several projectors may run: one that finds
results it has not rated (another projector's) reads them before it writes.
"""

from __future__ import annotations

import json
from typing import Any, cast

from events.codec import codec
from events.events import GameCreated
from services.ladder.config import ruleset_key
from services.ladder.keys import BOARDS, CONTROLLER, RESULTS, is_ladder_game
from services.ladder.ratings import Board, LadderResult
from services.projections.projector import Projector
from services.protocol import DATA
from services.store.keys import game_keys

OVERALL = "overall"


def encode_result(r: LadderResult) -> str:
    return json.dumps({"game_id": r.game_id, "finished_at": r.finished_at,
                       "ruleset": r.ruleset, "bots": list(r.bots), "scores": list(r.scores),
                       "winner": r.winner})


def decode_result(raw: bytes | str) -> LadderResult:
    d = json.loads(raw)
    return LadderResult(game_id=d["game_id"], finished_at=d["finished_at"],
                        ruleset=d["ruleset"], bots=tuple(d["bots"]),
                        scores=tuple(d["scores"]), winner=d["winner"])


async def result_of(projector: Projector, summary: dict[str, str | int],
                    game_id: str) -> LadderResult | None:
    """The result of a finished ladder game, or None for a game that is not one."""
    if not is_ladder_game(game_id):
        return None
    controllers = json.loads(str(summary.get("controllers") or "[]"))
    if not controllers or any(c != CONTROLLER for c in controllers):
        return None
    ev = game_keys(game_id).ev
    first = cast(list[Any], await projector.redis.xrange(ev, "-", "+", count=1))
    last = cast(list[Any], await projector.redis.xrevrange(ev, "+", "-", count=1))
    if not first or not last:
        return None
    created = codec().decode_event_envelope(first[0][1][DATA.encode()]).event
    finished = codec().decode_event_envelope(last[0][1][DATA.encode()])
    if not isinstance(created, GameCreated):
        return None
    winner = int(summary["winner"])
    return LadderResult(game_id=game_id, finished_at=finished.at,
                        ruleset=ruleset_key(created.modules), bots=tuple(created.names),
                        scores=tuple(json.loads(str(summary["scores"]))),
                        winner=None if winner < 0 else winner)


class LadderRatings:
    """The boards, kept between games (see ratings.Board)."""

    def __init__(self) -> None:
        self.boards: dict[str, Board] = {}
        self.known: set[str] = set()

    async def finished(self, projector: Projector, summary: dict[str, str | int],
                       game_id: str) -> None:
        result = await result_of(projector, summary, game_id)
        if result is None:
            return
        redis = projector.redis
        await redis.hset(RESULTS, game_id, encode_result(result))
        if not self.known:  # this process's first: every result stored so far, in order
            await self.write(projector, await self.catch_up(projector))
            return
        touched = self.add(result)
        if int(await redis.hlen(RESULTS)) > len(self.known):  # another projector's
            touched |= await self.catch_up(projector)
        await self.write(projector, touched)

    async def refresh(self, projector: Projector, scope: str) -> None:
        """Rate every stored result again (`scope` "ladder"; a tournament's is not ours)."""
        if scope != "ladder":
            return
        self.boards, self.known = {}, set()
        await self.write(projector, await self.catch_up(projector))

    def add(self, result: LadderResult) -> set[str]:
        self.known.add(result.game_id)
        for name in (OVERALL, result.ruleset):
            self.boards.setdefault(name, Board()).add(result)
        return {OVERALL, result.ruleset}

    async def catch_up(self, projector: Projector) -> set[str]:
        raw = cast(dict[Any, Any], await projector.redis.hgetall(RESULTS))
        missing = sorted((decode_result(v) for k, v in raw.items()
                          if (k.decode() if isinstance(k, bytes) else k) not in self.known),
                         key=lambda r: r.order)
        touched: set[str] = set()
        for result in missing:
            touched |= self.add(result)
        return touched

    async def write(self, projector: Projector, boards: set[str]) -> None:
        if boards:
            await projector.redis.hset(BOARDS, mapping={
                name: json.dumps(self.boards[name].summary()) for name in sorted(boards)})
