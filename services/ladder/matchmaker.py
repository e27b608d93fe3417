"""`hexlog serve ladder`: the matchmaker. Forms pods of ready bots (matchmaking.py), writes
them down for the gateways to create (games.py), sees their games finish, and marks absent the
bots that stop answering (absence.py).

Any number may run; one leads at a time (a lease in Redis, renewed every round; a standby takes
over within LEASE_MS of the leader's death) and the others wait. Everything it knows is in
Redis, so a restart, or another process taking over, loses no game and forms no pod twice.

It holds no game credential and writes no command stream (its Redis user, `ladder`, cannot):
creating the games and signing the bots' answers is the gateway's (services/gateway/
ladder_starter.py). Its rights: the ladder's keys, the feeds and games' meta (read), its
controller's prompt streams (trim only: turn keys of moves long made, written for a seat
nobody reads: the gateway computes each ladder seat's prompt from the log), and declaring
that controller needs no views (`hexlog:pool:human:ladder`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import socket
import time
from collections.abc import Iterable, Mapping
from typing import Any, cast

import structlog
from redis.asyncio import Redis
from redis.exceptions import RedisError, WatchError

from services.ladder.absence import MissCounter
from services.ladder.config import LadderConfig, RuleSet, encode
from services.ladder.games import Games, ids
from services.ladder.keys import (
    BOARDS,
    CONFIG,
    CONTROLLER,
    LEADER,
    READY,
    ROTATION,
    SEEN,
    new_game_id,
    new_set_id,
)
from services.ladder.matchmaking import (
    MODEL,
    Candidate,
    History,
    duplicate_sets,
    form_pods,
    rotated_lineups,
    seat_lineup,
)
from services.ladder.records import BotRecord, LadderGame
from services.ladder.registry import Registry
from services.protocol import beat, leave, pool_key, prompts_key, stop_on_sigterm
from services.store.keys import PARTITIONS, game_keys

log = structlog.get_logger("hexlog.ladder")

ROUND_S = 0.5
LEASE_MS = 5000
REQUEUE_AFTER_S = 30.0  # a pod no gateway has made a game of by then is queued again
PROMPTS_KEPT_MS = 600_000
TRIM_EVERY_S = 60.0
BOARDS_EVERY_S = 2.0
UNRATED = (MODEL.mu, MODEL.sigma, 0)  # a bot with no game on a board: openskill's prior


def text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def seat_or_none(raw: bytes | None) -> int | None:
    """A meta field's seat (`winner`: -1 or empty for none)."""
    try:
        seat = int(raw or b"")
    except ValueError:
        return None
    return seat if seat >= 0 else None


def instance_name() -> str:
    return f"ladder-{socket.gethostname()}-{os.getpid()}"


class Matchmaker:
    def __init__(self, redis: Redis, config: LadderConfig, name: str | None = None,
                 seed: int | None = None) -> None:
        self.redis = redis
        self.config = config
        self.name = name or instance_name()
        self.registry = Registry(redis)
        self.games = Games(redis)
        self.misses = MissCounter(redis)
        self.rng = random.Random(seed)
        self.history = History()
        self.live: dict[str, LadderGame] = {}
        self.leading = False
        self.queued_at: dict[str, float] = {}
        self.ratings: tuple[float, dict[str, dict[str, tuple[float, float, int]]]] = (0.0, {})
        self.trimmed = 0.0

    async def run(self, stop: asyncio.Event) -> None:
        await self.redis.hset(pool_key(CONTROLLER), "needs_view", 0)  # the gateway folds its own
        while not stop.is_set():
            try:
                await self.round()
            except (RedisError, OSError) as exc:  # Redis gone a moment: try again
                log.warning("ladder round failed; retrying", error=str(exc))
                self.leading = False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), ROUND_S)
        if self.leading:
            await self.redis.delete(LEADER)

    async def round(self) -> None:
        await beat(self.redis, "ladder", self.name, "ok" if self.leading else "ok: standby")
        if not await self.lease():
            if self.leading:
                log.info("ladder: another matchmaker leads now", name=self.name)
            self.leading = False
            return
        if not self.leading:
            await self.take_over()
        await self.watch_games()
        for bot, misses in (await self.misses.poll(self.live)).items():
            if misses >= self.config.absent_after and await self.registry.mark_absent(bot, misses):
                log.info("ladder: bot marked absent", bot=bot, misses=misses)
        await self.match()
        if time.monotonic() - self.trimmed > TRIM_EVERY_S:
            self.trimmed = time.monotonic()
            await self.trim_prompts()

    async def lease(self) -> bool:
        """Take the lead if nobody has it, keep it if we have it (one transaction on the key:
        a lease that lapsed and was taken meanwhile is not extended by us)."""
        if await self.redis.set(LEADER, self.name, nx=True, px=LEASE_MS):
            return True
        async with self.redis.pipeline(transaction=True) as pipe:
            try:
                await pipe.watch(LEADER)
                holder = await pipe.get(LEADER)
                if holder is None or text(holder) != self.name:
                    await cast(Any, pipe).unwatch()
                    return False
                cast(Any, pipe).multi()
                pipe.pexpire(LEADER, LEASE_MS)
                await pipe.execute()
                return True
            except WatchError:
                return False

    async def take_over(self) -> None:
        """Leading from now on: what the ladder runs is read from Redis (a restart, or a
        standby taking over, goes on from there)."""
        self.leading = True
        await self.redis.set(CONFIG, encode(self.config))
        self.live = {g.id: g for g in await self.games.live()}
        self.queued_at = {g: time.monotonic() for g in self.live}
        await self.misses.start()
        log.info("ladder: leading", name=self.name, live=len(self.live),
                 rulesets=[r.key for r in self.config.rulesets])

    async def watch_games(self) -> None:
        """Close the games that finished (or could not be made); queue again the pods no
        gateway has made a game of in a while."""
        if not self.live:
            return
        pipe = self.redis.pipeline(transaction=False)
        listed = list(self.live.values())
        for game in listed:
            pipe.hmget(game_keys(game.id).meta, "status", "winner")
        replies = await pipe.execute()
        fresh = await self.games.many([g.id for g in listed])
        by_id = {g.id: g for g in fresh}
        stale: list[str] = []
        for i, game in enumerate(listed):
            status, winner = replies[i]
            now = by_id.get(game.id, game)
            if status == b"finished":
                done = await self.games.mark(game.id, "finished", seat_or_none(winner))
                await self.games.close(done or game)
                self.live.pop(game.id, None)
                log.info("ladder: game finished", game_id=game.id)
            elif now.status == "void":
                await self.games.close(now)
                self.live.pop(game.id, None)
            elif now.status == "pending" and \
                    time.monotonic() - self.queued_at.get(game.id, 0.0) > REQUEUE_AFTER_S:
                stale.append(game.id)
            else:
                self.live[game.id] = now
        if stale:
            await self.games.queue(stale)
            self.queued_at.update(dict.fromkeys(stale, time.monotonic()))
            log.warning("ladder: pods queued again (no gateway made their games)", games=stale)

    async def match(self) -> None:
        config = self.config
        if len(self.live) >= config.max_live:
            return
        left = (config.stop_after - await self.games.created()) if config.stop_after else None
        if left is not None and left <= 0:
            return
        bots, ready_since = await self.eligible()
        if not bots:
            return
        playing: dict[str, int] = {}
        started: dict[str, float] = {}
        for game in self.live.values():
            for bot in game.bots:
                playing[bot] = playing.get(bot, 0) + 1
                started[bot] = max(started.get(bot, 0.0), game.created_at)
        ratings = await self.boards()
        rotation = config.rulesets
        first = int(await self.redis.get(ROTATION) or 0) % len(rotation)
        for step in range(len(rotation)):
            ruleset = rotation[(first + step) % len(rotation)]
            room = config.max_live - len(self.live)
            if room <= 0 or (left is not None and left <= 0):
                break
            board = ratings.get(ruleset.key) or ratings.get("overall") or {}
            candidates = [
                Candidate(b.id, b.owner_key(), *board.get(b.name, UNRATED),
                          playing=playing.get(b.id, 0),
                          waiting_since=max(started.get(b.id, 0.0), ready_since[b.id]))
                for b in bots.values()
                if b.plays(ruleset.key) and playing.get(b.id, 0) < config.games_per_bot]
            most = min(room, left if left is not None else room)
            pods = form_pods(candidates, ruleset.seats, self.history, self.rng,
                             owners_together=config.owners_together, most=most)
            if not pods:
                if self.could_play(ruleset, bots.values()):
                    break  # its turn is kept until enough of its bots are free again
                continue  # too few ready bots play it at all: the next rule set's turn
            made = await self.write_pods(ruleset, pods, bots)
            for game in made:
                for bot in game.bots:
                    playing[bot] = playing.get(bot, 0) + 1
            if left is not None:
                left -= len(made)
            await self.redis.set(ROTATION, (first + step + 1) % len(rotation))

    def could_play(self, ruleset: RuleSet, bots: Iterable[BotRecord]) -> bool:
        """Whether the ready bots could fill a game of `ruleset` once free: then the rule sets
        after it wait for its turn (else a rule set of 2 seats would take every bot that frees
        up, and one of 4 would never be played)."""
        players = [b for b in bots if b.plays(ruleset.key)]
        owners = {b.owner_key() for b in players}
        return len(players) >= ruleset.seats and (self.config.owners_together or
                                                  len(owners) >= ruleset.seats)

    async def eligible(self) -> tuple[dict[str, BotRecord], dict[str, float]]:
        """Ready bots, not absent, whose stream a gateway saw open lately; when each said
        ready (s)."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrange(READY, 0, -1, withscores=True)
        pipe.zrangebyscore(SEEN, (time.time() - self.config.seen_timeout_s) * 1000, "+inf")
        ready, seen = await pipe.execute()
        online = set(ids(seen))
        since = {i: float(score) / 1000 for i, score in
                 ((r.decode() if isinstance(r, bytes) else str(r), s) for r, s in ready)}
        records = await self.registry.bots(b for b in since if b in online)
        bots = {b.id: b for b in records.values() if b.status == "active" and not b.absent}
        return bots, since

    async def boards(self) -> Mapping[str, dict[str, tuple[float, float, int]]]:
        """Each board's (μ, σ, games) by bot name, read at most every BOARDS_EVERY_S."""
        at, held = self.ratings
        if time.monotonic() - at < BOARDS_EVERY_S:
            return held
        raw = cast(dict[Any, Any], await self.redis.hgetall(BOARDS))
        boards: dict[str, dict[str, tuple[float, float, int]]] = {}
        for name, value in raw.items():
            rows = json.loads(value)["rows"]
            boards[name.decode() if isinstance(name, bytes) else name] = {
                r["bot"]: (float(r["rating"]), float(r["sigma"]), int(r["games"])) for r in rows}
        self.ratings = (time.monotonic(), boards)
        return boards

    async def write_pods(self, ruleset: RuleSet, pods: list[tuple[Candidate, ...]],
                         bots: Mapping[str, BotRecord]) -> list[LadderGame]:
        """The pods as games: pods that may share a seed (duplicate_sets) rotated over one
        board, each other pod seated where its bots sat least."""
        now = time.time()
        games: list[LadderGame] = []
        sets = duplicate_sets(pods) if self.config.duplicates else [[pod] for pod in pods]
        for group in sets:
            lineups = rotated_lineups(group) if len(group) > 1 else \
                [seat_lineup(group[0], self.history, self.rng)]
            made = [LadderGame(id=new_game_id(), ruleset=ruleset.key, modules=ruleset.modules,
                               bots=tuple(lineup), names=tuple(bots[b].name for b in lineup),
                               deadline_ms=self.config.deadline_ms,
                               turn_limit=self.config.turn_limit, created_at=now)
                    for lineup in lineups]
            if len(made) > 1:  # the seed is drawn by the gateway that creates the first
                set_id = new_set_id()
                for game in made:
                    game.set_id, game.set_games = set_id, tuple(g.id for g in made)
            games.extend(made)
        await self.games.add(games)
        for game in games:
            self.history.met(game.bots)
            self.history.sat(game.bots)
            self.live[game.id] = game
            self.queued_at[game.id] = time.monotonic()
            log.info("ladder: pod formed", game_id=game.id, ruleset=ruleset.key,
                     bots=list(game.names), set_id=game.set_id)
        return games

    async def trim_prompts(self) -> None:
        """The prompts the rules service writes for ladder seats: nobody reads them (the
        gateway computes a seat's prompt from the log); keep the last few minutes."""
        floor = int(time.time() * 1000) - PROMPTS_KEPT_MS
        pipe = self.redis.pipeline(transaction=False)
        for p in range(PARTITIONS):
            pipe.xtrim(prompts_key(p, CONTROLLER), minid=f"{floor}-0")
        await pipe.execute(raise_on_error=False)


def run(url: str, config: LadderConfig, name: str | None = None) -> None:
    """Serve as a matchmaker until SIGTERM/SIGINT."""
    from services.store.connect import connect

    async def main() -> None:
        redis = connect(url)
        matchmaker = Matchmaker(redis, config, name)
        try:
            await matchmaker.run(stop_on_sigterm())
        finally:
            await leave(redis, "ladder", matchmaker.name)
            await redis.aclose()

    asyncio.run(main())
