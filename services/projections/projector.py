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

The projector knows game summaries only. Read models that follow finished games (tournament
standings) are *projections* its caller hands it (`Projector(redis, projections)`):
services/cli/projections.py `shipped()` names hexlog's (the tournament's standings,
services/tournament/projection.py). So this package never imports the tournament (a layer
above it), and no projector misses one because its process did not import a module.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable, Mapping
from typing import Any, Protocol, cast

import structlog
from redis.asyncio import Redis
from redis.exceptions import ResponseError

from events.codec import codec
from events.events import GameCreated, GameFinished, SeatForfeited
from services import metrics
from services.protocol import DATA, beat, leave, stop_on_sigterm
from services.rules.engine import evolve, initial_state, score
from services.runtime import loop
from services.store import EventStore
from services.store.connect import connect, is_cluster
from services.store.keys import PARTITIONS, PREFIX, feed_key, game_keys
from services.store.lean import lean_pipeline
from services.store.streams import GroupReader

log = structlog.get_logger("hexlog.projections")


async def pause(seconds: float, stop: asyncio.Event | None) -> None:
    """Wait `seconds`, or less if `stop` is set meanwhile."""
    if seconds <= 0:
        return
    if stop is None:
        await asyncio.sleep(seconds)
        return
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)


class Projection(Protocol):
    """A read model fed by finished games."""

    async def finished(self, projector: Projector, summary: dict[str, str | int],
                       game_id: str) -> None:
        """A game finished; `summary` is its summary hash (tournament fields included)."""

    async def refresh(self, projector: Projector, scope: str) -> None:
        """Recompute what this projection keeps for `scope` (a tournament id)."""


Projections = Mapping[str, Callable[[], Projection]]  # name -> how to make a fresh one
GROUP = "projections"
CLAIM_EVERY_S = 10.0
# A busy feed is read at most every FOLD_EVERY_S (unless a read comes back full, READ_COUNT
# entries of a feed): a game that moved several times meanwhile is summarized once, and the
# batch's summaries and ack are one write where each move had been one. Under appendfsync always
# each write costs the server an fsync. 200 ms behind is nothing a standings page shows, and at
# full speed it costs 0.6x the projector's CPU per command of 50 ms (benchmarks/cost.md).
FOLD_EVERY_S = 0.2
READ_COUNT = 200
CLAIM_IDLE_MS = 30_000
BENCH_STATUS = "bench"  # meta status of `hexlog bench e2e`'s raw append games


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def game_key(game_id: str) -> str:
    return f"{PREFIX}:proj:game:{game_id}"


def results_key(tid: str) -> str:
    return f"{PREFIX}:proj:t:{tid}:results"


def standings_key(tid: str) -> str:
    return f"{PREFIX}:proj:t:{tid}:standings"


class Projector:
    def __init__(self, redis: Redis, projections: Projections,
                 consumer: str = "projector") -> None:
        """`projections`: the read models beyond game summaries this projector keeps, given by
        its caller (services/cli/projections.py `shipped()` names hexlog's): never found by
        import side effects, so none is missing because a module was not imported."""
        self.redis = redis
        self.store = EventStore(redis)
        self.consumer = consumer
        self.codec = codec()
        self.makers = dict(projections)
        self.projections: dict[str, Projection] = {n: make() for n, make in self.makers.items()}
        self.unreadable: list[str] = []  # games the last rebuild could not read

    async def prepare(self) -> None:
        for p in range(PARTITIONS):
            try:
                await self.redis.xgroup_create(feed_key(p), GROUP, id="0", mkstream=True)
            except ResponseError as exc:
                if "BUSYGROUP" not in str(exc):
                    raise

    async def run(self, stop: asyncio.Event | None = None, block_ms: int = 200,
                  fold_every_s: float = FOLD_EVERY_S) -> None:
        await self.prepare()
        # What an earlier instance under this consumer name read and never acked (it was
        # killed mid-batch) is applied first: `>` would never deliver it again.
        await self.recover(own=True)
        streams = {feed_key(p): ">" for p in range(PARTITIONS)}
        reader = GroupReader(self.redis, GROUP, self.consumer)
        try:
            last_beat = last_claim = time.monotonic() - 60
            while stop is None or not stop.is_set():
                try:
                    if time.monotonic() - last_beat > 1.0:
                        last_beat = time.monotonic()
                        await beat(self.redis, "projections", self.consumer)
                    if time.monotonic() - last_claim > CLAIM_EVERY_S:
                        last_claim = time.monotonic()
                        await self.recover(own=False)
                        await self.measure_lag()
                    began = time.monotonic()
                    read = await reader.read(streams, count=READ_COUNT, block=block_ms)
                    for stream, entries in read:
                        await self.handle(stream, entries)
                    if read and all(len(entries) < READ_COUNT for _, entries in read):
                        await pause(fold_every_s - (time.monotonic() - began), stop)
                except Exception:
                    # A dropped connection must not end the projector (nor leave it beating while
                    # reading nothing): unacked entries stay pending and are recovered.
                    log.exception("projection loop failed; retrying")
                    await asyncio.sleep(0.5)
        finally:
            await reader.close()

    async def handle(self, stream: str, entries: list[tuple[bytes, Any]]) -> None:
        """Apply a batch of feed entries (each game once, to its latest version), then ack."""
        latest: dict[str, int] = {}
        for _, fields in entries:
            if not fields:  # an entry trimmed away while pending
                continue
            game = fields[b"game"].decode()
            latest[game] = max(latest.get(game, 0), int(fields[b"to"]))
        if is_cluster(self.redis):  # a game's keys and its summary's lie in different slots
            for game, to in latest.items():
                await self._apply_guarded(game, to)
            if entries:
                await self.redis.xack(stream, GROUP, *[e[0] for e in entries])
        else:
            await self._apply_together(stream, latest, [e[0] for e in entries])
        if entries:
            metrics.PROJECTED.inc(len(entries))

    async def _apply_guarded(self, game: str, to: int) -> None:
        try:
            await self.apply(game, to)
        except Exception:
            # One game the projector cannot read (a bug, a ruleset this build lacks) must
            # not stop every other game's projection; `rebuild` redoes it after a fix.
            log.exception("projection of a game failed", game_id=game, version=to)

    async def _apply_together(self, stream: str, latest: dict[str, int], ids: list[bytes]) -> None:
        """`apply` for every game of a batch, in two round trips instead of four per game:
        one reads each game's summary version, meta and last event; one writes the summaries
        of running games and acks the batch. A game that starts or ends (its summary made from
        the whole log) takes `apply`'s own path."""
        games = list(latest)
        pipe = lean_pipeline(self.redis)
        for game in games:
            pipe.hget(game_key(game), "version")
            pipe.hgetall(game_keys(game).meta)
            pipe.xrevrange(game_keys(game).ev, "+", "-", count=1)
        replies = await pipe.execute(raise_on_error=False) if games else []
        writes = lean_pipeline(self.redis)
        for i, game in enumerate(games):
            seen, raw_meta, last = replies[3 * i:3 * i + 3]
            try:
                for reply in (seen, raw_meta, last):
                    if isinstance(reply, Exception):
                        raise reply
                if int(seen or 0) >= latest[game]:
                    continue
                meta = {_text(k): _text(v) for k, v in (raw_meta or {}).items()}
                if meta.get("status") == BENCH_STATUS or (seen and not last):
                    continue
                if seen:
                    entry_id, fields = last[0]
                    event = self.codec.decode_event_envelope(fields[DATA.encode()]).event
                    if not isinstance(event, GameFinished):
                        writes.hset(game_key(game), mapping={
                            "version": int(entry_id.decode().split("-", 1)[0]),
                            "controllers": meta.get("seated") or meta.get("controllers", "[]"),
                        })
                        continue
            except Exception:
                log.exception("projection of a game failed", game_id=game, version=latest[game])
                continue
            await self._apply_guarded(game, latest[game])
        if ids:
            writes.xack(stream, GROUP, *ids)
        for reply in await writes.execute(raise_on_error=False):
            if isinstance(reply, Exception):  # one summary not written: logged, as in `apply`
                log.error("projection write failed", stream=stream, error=str(reply))

    async def measure_lag(self) -> None:
        """Each feed's entries not yet delivered to the group (XINFO GROUPS `lag`), for the
        metrics: a projector that falls behind shows before its standings go stale."""
        pipe = self.redis.pipeline(transaction=False)
        for p in range(PARTITIONS):
            pipe.xinfo_groups(feed_key(p))
        for p, groups in enumerate(await pipe.execute(raise_on_error=False)):
            if isinstance(groups, Exception):
                continue
            mine = [g for g in groups if g.get("name") in (GROUP, GROUP.encode())]
            if mine and mine[0].get("lag") is not None:
                metrics.PROJECTION_LAG.labels(f"{p:03d}").set(int(mine[0]["lag"]))

    async def recover(self, own: bool) -> None:
        """Apply entries left pending: our own consumer's (`own`, at start), or those of
        other consumers idle longer than CLAIM_IDLE_MS (a dead projector's), by XAUTOCLAIM."""
        for p in range(PARTITIONS):
            stream = feed_key(p)
            if own:
                while True:
                    reply: Any = await self.redis.xreadgroup(GROUP, self.consumer,
                                                             {stream: "0"}, count=200)
                    entries = reply[0][1] if reply else []
                    if not entries:
                        break
                    await self.handle(stream, entries)
                continue
            start = "0-0"
            while True:
                claimed: Any = await self.redis.xautoclaim(
                    stream, GROUP, self.consumer, CLAIM_IDLE_MS, start_id=start, count=200)
                start, entries = claimed[0], claimed[1]
                if entries:
                    await self.handle(stream, entries)
                if start in (b"0-0", "0-0"):
                    break

    async def apply(self, game_id: str, upto: int) -> None:
        """Bring the summary of `game_id` up to version `upto` (idempotent)."""
        key = game_key(game_id)
        seen = int(await self.redis.hget(key, "version") or 0)
        if seen >= upto:
            return
        meta = await self.store.meta(game_id) or {}
        if meta.get("status") == BENCH_STATUS:  # the raw append benchmark's: not a game
            return
        # While a game runs only its last event is read (a game ends with GameFinished); it is
        # read whole, and folded, once: when it has finished. The summary is the same as one
        # made from scratch (`rebuild`).
        if seen:
            last: Any = await self.redis.xrevrange(game_keys(game_id).ev, "+", "-", count=1)
            if not last:
                return
            entry_id, fields = last[0]
            event = self.codec.decode_event_envelope(fields[DATA.encode()]).event
            if not isinstance(event, GameFinished):
                await self.redis.hset(key, mapping={
                    "version": int(entry_id.decode().split("-", 1)[0]),
                    "controllers": meta.get("seated") or meta.get("controllers", "[]"),
                })
                return
        events = [self.codec.decode_event_envelope(b).event
                  for _, b in await self.store.read(game_id, 0)]
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
            # Who was seated (a forfeit changes `controllers` to "forfeit"; `seated` keeps them).
            "controllers": meta.get("seated") or meta.get("controllers", "[]"),
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
        if finished is not None:
            for projection in self.projections.values():
                await projection.finished(self, summary, game_id)

    async def update_standings(self, scope: str) -> None:
        """Recompute every projection's read model for `scope` (a tournament id)."""
        for projection in self.projections.values():
            await projection.refresh(self, scope)

    async def rebuild(self) -> int:
        """Drop every projection key and recompute from the logs; returns the games applied.
        A game that cannot be read is left out (and listed in `self.unreadable`), as the live
        projection leaves it out: one bad log must not stop every other game's rebuild."""
        self.projections = {n: make() for n, make in self.makers.items()}
        self.unreadable = []
        async for key in self.redis.scan_iter(match=f"{PREFIX}:proj:*", count=500):
            await self.redis.delete(key)
        await self.prepare()
        games = await self.store.games()
        for game_id in games:
            try:
                await self.apply(game_id, await self.store.version(game_id))
            except Exception:
                log.warning("game left out of the projections: its log cannot be read",
                            game_id=game_id, exc_info=True)
                self.unreadable.append(game_id)
        # What the group still delivers of what was just applied is skipped by version (the
        # projector may not move the group: its Redis user has no XGROUP SETID).
        return len(games) - len(self.unreadable)


def run(url: str, projections: Projections, consumer: str | None = None) -> None:
    async def main() -> None:
        redis = connect(url)
        projector = Projector(redis, projections, consumer or "projector")
        try:
            await projector.run(stop_on_sigterm())
        finally:
            await leave(redis, "projections", projector.consumer)
            await redis.aclose()

    loop.run(main())
