"""Running a tournament through the real service: create each scheduled game, wait for it,
forfeit bots that disconnect for good, and read the standings from the projection.

A tournament is recorded in Redis (`hexlog:t:<tid>:spec`, `...:games`), and its games have
ids derived from the tournament id and their schedule index, with idempotent creation, so an
interrupted run resumes (`resume=True`) without replaying what finished: finished games are
skipped, games in progress are waited for, missing ones are created.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import msgspec
from redis.asyncio import Redis

from events.events import ModuleSpec
from events.requests import CreateGame
from services.client import Client, ServiceError
from services.projections.projector import standings_key
from services.rules.protocol import is_alive, pool_key
from services.runtime import processes
from services.store.keys import ORGANISER, PREFIX, game_keys
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
    # The tournament seed. "" draws a secret one from the OS when the run starts: nobody can
    # predict a die. A seed given by the organiser makes the games reproducible, and then it
    # must stay secret until the games end (anyone who guesses it can predict every die).
    seed: str = ""
    deadline_ms: int = 10_000
    turn_limit: int = 1000
    forfeit_after_s: float = 30.0
    pod: list[str] = field(default_factory=list)  # one lineup for every set (schedule.schedule)

    def digest(self) -> str:
        # Everything that decides the games (a drawn seed only as "drawn": the same command
        # line must find its own interrupted run); not how fast or in what order they run. A
        # given seed enters only through a keyed hash, so the digest (public in game ids)
        # cannot be used to test guesses of it without the seed itself.
        seed = hmac_hex(self.seed, "digest") if self.seed else "drawn"
        fields = asdict(self) | {"forfeit_after_s": None, "seed": seed}
        if not self.pod:
            del fields["pod"]  # digests of tournaments without a pod stay what they were
        body = json.dumps(fields, sort_keys=True)
        return hashlib.sha256(body.encode()).hexdigest()[:10]


def hmac_hex(key: str, message: str) -> str:
    import hmac

    return hmac.new(key.encode(), message.encode(), hashlib.sha256).hexdigest()


@dataclass
class Progress:
    done: int  # games finished, counting those a resumed run found finished
    total: int
    started: float  # time.monotonic() when this run started
    leader: dict[str, Any] | None  # the projection's first row (best conservative rating)
    resumed: int = 0  # games already finished when this run started (not played by it)

    @property
    def rate(self) -> float:
        """Games per second played by this run."""
        elapsed = time.monotonic() - self.started
        return (self.done - self.resumed) / elapsed if elapsed > 0 else 0.0

    @property
    def eta(self) -> float | None:
        """Seconds to the end at this run's rate (None before its first game)."""
        rate = self.rate
        return (self.total - self.done) / rate if rate > 0 else None


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


async def wait_for_bots(redis: Redis, bots: list[str], timeout: float = 30.0) -> None:
    """Until a worker of each bot is alive (bot workers this command just started)."""
    deadline = time.monotonic() + timeout
    for bot in bots:
        while not await bot_alive(redis, bot):
            if time.monotonic() > deadline:
                raise ServiceError(f"no worker of bot {bot!r} started (its log is in "
                                   f"{processes.log_dir()})")
            await asyncio.sleep(0.05)


RULES_GONE_S = 30.0  # the rules service missing this long fails the run (games cannot move)
STALL_MIN_S = 60.0  # a game that does not move for this long (or 5 deadlines) fails the run
STALL_DEADLINES = 5


class Stall:
    """A game's version must move: the deadline keeper plays a silent seat's default move, so
    a game that stands still for several deadlines is stuck, and the run says which."""

    def __init__(self, game_id: str, limit_s: float) -> None:
        self.game_id = game_id
        self.limit_s = limit_s
        self.version = -1
        self.since = time.monotonic()

    def check(self, version: int) -> None:
        now = time.monotonic()
        if version != self.version:
            self.version, self.since = version, now
        elif now - self.since > self.limit_s:
            raise ServiceError(f"game {self.game_id} has not moved for {self.limit_s:.0f}s "
                               f"(version {version}); the tournament stopped (continue it with "
                               "--resume once the rules service is healthy)")


class TournamentRunner:
    def __init__(self, redis: Redis, spec: Spec, concurrency: int = 8) -> None:
        self.redis = redis
        self.client = Client(redis)
        self.spec = spec
        self.concurrency = concurrency
        # The schedule's shape (how many games, which pods) does not depend on the seed; the
        # seeds do, and they are known once the run starts.
        self.games: list[ScheduledGame] = schedule(spec.bots, spec.games, spec.seats, spec.seed,
                                                    tuple(spec.pod))
        self.tid = ""
        self.seed = spec.seed  # the seed the games are played on (drawn at start if not given)
        self.referees: dict[str, str] = {}  # game id -> referee credential (for forfeits)
        self.forfeited: set[str] = set()
        self.last_seen: dict[str, float] = {}
        self.rules_seen = time.monotonic()

    async def start(self, resume: bool) -> str:
        digest = self.spec.digest()
        runs = runs_key(digest)
        if resume:
            latest = await self.redis.lindex(runs, -1)
            if latest is None:
                raise TournamentError(
                    "there is no earlier run of this tournament to resume (a tournament is "
                    "the same when its bots, games, seats, rules, seed, deadline and turn "
                    "limit are)")
            self.tid = latest.decode() if isinstance(latest, bytes) else str(latest)
            stored = await self.redis.get(spec_key(self.tid))
            if stored is not None:
                self.seed = json.loads(stored)["seed"]
        else:
            n = await self.redis.rpush(runs, "")
            self.tid = f"t-{digest}-{n}"
            await self.redis.lset(runs, n - 1, self.tid)
            self.seed = self.spec.seed or secrets.token_hex(32)
            # Organisers' keys: no bot, projection or spectator user may read them.
            await self.redis.set(spec_key(self.tid), json.dumps(asdict(self.spec) | {"seed": self.seed}))
        self.games = schedule(self.spec.bots, self.spec.games, self.spec.seats, self.seed,
                              tuple(self.spec.pod))
        return self.tid

    async def unfinished_run(self) -> str | None:
        """The latest earlier run of this same tournament, if it did not finish."""
        latest = await self.redis.lindex(runs_key(self.spec.digest()), -1)
        if latest is None:
            return None
        tid = latest.decode() if isinstance(latest, bytes) else str(latest)
        raw = await self.redis.get(standings_key(tid))
        counted = json.loads(raw)["games"] if raw is not None else 0
        return tid if counted < len(self.games) else None

    async def run(self, on_progress: Callable[[Progress], None] | None = None) -> dict[str, Any]:
        started = time.monotonic()
        sem = asyncio.Semaphore(self.concurrency)
        finished = await self.finished_games()
        progress = Progress(len(finished), len(self.games), started, await self.leader(),
                            resumed=len(finished))
        if on_progress is not None:
            on_progress(progress)

        async def one(game: ScheduledGame) -> None:
            async with sem:
                await self.play(game)
            leader = await self.leader() if on_progress is not None else None
            progress.done += 1  # no await from here to the report: counts never go back
            if on_progress is not None:
                progress.leader = leader
                on_progress(progress)

        watchdog = asyncio.create_task(self.watch_bots())
        games = [asyncio.create_task(one(g)) for g in self.games if g.index not in finished]
        everything = asyncio.gather(*games)
        try:
            # The first failure of a game or of the watchdog (the rules service gone) ends the
            # run, and the other games stop with it (a resumed run picks them up).
            either: set[asyncio.Future[Any]] = {everything, watchdog}
            await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
            if watchdog.done():
                watchdog.result()
            await everything
        finally:
            # Cancel until they are done: on Python 3.11 asyncio.wait_for (inside redis-py) can
            # swallow a cancellation, and awaiting a task that lost it would hang the command.
            while running := [t for t in (*games, watchdog) if not t.done()]:
                for task in running:
                    task.cancel()
                await asyncio.wait(running, timeout=0.1)
            everything.cancel()
            await asyncio.gather(everything, return_exceptions=True)
        return await self.wait_for_standings()

    async def finished_games(self) -> set[int]:
        """Indexes of the scheduled games that already finished (a resumed run skips them)."""
        pipe = self.redis.pipeline(transaction=False)
        for g in self.games:
            pipe.hget(game_keys(game_id_of(self.tid, g.index)).meta, "status")
        statuses = await pipe.execute()
        return {g.index for g, st in zip(self.games, statuses, strict=True) if st == b"finished"}

    async def play(self, game: ScheduledGame) -> None:
        game_id = game_id_of(self.tid, game.index)
        status = await self.redis.hget(game_keys(game_id).meta, "status")
        if status == b"finished":
            return
        if status is None:
            modules = tuple(msgspec.convert(m, ModuleSpec) for m in self.spec.modules)
            creds = await self.client.create_game(CreateGame(
                command_id=f"create:{game_id}", game_id=game_id, seats=self.spec.seats,
                ruleset=self.spec.ruleset, modules=modules,
                names=tuple(f"{b}@{i}" for i, b in enumerate(game.seats)),
                controllers=tuple(f"bot:{b}" for b in game.seats),
                seed=game.seed.hex(), turn_limit=self.spec.turn_limit,
                deadline_ms=self.spec.deadline_ms, tournament=self.tid,
                tournament_index=game.index,
            ))
            self.referees[game_id] = creds.referee
        stall = Stall(game_id, max(STALL_MIN_S, STALL_DEADLINES * self.spec.deadline_ms / 1000))
        while True:
            status, version = await self.redis.hmget(game_keys(game_id).meta, ["status", "version"])
            if status == b"finished":
                return
            stall.check(int(version or 0))
            if await self.forfeit_gone_bots(game_id, game):
                continue
            await asyncio.sleep(0.05)

    async def watch_bots(self) -> None:
        """Remember when each bot's workers were last alive; fail the run when the rules
        service has been gone for RULES_GONE_S (no game could move: better to stop, and resume
        once it is back, than to wait for ever)."""
        while True:
            now = time.monotonic()
            for bot in sorted(set(self.spec.bots)):
                if await bot_alive(self.redis, bot):
                    self.last_seen[bot] = now
                else:
                    self.last_seen.setdefault(bot, now)
            if await self.client.rules_alive():
                self.rules_seen = now
            elif now - self.rules_seen > RULES_GONE_S:
                raise ServiceError(f"no rules service for {RULES_GONE_S:.0f}s; the tournament "
                                   "stopped (continue it with --resume)")
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
                referee = await self.referee(game_id)
                if referee:
                    await self.client.forfeit(game_id, seat, referee, f"bot {bot} disconnected",
                                              command_id=f"forfeit:{game_id}:{seat}")
                    sent = True
        return sent

    async def referee(self, game_id: str) -> str:
        """The referee credential of one of our games (from its creation's outcome after a
        resume); "" if it is no longer known."""
        if game_id not in self.referees:
            outcome = await self.client.store.get_outcome(f"create:{game_id}", game_id,
                                                          scope=ORGANISER)
            self.referees[game_id] = str((outcome or {}).get("referee", ""))
        return self.referees[game_id]

    async def leader(self) -> dict[str, Any] | None:
        raw = await self.redis.get(standings_key(self.tid))
        if raw is None:
            return None
        table = json.loads(raw)["standings"]
        return table[0] if table else None

    async def wait_for_standings(self, timeout: float = 60.0) -> dict[str, Any]:
        """The projection's standings once it has counted every game (the table is read from
        the projection, not recomputed here); fails after `timeout` s without progress."""
        deadline = time.monotonic() + timeout
        counted = -1
        while True:
            raw = await self.redis.get(standings_key(self.tid))
            if raw is not None:
                data = json.loads(raw)
                if data["games"] >= len(self.games):
                    return dict(data, tournament=self.tid, seed=self.seed, pod=list(self.spec.pod),
                                games_ids=[game_id_of(self.tid, g.index) for g in self.games])
                if data["games"] > counted:
                    counted = data["games"]
                    deadline = time.monotonic() + timeout
            if time.monotonic() > deadline:
                raise ServiceError("the projections service has not counted every game; "
                                   "is `hexlog serve projections` running?")
            await asyncio.sleep(0.1)
