"""The rules service: commands in, events out.

One object per process wires the parts together:

    batch.py       one read's entries: the common case judged together, the rest one by one
    intake.py      entries from the command streams: decoded, authenticated, routed or set aside
    lifecycle.py   organisers' requests: create a game, forfeit a seat
    moves.py       the move pipeline: decide, append by compare-and-set, outcomes and rulings
    prompting.py   who must act next, with a turn key and a deadline
    deadlines.py   default moves for silent seats (and for forfeited ones, a few at a time)
    recovery.py    commands left pending by a dead consumer; games whose prompt was lost
    retention.py   trimming handled entries from the streams
    repository.py  live games in memory (snapshot + tail), snapshots every N versions

It reads, for each of its partitions, the requesters' command streams (the organisers' and the
gateway's) and the command stream of every bot pool seated in a game (`hexlog:controllers`,
refreshed every second or so, so another replica's new games are picked up too). It owns these
streams: it makes them with its group, and a broken one is repaired or set aside without
stopping the others (stream_guard.py).

Safety does not depend on this process: any number of replicas may consume the same streams;
the append's compare-and-set orders each game, the outcome key makes redelivery idempotent,
and a default move has a deterministic command id, so two replicas cannot both play it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import structlog
from redis.asyncio import Redis
from redis.asyncio.client import Pipeline

from events.codec import codec
from services import metrics
from services.protocol import latency_key, prompts_key
from services.rules.batch import Entry, ReadJudge
from services.rules.config import ServiceConfig
from services.rules.deadlines import DeadlineKeeper
from services.rules.engine.rules import register
from services.rules.intake import Intake, stream_partition
from services.rules.lifecycle import Lifecycle
from services.rules.moves import MovePipeline
from services.rules.prompting import Prompter
from services.rules.recovery import Recovery
from services.rules.repository import GameRepository, GameSlot
from services.rules.retention import trim
from services.rules.stream_guard import StreamGuard
from services.store import EventStore
from services.store.keys import (
    CONTROLLERS,
    PARTITIONS,
    REQUESTERS,
    RULES_GROUP,
    commands_key,
    feed_key,
)

log = structlog.get_logger("hexlog.rules")

register(
    {
        "service.stale": "A command must be decided on the game's current version (expected_version).",
        "service.seat.credential": "A command must be signed with the turn key of the seat it is for.",
        "service.seat.controller": "A bot pool may only send commands for the seats it plays.",
        "service.game.unknown": "A command must name an existing game.",
        "service.create.invalid": "A game is created with a valid ruleset, seats, controllers, seed and limits.",
        "service.create.exists": "A game id is used once.",
        "service.forfeit.invalid": "A forfeit names a seat of a game still in progress.",
        "service.command.duplicate": "A command id is answered once; a replay gets the first outcome.",
        "service.dead_letter": "A command that cannot be processed after several deliveries is set aside.",
    }
)


DEFAULT_DEADLINE_MS = ServiceConfig.deadline_ms
LATENCY_SAMPLES = 100_000
POOLS_REFRESH_S = 1.0


class RulesService:
    def __init__(
        self,
        redis: Redis,
        consumer: str,
        *,
        partitions: range = range(PARTITIONS),
        config: ServiceConfig | None = None,
        claim_idle_ms: int | None = None,
        max_deliveries: int | None = None,
        default_deadline_ms: int | None = None,
    ) -> None:
        config = config or ServiceConfig()
        overrides = {"claim_idle_ms": claim_idle_ms, "max_deliveries": max_deliveries,
                     "deadline_ms": default_deadline_ms}
        config = ServiceConfig(**{**config.__dict__,
                                  **{k: v for k, v in overrides.items() if v is not None}})
        self.redis = redis
        self.store = EventStore(redis, coalesce_appends=True)
        self.consumer = consumer
        self.partitions = partitions
        self.config = config
        self.codec = codec()
        self.pools: set[str] = set()
        self.pools_read_at = 0.0
        # (the pools they were made for; each reader lane's streams, by (lane, lanes))
        self._streams: tuple[frozenset[str], dict[tuple[int, int], list[str]]] | None = None
        self.on_streams_changed: Callable[[list[str]], None] | None = None
        self.guard = StreamGuard(redis)
        self.repo = GameRepository(self.store, config.snapshot_every, config.games_in_memory)
        self.prompter = Prompter(redis, self.codec)
        self.pipeline = MovePipeline(redis, self.store, self.repo, self.prompter, self.codec, config)
        self.lifecycle = Lifecycle(redis, self.store, self.repo, self.prompter, self.pipeline,
                                   self.codec, config)
        self.intake = Intake(redis, self.repo, self.pipeline, self.lifecycle, self.codec, config,
                             self.add_pools)
        self.reads = ReadJudge(self.store, self.repo, self.intake, self.pipeline, self.prompter)
        self.deadlines = DeadlineKeeper(redis, self.repo, self.pipeline, partitions)
        self.recovery = Recovery(redis, self.store, self.repo, self.prompter, self.pipeline,
                                 self.intake, config, consumer, partitions, self.command_streams)

    # --- what this replica reads ----------------------------------------------------------

    @property
    def max_deliveries(self) -> int:
        return self.config.max_deliveries

    @property
    def slots(self) -> dict[str, GameSlot]:
        return self.repo.slots

    async def slot(self, game_id: str) -> GameSlot | None:
        return await self.repo.slot(game_id)

    def command_streams(self, lane: int = 0, lanes: int = 1) -> list[str]:
        """The requesters' streams and every known pool's stream, for each of our partitions
        (made again only when the pools change: the reader asks before every read); with
        `lanes`, those of the partitions reader lane `lane` reads (p % lanes == lane), so each
        partition, and each game, is read by one lane."""
        pools = frozenset(self.pools)
        if self._streams is None or self._streams[0] != pools:
            self._streams = (pools, {})
        made = self._streams[1]
        if (lane, lanes) not in made:
            made[lane, lanes] = [commands_key(p, source) for p in self.partitions
                                 if p % lanes == lane for source in [*REQUESTERS, *sorted(pools)]]
        return made[lane, lanes]

    async def prepare(self) -> None:
        """Create the streams and their consumer groups before any subscriber starts
        (FastStream stops if a group is missing), for the requesters' streams and every pool
        seated so far."""
        for p in self.partitions:
            for source in REQUESTERS:
                await self.store.ensure_group(commands_key(p, source), RULES_GROUP)
        await self.refresh_pools(force=True)

    async def refresh_pools(self, force: bool = False) -> list[str]:
        """Learn the pools other replicas seated (`hexlog:controllers`); returns new ones."""
        now = time.monotonic()
        if not force and now - self.pools_read_at < POOLS_REFRESH_S:
            return []
        self.pools_read_at = now
        known = {m.decode() if isinstance(m, bytes) else str(m)
                 for m in await self.redis.smembers(CONTROLLERS)}  # type: ignore[misc]
        new = sorted(known - self.pools)
        if new:
            await self.add_pools(new)
        return new

    async def add_pools(self, pools: list[str]) -> None:
        """Start reading the command streams of these bot pools (groups made first)."""
        fresh = [pool for pool in pools if pool not in self.pools]
        if not fresh:
            return
        for pool in fresh:
            for p in self.partitions:
                await self.store.ensure_group(commands_key(p, pool), RULES_GROUP)
        self.pools.update(fresh)
        log.info("reading bot pools", pools=fresh)
        if self.on_streams_changed is not None:
            self.on_streams_changed([commands_key(p, pool) for pool in fresh for p in self.partitions])

    # --- entry points -----------------------------------------------------------------------

    async def handle_batch(
        self, stream: str, ids: list[bytes], entries: list[dict[bytes, bytes]], ack: bool = True
    ) -> None:
        """Handle one stream's entries (`handle_read`), then XACK them (unless the caller acks
        several streams' entries together, `ack=False`)."""
        await self.handle_read([(stream, list(zip(ids, entries, strict=True)))])
        if ids and ack:
            await self.redis.xack(stream, RULES_GROUP, *ids)

    async def handle_read(self, reads: Sequence[tuple[str, Sequence[Entry]]],
                          after: Callable[[Pipeline], object] | None = None) -> list[Any] | None:
        """Handle one read of the command streams (batch.py): each game's entries in stream
        order; different games' together, their appends in one pipeline (one server round
        trip, and one fsync under `appendfsync always`, for all of them). `after` queues
        commands for that round trip (the reader's acks and next read): their replies, or
        None when there was no pipeline to carry them."""
        return await self.reads.handle(reads, after)

    async def handle_entry(self, stream: str, entry_id: bytes, fields: dict[bytes, bytes]) -> None:
        await self.intake.handle(stream, entry_id, fields)

    async def enforce_deadlines(self) -> int:
        return await self.deadlines.enforce()

    async def claim_pending(self) -> int:
        return await self.recovery.claim_pending()

    async def reprompt_live_games(self) -> int:
        return await self.recovery.reprompt_live_games()

    async def measure(self) -> int:
        """The metrics read from Redis (services/metrics.py): per partition, the command
        entries pending in the rules group and those not yet delivered (the lag), and the live
        games this replica holds. Every few seconds, never per command."""
        streams = self.guard.readable(self.command_streams())
        pipe = self.redis.pipeline(transaction=False)
        for stream in streams:
            pipe.xinfo_groups(stream)
        pending = dict.fromkeys(self.partitions, 0)
        lag = dict.fromkeys(self.partitions, 0)
        for stream, groups in zip(streams, await pipe.execute(raise_on_error=False), strict=True):
            if isinstance(groups, Exception):
                continue
            p = stream_partition(stream)
            for g in groups:
                if g.get("name") in (RULES_GROUP, RULES_GROUP.encode()):
                    pending[p] += int(g.get("pending") or 0)
                    lag[p] += int(g.get("lag") or 0)
        for p in self.partitions:
            metrics.PENDING.labels(f"{p:03d}").set(pending[p])
            metrics.LAG.labels(f"{p:03d}").set(lag[p])
        metrics.GAMES_LIVE.set(len(self.repo.slots))
        return len(streams)

    async def flush_latencies(self) -> int:
        return await self.pipeline.flush_latencies(latency_key(), LATENCY_SAMPLES)

    async def trim_streams(self) -> int:
        """Apply the retention rules (retention.py) to the streams this replica serves."""
        c = self.config
        removed = await trim(self.redis, self.guard.readable(self.command_streams()),
                             c.command_retention_ms)
        prompts = [prompts_key(p, pool) for p in self.partitions for pool in sorted(self.pools)]
        removed += await trim(self.redis, prompts, c.prompt_retention_ms)
        removed += await trim(self.redis, [feed_key(p) for p in self.partitions],
                              c.feed_retention_ms)
        return removed
