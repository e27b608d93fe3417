"""Running a tournament through the real service: create each scheduled game, wait for it,
forfeit bots that disconnect for good, and read the standings from the projection.

A tournament is recorded in Redis (`hexlog:t:<tid>:spec`, `...:games`), and its games have
ids derived from the tournament id and their schedule index, with idempotent creation, so an
interrupted run resumes (`resume=True`) without replaying what finished: finished games are
skipped, games in progress are waited for, missing ones are created.

A rules (or projections) service that dies is waited for, however often: the games cannot move
without it, but whoever runs it (`hexlog up`) starts it again, and nothing is lost meanwhile.
The user is told when it goes, every NOTE_EVERY_S while it stays away and when it is back
(`Away`); only an absence longer than the run's patience (`--wait-for-services`) stops the run.
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
import structlog
from redis.asyncio import Redis

from events.events import ModuleSpec
from events.requests import CreateGame
from services import metrics
from services.client import Client, ServiceError
from services.projections.projector import standings_key
from services.protocol import SERVICE_TTL_S, alive_key, is_alive, pool_key
from services.runtime import processes
from services.store.keys import ORGANISER, PREFIX, game_keys
from services.tasks import cancel_and_wait
from services.tournament.schedule import ScheduledGame, schedule

log = structlog.get_logger("hexlog.tournament")


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


SERVICE_PATIENCE_S = 600.0  # a rules or projections service gone this long stops the run
NOTE_EVERY_S = 10.0  # while a service stays away, the user hears so this often
CREATE_RESEND_S = 5.0  # a create request unanswered this long is sent again
STALL_MIN_S = 60.0  # a game that does not move for this long (or 5 deadlines) fails the run
STALL_DEADLINES = 5


@dataclass(frozen=True)
class Away:
    """For the user: no instance of `service` has kept its heartbeat for `gone_s` seconds, or
    (`back`) one does again after that long."""

    service: str
    gone_s: float
    back: bool = False


Notify = Callable[[Away], None]


def last_beat(ttl_ms: int, now: float) -> float | None:
    """When a service's alive key with `ttl_ms` left (PTTL) was last renewed; None when there
    is no key (every instance gone for SERVICE_TTL_S)."""
    if ttl_ms == -2:
        return None
    if ttl_ms == -1:
        return now  # set without a TTL (by hand, not a heartbeat): taken at its word
    return now - max(0.0, SERVICE_TTL_S - ttl_ms / 1000)


class Presence:
    """Whether any instance of a service keeps its heartbeat, as the run sees it: since when it
    has been there without a break (`alive_since`, None while it is away), and the notices of an
    absence: when it is first seen, every NOTE_EVERY_S while it lasts, and when it ends. An
    absence longer than `limit_s` fails the run (ServiceError, one line)."""

    def __init__(self, service: str, limit_s: float, notify: Notify,
                 now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        self.service = service
        self.limit_s = limit_s
        self.notify = notify
        self.last_beat = now
        self.alive_since: float | None = now
        self.told: float | None = None  # when the current absence was last told

    @property
    def away(self) -> bool:
        return self.alive_since is None

    async def observe(self, redis: Redis) -> None:
        # The beat is dated from before the request and the absence from after the reply, so
        # a slow round trip (a loaded machine) never makes an absence look shorter than it is:
        # an alive key that expired was not renewed for SERVICE_TTL_S.
        sent = time.monotonic()
        ttl_ms = await redis.pttl(alive_key(self.service))
        self.update(last_beat(ttl_ms, sent), time.monotonic())

    def update(self, beat: float | None, now: float) -> None:
        if beat is None:
            self.missing(now)
            return
        if self.alive_since is None:
            self.alive_since = now
            if self.told is not None:
                self.notify(Away(self.service, now - self.last_beat, back=True))
            self.told = None
        self.last_beat = max(self.last_beat, beat)

    def missing(self, now: float) -> None:
        gone = now - self.last_beat
        self.alive_since = None
        if gone > self.limit_s:
            raise ServiceError(f"no {self.service} service for {gone:.0f} s (the limit is "
                               f"{self.limit_s:.0f} s, --wait-for-services); the tournament "
                               "stopped: continue it with --resume once one runs")
        if self.told is None or now - self.told >= NOTE_EVERY_S:
            self.told = now
            self.notify(Away(self.service, gone))


class Stall:
    """A game's version must move: the deadline keeper plays a silent seat's default move, so
    a game that stands still for several deadlines while a rules service runs is stuck, and the
    run says which. Time without a rules service does not count: it is waited out."""

    def __init__(self, game_id: str, limit_s: float, now: float) -> None:
        self.game_id = game_id
        self.limit_s = limit_s
        self.version = -1
        self.since = now

    def check(self, version: int, serving_since: float | None, now: float) -> None:
        """`serving_since`: since when a rules service has been there without a break (None:
        none is, now); `now`: time.monotonic()."""
        if version != self.version:
            self.version, self.since = version, now
        elif serving_since is not None and now - max(self.since, serving_since) > self.limit_s:
            raise ServiceError(f"game {self.game_id} has not moved for {self.limit_s:.0f}s "
                               f"(version {version}); the tournament stopped (continue it with "
                               "--resume once the rules service is healthy)")


def ignore(_: Away) -> None:
    pass


class TournamentRunner:
    def __init__(self, redis: Redis, spec: Spec, concurrency: int = 8,
                 patience_s: float = SERVICE_PATIENCE_S) -> None:
        self.redis = redis
        self.client = Client(redis)
        self.spec = spec
        self.concurrency = concurrency
        self.patience_s = patience_s  # how long a service may be away before the run stops
        # The schedule's shape (how many games, which pods) does not depend on the seed; the
        # seeds do, and they are known once the run starts.
        self.games: list[ScheduledGame] = schedule(spec.bots, spec.games, spec.seats, spec.seed,
                                                    tuple(spec.pod))
        self.tid = ""
        self.seed = spec.seed  # the seed the games are played on (drawn at start if not given)
        # Keys each game's create request with (its credentials come back sealed with it), so
        # that a request sent again, or a resumed run, opens the same outcome. Drawn per run and
        # kept beside the seed, in the organisers' spec key.
        self.reply_secret = ""
        self.referees: dict[str, str] = {}  # game id -> referee credential (for forfeits)
        self.forfeited: set[str] = set()
        self.last_seen: dict[str, float] = {}
        self.rules = Presence("rules", patience_s, ignore)

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
                kept = json.loads(stored)
                self.seed = kept["seed"]
                self.reply_secret = kept.get("reply_secret", "")
            if not self.reply_secret:  # a run recorded before reply keys: one from now on
                self.reply_secret = secrets.token_hex(32)
                await self.store_spec()
        else:
            n = await self.redis.rpush(runs, "")
            self.tid = f"t-{digest}-{n}"
            await self.redis.lset(runs, n - 1, self.tid)
            self.seed = self.spec.seed or secrets.token_hex(32)
            self.reply_secret = secrets.token_hex(32)
            await self.store_spec()
        self.games = schedule(self.spec.bots, self.spec.games, self.spec.seats, self.seed,
                              tuple(self.spec.pod))
        return self.tid

    async def store_spec(self) -> None:
        # Organisers' keys: no bot, projection, gateway or spectator user may read them.
        await self.redis.set(spec_key(self.tid), json.dumps(
            asdict(self.spec) | {"seed": self.seed, "reply_secret": self.reply_secret}))

    async def unfinished_run(self) -> str | None:
        """The latest earlier run of this same tournament, if it did not finish."""
        latest = await self.redis.lindex(runs_key(self.spec.digest()), -1)
        if latest is None:
            return None
        tid = latest.decode() if isinstance(latest, bytes) else str(latest)
        raw = await self.redis.get(standings_key(tid))
        counted = json.loads(raw)["games"] if raw is not None else 0
        return tid if counted < len(self.games) else None

    async def run(self, on_progress: Callable[[Progress], None] | None = None,
                  on_away: Notify = ignore) -> dict[str, Any]:
        """Play every game not finished yet, then the standings. `on_away` hears when a
        service the run needs goes away and comes back (the run waits for it meanwhile)."""
        started = time.monotonic()
        self.rules = Presence("rules", self.patience_s, on_away)
        sem = asyncio.Semaphore(self.concurrency)
        finished = await self.finished_games()
        progress = Progress(len(finished), len(self.games), started, await self.leader(),
                            resumed=len(finished))
        if on_progress is not None:
            on_progress(progress)

        queued = len(self.games) - len(finished)
        metrics.TOURNAMENT_QUEUE.set(queued)

        async def one(game: ScheduledGame) -> None:
            nonlocal queued
            async with sem:
                queued -= 1
                metrics.TOURNAMENT_QUEUE.set(queued)
                await self.play(game)
            metrics.TOURNAMENT_GAMES.inc()
            leader = await self.leader() if on_progress is not None else None
            progress.done += 1  # no await from here to the report: counts never go back
            if on_progress is not None:
                progress.leader = leader
                on_progress(progress)

        watchdog = asyncio.create_task(self.watch_services())
        games = [asyncio.create_task(one(g)) for g in self.games if g.index not in finished]
        everything = asyncio.gather(*games)
        try:
            # The first failure of a game or of the watchdog (a service gone for longer than
            # the patience) ends the run, and the other games stop with it (a resumed run
            # picks them up).
            either: set[asyncio.Future[Any]] = {everything, watchdog}
            await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
            if watchdog.done():
                watchdog.result()
            await everything
        finally:
            await cancel_and_wait([*games, watchdog])
            everything.cancel()
            await asyncio.gather(everything, return_exceptions=True)
        return await self.wait_for_standings(on_away=on_away)

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
            await self.create(game)
        limit = max(STALL_MIN_S, STALL_DEADLINES * self.spec.deadline_ms / 1000)
        stall = Stall(game_id, limit, time.monotonic())
        while True:
            status, version = await self.redis.hmget(game_keys(game_id).meta, ["status", "version"])
            if status == b"finished":
                return
            stall.check(int(version or 0), self.rules.alive_since, time.monotonic())
            if await self.forfeit_gone_bots(game_id, game):
                continue
            await asyncio.sleep(0.05)

    def create_request(self, game: ScheduledGame) -> CreateGame:
        """The one create request of a scheduled game: the same every time it is sent, so the
        service creates the game once (by its command id) and any of its outcomes opens with
        its reply key."""
        game_id = game_id_of(self.tid, game.index)
        return CreateGame(
            command_id=f"create:{game_id}", game_id=game_id, seats=self.spec.seats,
            ruleset=self.spec.ruleset,
            modules=tuple(msgspec.convert(m, ModuleSpec) for m in self.spec.modules),
            names=tuple(f"{b}@{i}" for i, b in enumerate(game.seats)),
            controllers=tuple(f"bot:{b}" for b in game.seats),
            seed=game.seed.hex(), turn_limit=self.spec.turn_limit,
            deadline_ms=self.spec.deadline_ms, tournament=self.tid,
            tournament_index=game.index, reply_key=hmac_hex(self.reply_secret, f"reply:{game_id}"),
        )

    async def create(self, game: ScheduledGame) -> None:
        """Create a scheduled game and keep its referee credential. A request without an
        outcome after CREATE_RESEND_S is sent again once a rules service is there: the one
        that read it may have died holding it, and its successor would claim it only once it
        has been idle a while. Sending it twice is safe: the service creates a game once per
        command id. Fails only when the service refused it, or left it unanswered for the
        run's patience."""
        request = self.create_request(game)
        since = time.monotonic()
        while True:
            await self.rules_back()
            try:
                credentials = await self.client.create_game(request, timeout=CREATE_RESEND_S)
            except ServiceError:
                if await self.redis.hget(game_keys(request.game_id).meta, "status") is not None:
                    break  # an earlier send created it: its outcome is read below
                if await self.client.store.get_outcome(request.command_id, request.game_id,
                                                       scope=ORGANISER) is not None:
                    raise  # refused, and the error says why
                self.check_patience(request, since)
                log.info("create request sent again", game_id=request.game_id)
                continue
            self.referees[request.game_id] = credentials.referee
            return
        self.referees[request.game_id] = await self.referee_of(request)

    def check_patience(self, request: CreateGame, since: float) -> None:
        """Fails the run when the request has gone unanswered for the patience while a rules
        service was there (time without one is the watchdog's to count)."""
        serving = self.rules.alive_since
        if serving is not None and time.monotonic() - max(since, serving) > self.patience_s:
            raise ServiceError(f"game {request.game_id} not created: no answer to its create "
                               f"request in {self.patience_s:.0f} s (--wait-for-services); the "
                               "tournament stopped (continue it with --resume)")

    async def rules_back(self) -> None:
        """Until a rules service keeps its heartbeat (the watchdog says when it goes and comes
        back, and stops the run when it stays away too long)."""
        while self.rules.away:
            await asyncio.sleep(0.1)

    async def watch_services(self) -> None:
        """Remember when each bot's workers were last alive, and whether the rules service is
        there (`self.rules`: the user hears when it goes and comes back; an absence longer than
        the patience fails the run, resumable once it is back)."""
        while True:
            now = time.monotonic()
            for bot in sorted(set(self.spec.bots)):
                if await bot_alive(self.redis, bot):
                    self.last_seen[bot] = now
                else:
                    self.last_seen.setdefault(bot, now)
            await self.rules.observe(self.redis)
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
                referee = await self.referee(game)
                if referee:
                    await self.client.forfeit(game_id, seat, referee, f"bot {bot} disconnected",
                                              command_id=f"forfeit:{game_id}:{seat}")
                    sent = True
        return sent

    async def referee(self, game: ScheduledGame) -> str:
        """The referee credential of one of our games (from its creation's outcome after a
        resume); "" if it is no longer known."""
        game_id = game_id_of(self.tid, game.index)
        if game_id not in self.referees:
            self.referees[game_id] = await self.referee_of(self.create_request(game))
        return self.referees[game_id]

    async def referee_of(self, request: CreateGame) -> str:
        """The referee credential sealed in the outcome of our create request; "" when the
        outcome has expired or was sealed with another key (a run recorded before reply keys)."""
        try:
            credentials = await self.client.credentials_of(request)
        except ServiceError:
            return ""
        return credentials.referee if credentials is not None else ""

    async def leader(self) -> dict[str, Any] | None:
        raw = await self.redis.get(standings_key(self.tid))
        if raw is None:
            return None
        table = json.loads(raw)["standings"]
        return table[0] if table else None

    async def wait_for_standings(self, timeout: float = 60.0,
                                 on_away: Notify = ignore) -> dict[str, Any]:
        """The projection's standings once it has counted every game (the table is read from
        the projection, not recomputed here). Waits out a projections service that is away
        (for the patience, as for the rules service); fails after `timeout` s without progress
        while one is there."""
        projections = Presence("projections", self.patience_s, on_away)
        counted, since = -1, time.monotonic()
        while True:
            raw = await self.redis.get(standings_key(self.tid))
            if raw is not None:
                data = json.loads(raw)
                if data["games"] >= len(self.games):
                    return dict(data, tournament=self.tid, seed=self.seed, pod=list(self.spec.pod),
                                games_ids=[game_id_of(self.tid, g.index) for g in self.games])
                if data["games"] > counted:
                    counted, since = data["games"], time.monotonic()
            await projections.observe(self.redis)
            serving = projections.alive_since
            if serving is not None and time.monotonic() - max(since, serving) > timeout:
                raise ServiceError("the projections service has not counted every game; "
                                   "is `hexlog serve projections` running?")
            await asyncio.sleep(0.1)
