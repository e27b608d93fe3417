"""Projections: game summaries and tournament standings, kept in Redis from the feeds.

Each partition feed has a consumer group `projections`; an entry names a game and the
versions it committed. Applying is idempotent by version (a summary stores the version it
has seen, and an entry at or below it is skipped), so redelivery after a crash is harmless.
Tournament standings are recomputed from the set of finished results in schedule order, so
they do not depend on the order games finished in, and `rebuild` from zero gives the same
keys as the live projection.

Keys: `hexlog:proj:game:<id>` (hash), `hexlog:proj:t:<tid>:results` (hash index → result
JSON), `hexlog:proj:t:<tid>:standings` (JSON list, best first), `hexlog:proj:t:<tid>:games`
(hash index → game id).
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any, cast

import structlog
from redis.asyncio import Redis
from redis.exceptions import ResponseError

from events.codec import codec
from events.events import GameCreated, GameFinished, SeatForfeited
from services.rules.engine import evolve, initial_state, score
from services.rules.protocol import beat, leave, stop_on_sigterm
from services.store import EventStore
from services.store.keys import PARTITIONS, PREFIX, feed_key
from services.store.streams import read_group
from services.tournament.ratings import GameResult, standings

log = structlog.get_logger("hexlog.projections")
GROUP = "projections"


def game_key(game_id: str) -> str:
    return f"{PREFIX}:proj:game:{game_id}"


def results_key(tid: str) -> str:
    return f"{PREFIX}:proj:t:{tid}:results"


def standings_key(tid: str) -> str:
    return f"{PREFIX}:proj:t:{tid}:standings"


class Projector:
    def __init__(self, redis: Redis, consumer: str = "projector") -> None:
        self.redis = redis
        self.store = EventStore(redis)
        self.consumer = consumer
        self.codec = codec()

    async def prepare(self) -> None:
        for p in range(PARTITIONS):
            try:
                await self.redis.xgroup_create(feed_key(p), GROUP, id="0", mkstream=True)
            except ResponseError as exc:
                if "BUSYGROUP" not in str(exc):
                    raise

    async def run(self, stop: asyncio.Event | None = None, block_ms: int = 200) -> None:
        await self.prepare()
        streams = {feed_key(p): ">" for p in range(PARTITIONS)}
        last_beat = 0.0
        while stop is None or not stop.is_set():
            if time.monotonic() - last_beat > 1.0:
                last_beat = time.monotonic()
                await beat(self.redis, "projections", self.consumer)
            for stream, entries in await read_group(self.redis, GROUP, self.consumer, streams,
                                                    count=200, block=block_ms):
                latest: dict[str, int] = {}
                for _, fields in entries:
                    game = fields[b"game"].decode()
                    latest[game] = max(latest.get(game, 0), int(fields[b"to"]))
                for game, to in latest.items():
                    await self.apply(game, to)
                await self.redis.xack(stream, GROUP, *[e[0] for e in entries])

    async def apply(self, game_id: str, upto: int) -> None:
        """Bring the summary of `game_id` up to version `upto` (idempotent)."""
        key = game_key(game_id)
        seen = int(await self.redis.hget(key, "version") or 0)
        if seen >= upto:
            return
        meta = await self.store.meta(game_id) or {}
        events = [self.codec.decode_event_envelope(b).event for _, b in await self.store.read(game_id, 0)]
        if not events or not isinstance(events[0], GameCreated):
            return
        created = events[0]
        finished = next((e for e in events if isinstance(e, GameFinished)), None)
        summary: dict[str, str | int] = {
            "version": len(events),
            "status": "finished" if finished else "live",
            "ruleset": created.ruleset,
            "modules": json.dumps([m.name for m in created.modules]),
            "names": json.dumps(list(created.names)),
            "controllers": meta.get("controllers", "[]"),
            "tournament": meta.get("tournament", ""),
            "tournament_index": meta.get("tournament_index", "-1"),
        }
        if finished is not None:
            state = initial_state(created)
            for e in events[1:]:
                evolve(state, e)
            forfeits = sorted({e.seat for e in events if isinstance(e, SeatForfeited)})
            summary.update(
                winner=-1 if finished.winner is None else finished.winner,
                scores=json.dumps(list(score(state))),
                turns=state.turn,
                reason=finished.reason,
                forfeits=json.dumps(forfeits),
            )
        await self.redis.hset(key, mapping=cast(Any, summary))
        if finished is not None and summary["tournament"]:
            await self.record_result(summary, game_id)

    async def record_result(self, summary: dict[str, str | int], game_id: str) -> None:
        tid = str(summary["tournament"])
        controllers = json.loads(str(summary["controllers"]))
        result = {
            "index": int(summary["tournament_index"]),
            "game_id": game_id,
            "bots": [c.split(":", 1)[1] if c.startswith("bot:") else c for c in controllers],
            "scores": json.loads(str(summary["scores"])),
            "winner": None if int(summary["winner"]) < 0 else int(summary["winner"]),
            "forfeits": json.loads(str(summary["forfeits"])),
        }
        await self.redis.hset(results_key(tid), str(result["index"]), json.dumps(result))
        await self.update_standings(tid)

    async def update_standings(self, tid: str) -> None:
        raw = await self.redis.hgetall(results_key(tid))
        results = [
            GameResult(
                index=d["index"], game_id=d["game_id"], bots=tuple(d["bots"]),
                scores=tuple(d["scores"]), winner=d["winner"], forfeits=tuple(d["forfeits"]),
            )
            for d in (json.loads(v) for v in raw.values())
        ]
        table = [s.as_dict() | {"history": s.history} for s in standings(results)]
        await self.redis.set(standings_key(tid), json.dumps({"games": len(results), "standings": table}))

    async def rebuild(self) -> int:
        """Drop every projection key and recompute from the logs; returns the games applied."""
        async for key in self.redis.scan_iter(match=f"{PREFIX}:proj:*", count=500):
            await self.redis.delete(key)
        await self.prepare()
        games = await self.store.games()
        for game_id in games:
            await self.apply(game_id, await self.store.version(game_id))
        # What was just applied need not be delivered again: move the groups to the end.
        for p in range(PARTITIONS):
            await self.redis.xgroup_setid(feed_key(p), GROUP, id="$")
        return len(games)


def run(url: str) -> None:
    async def main() -> None:
        redis = Redis.from_url(url)
        projector = Projector(redis)
        try:
            await projector.run(stop_on_sigterm())
        finally:
            await leave(redis, "projections", projector.consumer)
            await redis.aclose()

    asyncio.run(main())
