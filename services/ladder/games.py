"""Ladder games in Redis: a pod written down by the matchmaker (`pending`, queued for the
gateways on keys.PODS), made a game by a gateway (`live`), seen over by the matchmaker
(`finished`). The record of each is one key; the indexes are sorted sets by time."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

import msgspec
from redis.asyncio import Redis

from services.ladder.keys import (
    BOT_GAMES_KEPT,
    FINISHED,
    FINISHED_KEPT,
    GAMES,
    LIVE,
    NEWS,
    NEWS_KEPT,
    PODS,
    bot_games_key,
    game_key,
)
from services.ladder.records import GameStatus, LadderGame, decode_game
from services.ladder.watch import change


def ids(raw: Iterable[Any]) -> list[str]:
    return [r.decode() if isinstance(r, bytes) else str(r) for r in raw]


class Games:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis

    async def add(self, games: list[LadderGame]) -> None:
        """Write down pods (their records, the indexes) and queue them for the gateways. The
        record first: a gateway that reads the queue finds it. A duplicate set's seed is not
        here: the gateway that creates its first game draws it (ladder_starter.py)."""
        pipe = self.redis.pipeline(transaction=False)
        for game in games:
            created = int(game.created_at * 1000)
            pipe.set(game_key(game.id), msgspec.json.encode(game))
            pipe.zadd(GAMES, {game.id: created})
            pipe.zadd(LIVE, {game.id: created})
            for bot in game.bots:
                pipe.zadd(bot_games_key(bot), {game.id: created})
                pipe.zremrangebyrank(bot_games_key(bot), 0, -BOT_GAMES_KEPT - 1)
        await pipe.execute()
        await self.queue([g.id for g in games])

    async def queue(self, game_ids: list[str]) -> None:
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.xadd(PODS, {"game": game_id}, maxlen=NEWS_KEPT, approximate=True)
        await pipe.execute()

    async def get(self, game_id: str) -> LadderGame | None:
        raw = await self.redis.get(game_key(game_id))
        return None if raw is None else decode_game(raw)

    async def many(self, game_ids: list[str]) -> list[LadderGame]:
        if not game_ids:
            return []
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.get(game_key(game_id))
        return [decode_game(raw) for raw in await pipe.execute() if raw is not None]

    async def mark(self, game_id: str, status: GameStatus, winner: int | None = None) -> \
            LadderGame | None:
        """Move a game on (never back: a finished game stays finished); the record now."""
        order = {"pending": 0, "live": 1, "finished": 2, "void": 2}

        def move(g: LadderGame) -> LadderGame:
            if order[status] > order[g.status]:
                g.status = status
                if status == "live":
                    g.started_at = time.time()
                elif status == "finished":
                    g.finished_at, g.winner = time.time(), winner
            return g

        return await change(self.redis, game_key(game_id), LadderGame, move,
                            missing=lambda: None)

    async def close(self, game: LadderGame) -> None:
        """A finished (or void) game leaves the live index; its players hear of it."""
        stamp = int((game.finished_at or time.time()) * 1000)
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrem(LIVE, game.id)
        if game.status == "finished":
            pipe.zadd(FINISHED, {game.id: stamp})
            pipe.zremrangebyrank(FINISHED, 0, -FINISHED_KEPT - 1)
        pipe.xadd(NEWS, {"kind": "finish", "game": game.id}, maxlen=NEWS_KEPT, approximate=True)
        await pipe.execute()

    async def live(self) -> list[LadderGame]:
        return await self.many(ids(await self.redis.zrange(LIVE, 0, -1)))

    async def finished(self, count: int) -> list[LadderGame]:
        return await self.many(ids(await self.redis.zrevrange(FINISHED, 0, count - 1)))

    async def of_bot(self, bot_id: str, count: int) -> list[LadderGame]:
        return await self.many(ids(await self.redis.zrevrange(bot_games_key(bot_id), 0,
                                                               count - 1)))

    async def created(self) -> int:
        return int(await self.redis.zcard(GAMES))
