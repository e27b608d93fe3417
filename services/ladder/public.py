"""What the ladder's public pages show (`GET /v1/ladder`, `/ladder.html`, a bot's page, a
game's): the boards of the projection joined with the bots' records, their readiness and when
they were last seen, and the games live and finished. Nothing secret: no token hash, no seed,
no address."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from typing import Any, cast

from redis.asyncio import Redis

from services.ladder.config import LadderConfig
from services.ladder.games import Games
from services.ladder.keys import BOARDS, BOTS, GAMES, READY, RESULTS, SEEN, name_key
from services.ladder.records import BotRecord, LadderGame
from services.ladder.registry import Registry

OVERALL = "overall"
LISTED_GAMES = 50


def text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def links(game_id: str) -> dict[str, str]:
    base = f"/v1/ladder/games/{game_id}"
    return {"json": base, "live": f"{base}/live.html", "replay": f"{base}/replay.html",
            "stream": f"{base}/stream"}


class Public:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self.registry = Registry(redis)
        self.games = Games(redis)

    async def boards(self) -> dict[str, dict[str, Any]]:
        raw = cast(dict[Any, Any], await self.redis.hgetall(BOARDS))
        return {text(k): json.loads(v) for k, v in raw.items()}

    async def standing(self, names: Iterable[str]) -> dict[str, dict[str, Any]]:
        """Per bot name: its id, owner, status and when it was last seen."""
        names = sorted(set(names))
        if not names:
            return {}
        pipe = self.redis.pipeline(transaction=False)
        for name in names:
            pipe.get(name_key(name))
        by_name = {n: text(i) for n, i in zip(names, await pipe.execute(), strict=True)
                   if i is not None}
        return await self.about(await self.registry.bots(by_name.values()), key="name")

    async def about(self, records: dict[str, BotRecord], key: str = "id",
                    live: list[LadderGame] | None = None) -> dict[str, dict[str, Any]]:
        ids = list(records)
        if not ids:
            return {}
        pipe = self.redis.pipeline(transaction=False)
        pipe.zmscore(SEEN, ids)
        pipe.zmscore(READY, ids)
        seen, ready = await pipe.execute()
        playing: dict[str, int] = {}
        for game in live if live is not None else await self.games.live():
            for bot in game.bots:
                playing[bot] = playing.get(bot, 0) + (game.status == "live")
        out: dict[str, dict[str, Any]] = {}
        for i, bot_id in enumerate(ids):
            record = records[bot_id]
            status = ("revoked" if record.status == "revoked" else "absent" if record.absent
                      else "playing" if playing.get(bot_id) else
                      "ready" if ready[i] is not None else "idle")
            out[record.name if key == "name" else bot_id] = {
                "id": record.id, "name": record.name, "owner": record.owner, "status": status,
                "last_seen": None if seen[i] is None else float(seen[i]) / 1000,
                "playing": playing.get(bot_id, 0)}
        return out

    def rows(self, board: dict[str, Any], about: dict[str, dict[str, Any]],
             config: LadderConfig) -> list[dict[str, Any]]:
        out = []
        for row in board.get("rows", []):
            who = about.get(row["bot"], {"id": None, "name": row["bot"], "owner": "",
                                         "status": "unknown", "last_seen": None})
            out.append({**row, **{k: who[k] for k in ("id", "owner", "status", "last_seen")},
                        "provisional": row["games"] < config.provisional_games})
        return out

    async def overview(self, config: LadderConfig, matchmaker: bool) -> dict[str, Any]:
        boards = await self.boards()
        about = await self.standing(row["bot"] for b in boards.values() for row in b["rows"])
        live = await self.games.live()
        finished = await self.games.finished(LISTED_GAMES)
        return {
            "ladder": config.public() | {"matchmaker": matchmaker,
                                         "bots": int(await self.redis.zcard(BOTS)),
                                         "games": int(await self.redis.zcard(GAMES))},
            "boards": {name: {"games": b["games"], "rows": self.rows(b, about, config)}
                       for name, b in sorted(boards.items(),
                                             key=lambda kv: (kv[0] != OVERALL, kv[0]))},
            "live": [await self.summary(g) for g in live if g.status == "live"],
            "recent": [await self.summary(g) for g in finished],
            "at": time.time(),
        }

    async def bot(self, bot_id: str, config: LadderConfig) -> dict[str, Any] | None:
        record = await self.registry.bot(bot_id)
        if record is None:
            return None
        boards = await self.boards()
        mine = {name: row for name, b in boards.items() for row in b["rows"]
                if row["bot"] == record.name}
        games = await self.games.of_bot(bot_id, LISTED_GAMES)
        about = (await self.about({bot_id: record}))[bot_id]
        return {
            "bot": {**public_bot(record), **about},
            "boards": {name: {**row, "provisional": row["games"] < config.provisional_games}
                       for name, row in sorted(mine.items(),
                                               key=lambda kv: (kv[0] != OVERALL, kv[0]))},
            "games": [await self.summary(g) for g in games if g.status != "void"],
        }

    async def summary(self, game: LadderGame) -> dict[str, Any]:
        result = None
        if game.status == "finished":
            raw = await self.redis.hget(RESULTS, game.id)
            result = None if raw is None else json.loads(raw)
        return {
            "id": game.id, "ruleset": game.ruleset, "status": game.status,
            "seats": [{"seat": i, "id": b, "name": n}
                      for i, (b, n) in enumerate(zip(game.bots, game.names, strict=True))],
            "created_at": game.created_at, "started_at": game.started_at,
            "finished_at": game.finished_at, "winner": game.winner,
            "scores": None if result is None else result["scores"],
            "duplicate_set": game.set_id or None, "links": links(game.id),
        }


def public_bot(record: BotRecord) -> dict[str, Any]:
    return {"id": record.id, "name": record.name, "owner": record.owner,
            "rulesets": list(record.rulesets), "created_at": record.created_at,
            "status": record.status, "absent": record.absent}
