"""Running a tournament through the real service: create each scheduled game, wait for it,
forfeit bots that disconnect for good, and read the standings from the projection.

A tournament is recorded in Redis (`hexlog:t:<tid>:spec`, `...:games`), and its games have
ids derived from the tournament id and their schedule index, with idempotent creation, so an
interrupted run resumes (`resume=True`) without replaying what finished: finished games are
skipped, games in progress are waited for, missing ones are created.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import msgspec
from redis.asyncio import Redis

from events.events import ModuleSpec
from events.requests import CreateGame, ForfeitSeat
from services.client import Client, ServiceError
from services.projections.projector import standings_key
from services.rules.protocol import DATA, KIND, is_alive, pool_key
from services.store.keys import PREFIX, commands_key, game_keys, partition
from services.tournament.schedule import ScheduledGame, schedule


class TournamentError(RuntimeError):
    """A tournament that cannot start or resume, with the reason."""


@dataclass
class Spec:
    bots: list[str]
    games: int
    seats: int = 4
    ruleset: str = "base"
    modules: list[dict[str, Any]] = field(default_factory=list)
    seed: str = "hexlog"
    deadline_ms: int = 10_000
    turn_limit: int = 1000
    forfeit_after_s: float = 30.0

    def digest(self) -> str:
        # Everything that decides the games; not how fast or in what order they run.
        body = json.dumps(asdict(self) | {"forfeit_after_s": None}, sort_keys=True)
        return hashlib.sha256(body.encode()).hexdigest()[:10]


@dataclass
class Progress:
    done: int
    total: int
    started: float
    leader: dict[str, Any] | None


def spec_key(tid: str) -> str:
    return f"{PREFIX}:t:{tid}:spec"


def runs_key(digest: str) -> str:
    return f"{PREFIX}:t:runs:{digest}"


def game_id_of(tid: str, index: int) -> str:
    return f"{tid}-{index:05d}"


async def bot_alive(redis: Redis, bot: str) -> bool:
    return await is_alive(redis, f"bots:{bot}")


async def bot_registered(redis: Redis, bot: str) -> bool:
    return bool(await redis.exists(pool_key(f"bot:{bot}")))


class TournamentRunner:
    def __init__(self, redis: Redis, spec: Spec, concurrency: int = 8) -> None:
        self.redis = redis
        self.client = Client(redis)
        self.spec = spec
        self.concurrency = concurrency
        self.games: list[ScheduledGame] = schedule(spec.bots, spec.games, spec.seats, spec.seed)
        self.tid = ""
        self.forfeited: set[str] = set()
        self.last_seen: dict[str, float] = {}

    async def start(self, resume: bool) -> str:
        digest = self.spec.digest()
        runs = runs_key(digest)
        if resume:
            latest = await self.redis.lindex(runs, -1)
            if latest is None:
                raise TournamentError("there is no earlier run of this tournament to resume")
            self.tid = latest.decode() if isinstance(latest, bytes) else str(latest)
        else:
            n = await self.redis.rpush(runs, "")
            self.tid = f"t-{digest}-{n}"
            await self.redis.lset(runs, n - 1, self.tid)
            await self.redis.set(spec_key(self.tid), json.dumps(asdict(self.spec)))
        return self.tid

    async def run(self, on_progress: Callable[[Progress], None] | None = None) -> dict[str, Any]:
        started = time.monotonic()
        sem = asyncio.Semaphore(self.concurrency)
        done = 0

        async def one(game: ScheduledGame) -> None:
            nonlocal done
            async with sem:
                await self.play(game)
            done += 1
            if on_progress is not None:
                on_progress(Progress(done, len(self.games), started, await self.leader()))

        watchdog = asyncio.create_task(self.watch_bots())
        try:
            await asyncio.gather(*(one(g) for g in self.games))
        finally:
            watchdog.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watchdog
        return await self.wait_for_standings()

    async def play(self, game: ScheduledGame) -> None:
        game_id = game_id_of(self.tid, game.index)
        status = await self.redis.hget(game_keys(game_id).meta, "status")
        if status == b"finished":
            return
        if status is None:
            modules = tuple(msgspec.convert(m, ModuleSpec) for m in self.spec.modules)
            await self.client.create_game(CreateGame(
                command_id=f"create:{game_id}", game_id=game_id, seats=self.spec.seats,
                ruleset=self.spec.ruleset, modules=modules,
                names=tuple(f"{b}@{i}" for i, b in enumerate(game.seats)),
                controllers=tuple(f"bot:{b}" for b in game.seats),
                seed=game.seed.hex(), turn_limit=self.spec.turn_limit,
                deadline_ms=self.spec.deadline_ms, tournament=self.tid,
                tournament_index=game.index,
            ))
        while await self.redis.hget(game_keys(game_id).meta, "status") != b"finished":
            if await self.forfeit_gone_bots(game_id, game):
                continue
            await asyncio.sleep(0.05)

    async def watch_bots(self) -> None:
        """Remember when each bot's workers were last alive."""
        while True:
            now = time.monotonic()
            for bot in set(self.spec.bots):
                if await bot_alive(self.redis, bot):
                    self.last_seen[bot] = now
                else:
                    self.last_seen.setdefault(bot, now)
            await asyncio.sleep(0.5)

    async def forfeit_gone_bots(self, game_id: str, game: ScheduledGame) -> bool:
        """A bot whose workers have been gone longer than `forfeit_after_s` forfeits its seats
        (the rules service then plays their defaults at once); True if it sent any."""
        now = time.monotonic()
        sent = False
        for seat, bot in enumerate(game.seats):
            seen = self.last_seen.get(bot, now)
            key = f"{game_id}|{seat}"
            if now - seen > self.spec.forfeit_after_s and key not in self.forfeited:
                self.forfeited.add(key)
                req = ForfeitSeat(command_id=f"forfeit:{game_id}:{seat}", game_id=game_id, seat=seat,
                                  reason=f"bot {bot} disconnected")
                await self.redis.xadd(commands_key(partition(game_id)),
                                      {DATA: msgspec.json.encode(req), KIND: "forfeit"})
                sent = True
        return sent

    async def leader(self) -> dict[str, Any] | None:
        raw = await self.redis.get(standings_key(self.tid))
        if raw is None:
            return None
        table = json.loads(raw)["standings"]
        return table[0] if table else None

    async def wait_for_standings(self, timeout: float = 60.0) -> dict[str, Any]:
        """The projection's standings once it has counted every game (the table is read from
        the projection, not recomputed here)."""
        deadline = time.monotonic() + timeout
        while True:
            raw = await self.redis.get(standings_key(self.tid))
            if raw is not None:
                data = json.loads(raw)
                if data["games"] >= len(self.games):
                    return dict(data, tournament=self.tid,
                                games_ids=[game_id_of(self.tid, g.index) for g in self.games])
            if time.monotonic() > deadline:
                raise ServiceError("the projections service has not counted every game; "
                                   "is `hexlog serve projections` running?")
            await asyncio.sleep(0.1)
