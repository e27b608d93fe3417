"""The rules service as a FastStream app on the partition command streams.

One batch subscriber per partition stream (consumer group `rules`, created before the broker
starts), manual acks (XACK after the batch is settled — FastStream's nack/reject do nothing on
Redis), and a raw parser: FastStream's own would choke on a non-UTF-8 body before our handler
could dead-letter it. Two background tasks: the claimer (XAUTOCLAIM of entries left pending by
a dead consumer) and the deadline keeper (default moves for silent seats).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
from collections.abc import Callable, Mapping
from typing import Any, cast

import structlog
from faststream import AckPolicy, FastStream
from faststream.redis import RedisBroker, StreamSub
from redis.asyncio import Redis
from redis.asyncio.client import Pipeline
from redis.exceptions import ResponseError

from services import metrics
from services.protocol import beat, leave
from services.rules import failover
from services.rules.config import READ_LANES, ServiceConfig
from services.rules.service import RulesService
from services.runtime import loop
from services.store.connect import connect, fails_over, is_cluster, plain_url
from services.store.keys import PARTITIONS, REQUESTERS, RULES_GROUP, commands_key
from services.store.lean import lean_pipeline
from services.store.streams import Entry, GroupReader, read_group
from services.tasks import cancel_and_wait

log = structlog.get_logger("hexlog.rules")


async def _raw_parser(message: Mapping[str, Any], original: Any) -> Any:
    """Let FastStream build its message from placeholders; keep the raw entries for us."""
    safe = {**message, "data": [{b"__data__": b"null"} for _ in message["data"]]}
    msg = await original(safe)
    msg.raw_message = message
    return msg


async def _raw_body(msg: Any) -> Any:
    """The body is the raw batch (channel, ids, entries). Async on purpose: FastStream runs a
    sync decoder in a thread pool (a thread hop and GIL contention per batch)."""
    return msg.raw_message


def consumer_name() -> str:
    return f"rules-{socket.gethostname()}-{os.getpid()}"


def build_app(
    url: str,
    *,
    consumer: str | None = None,
    claim_idle_ms: int = 30_000,
    tick_s: float = 0.1,
    polling_ms: int = 100,
    consumer_mode: str = "batched",
    config: ServiceConfig | None = None,
    trim_every_s: float = 10.0,
    read_lanes: int = READ_LANES,
) -> FastStream:
    if not 1 <= read_lanes <= PARTITIONS:
        raise ValueError(f"read_lanes: from 1 to {PARTITIONS}, not {read_lanes}")
    if consumer_mode not in ("batched", "faststream"):
        raise ValueError(f"consumer mode must be batched or faststream, not {consumer_mode!r}")
    if consumer_mode == "faststream" and fails_over(url):
        # FastStream's plain broker reads one server, and its cluster broker would drop the
        # pipelined acks: on a Cluster the batched reader (one call per partition) is used.
        # Nor does it follow a failover: under Sentinel too, the batched reader.
        raise ValueError("the faststream consumer reads one server: not a Redis Cluster nor a "
                         "Sentinel set; use batched")
    name = consumer or consumer_name()
    # In batched mode the broker only hosts the app's lifecycle (no subscriber), so on a
    # Cluster it may speak to the one node the URL names.
    broker = RedisBroker(plain_url(url), logger=None)  # type: ignore[arg-type]  # FastStream logging off
    app = FastStream(broker, logger=None)
    redis = connect(url)
    service = RulesService(redis, name, config=config, claim_idle_ms=claim_idle_ms)
    watch = failover.PrimaryWatch(service, redis)
    tasks: list[asyncio.Task[None]] = []

    async def on_batch(raw: Any) -> None:
        # The decoder hands over the raw entries as the body: an injected message parameter
        # would cost a sync resolver run in a worker thread for every batch.
        await service.handle_batch(raw["channel"], raw["message_ids"], raw["data"])

    # "batched" (default): READ_LANES loops, each a single XREADGROUP over its share of the
    # partition streams (on a Cluster, one per partition, in flight together:
    # services/store/streams.py GroupReader), each partition's entries handled concurrently.
    # "faststream": a FastStream batch subscriber per partition (one server only).
    # Measured on 2 cores (benchmarks/README.md): batched ≈ 2,400 commands/s with p99 ≈ 20 ms,
    # per-partition subscribers ≈ 1,400/s with p99 ≈ 60 ms (their per-batch cost dominates
    # when each partition holds one or two pending commands).
    raw_mode = consumer_mode == "batched"

    def subscribe(stream: str, persistent: bool = True) -> Any:
        sub = broker.subscriber(
            stream=StreamSub(stream, group=RULES_GROUP, consumer=name, batch=True,
                             max_records=128, polling_interval=polling_ms),
            ack_policy=AckPolicy.MANUAL,
            parser=_raw_parser,
            decoder=_raw_body,
            persistent=persistent,
        )
        sub(on_batch)
        return sub

    subscribed: set[str] = set()
    if not raw_mode:
        for p in range(PARTITIONS):
            for source in REQUESTERS:
                subscribed.add(commands_key(p, source))
                subscribe(commands_key(p, source))

    async def follow_pools() -> int:
        """New bot pools (seated by any replica) get their streams read here too."""
        await service.refresh_pools()
        if raw_mode:
            return 0
        for stream in service.command_streams():
            if stream not in subscribed:
                subscribed.add(stream)
                await subscribe(stream, persistent=False).start()
        return 0

    @app.on_startup
    async def create_groups() -> None:
        await service.prepare()

    @app.after_startup
    async def start_background() -> None:
        # Deadlines only once the live games are prompted again (which re-arms their clocks):
        # a deadline that ran out while no rules service was up (a tournament killed and
        # resumed) must not cost the seat its move, nor make the resumed games differ.
        # (failover.py: only after an outage, not when another replica serves; asked before
        # anything is read, so that the prompts go out first, as they always did.)
        outage = not await failover.others_serving(redis, name)
        tasks.append(asyncio.create_task(failover.prompts_then_deadlines(
            service, outage, tick_s, _every, _once)))
        # A failover of Redis: put back what the lost primary took (failover.py).
        tasks.append(asyncio.create_task(_every(1.0, watch.check)))
        # Every second: a dead consumer's commands are taken within about a heartbeat's TTL
        # (recovery.py), however long claim_idle_ms is.
        tasks.append(asyncio.create_task(_every(min(1.0, claim_idle_ms / 2000),
                                                service.claim_pending)))
        tasks.append(asyncio.create_task(_every(1.0, lambda: _heartbeat(redis, name, failover.status(service)))))
        tasks.append(asyncio.create_task(_every(1.0, service.flush_latencies)))
        tasks.append(asyncio.create_task(_every(5.0, service.measure)))
        tasks.append(asyncio.create_task(_every(1.0, follow_pools)))
        tasks.append(asyncio.create_task(_every(trim_every_s, service.trim_streams)))
        if raw_mode:
            for lane in range(read_lanes):
                tasks.append(asyncio.create_task(_consume_raw(
                    service, redis, name, polling_ms, watch.reader_lane(), lane, read_lanes)))
        log.info("rules service started", consumer=name, partitions=PARTITIONS,
                 loop=type(asyncio.get_running_loop()).__module__)

    @app.on_shutdown
    async def stop_background() -> None:
        # Let them end before their connection closes (else they log a spurious failure).
        await cancel_and_wait(tasks)
        await leave(redis, "rules", name)
        await redis.aclose()

    return app


async def _consume_raw(service: RulesService, redis: Redis, name: str, block_ms: int,
                       reread: asyncio.Event | None = None, lane: int = 0,
                       lanes: int = 1) -> None:
    """Read every command stream of this lane's partitions (the organisers' and each bot
    pool's) in one call (one per partition on a Cluster); streams run concurrently, one
    stream's entries in order. When `reread` is set (a failover), our own pending entries
    once."""
    reader = GroupReader(redis, RULES_GROUP, name)
    guard = service.guard
    acks: list[tuple[str, list[bytes]]] = []  # handled, acked with the next read
    ahead: list[tuple[str, list[Entry]]] = []  # the next read, made with the last appends
    # After a failed round (a dropped connection mid-judging), our own pending entries are
    # read again at once: left to the claimer, their games would wait `claim_idle_ms` (30 s).
    # Once only: a round that fails again leaves them to the claimer, which dead-letters an
    # entry delivered too often, so one that always fails cannot hold up the lane.
    again = False
    try:
        while True:
            retrying, again = again, False
            try:
                streams = guard.readable(service.command_streams(lane, lanes))
                try:
                    if ahead:
                        reply, ahead = ahead, []
                    elif retrying or (reread is not None and reread.is_set()):
                        if reread is not None:
                            reread.clear()
                        acks = await _ack(redis, acks)
                        # (Every stream answers, most with nothing; an entry deleted while
                        # pending comes without fields: the claimer acks those.)
                        pending = await read_group(redis, RULES_GROUP, name,
                                                   {s: "0" for s in streams}, count=128)
                        reply = [(stream, kept) for stream, entries in pending
                                 if (kept := [e for e in entries if e[1] is not None])]
                    else:
                        # (the acks go first: if the read fails they are in, and if the
                        # round trip fails they are pending for the claimer, as before)
                        handled, acks = acks, []
                        reply = await _ack_and_read(redis, reader, name, handled,
                                                    {s: ">" for s in streams}, block_ms)
                    guard.recovered(streams)
                except ResponseError:
                    # One key the call cannot read fails it for every partition: read each
                    # stream on its own, repair or set aside the bad one (stream_guard.py).
                    log.warning("reading the command streams together failed; one at a time")
                    reply = await guard.read_each(streams, name, count=128)
                if reply:
                    metrics.BATCH_SIZE.observe(sum(len(entries) for _, entries in reply))
                    # Every partition's acks go in the same round trip as the next read (one
                    # AOF fsync; one that fails leaves its entries pending for the claimer,
                    # not the others), and under load that read goes with this one's appends:
                    # one round trip per read, not two (with reread pending, a plain one).
                    handled, acks = acks, []
                    try:
                        carried = await service.handle_read(
                            reply, None if reread is not None and reread.is_set()
                            else _queue_ack_and_read(handled, name, {s: ">" for s in streams}))
                    except BaseException:
                        acks = handled  # (acking again is harmless)
                        raise
                    if carried is None:
                        acks = handled
                    else:
                        ahead = _read_after(handled, carried)
                    acks += [(stream, [e[0] for e in entries]) for stream, entries in reply]
            except Exception as exc:
                # A dropped connection must not end this loop while the heartbeat goes on (a worker
                # that looks alive but reads nothing). What was read and not acked stays pending:
                # read again at once (`again`), else taken by the claimer; groups lost with the
                # server's data are made again.
                log.exception("reading commands failed; retrying")
                again = not retrying
                if "NOGROUP" in str(exc):
                    await service.prepare()
                await asyncio.sleep(0.5)
    finally:
        # (the reads go even if the acks are cut short by a stop's next cancellation: a read
        # left in flight would take entries for a consumer that never handles them)
        try:
            with contextlib.suppress(Exception):
                await _ack(redis, acks)
        finally:
            await reader.close()


async def _ack(redis: Redis, acks: list[tuple[str, list[bytes]]]) -> list[tuple[str, list[bytes]]]:
    """Ack handled entries now (one round trip); returns what is left to ack: nothing."""
    if acks:
        pipe = lean_pipeline(redis)
        for stream, ids in acks:
            pipe.xack(stream, RULES_GROUP, *ids)
        _warn_failed_acks(acks, await pipe.execute(raise_on_error=False))
    return []


def _warn_failed_acks(acks: list[tuple[str, list[bytes]]], replies: list[Any]) -> None:
    for (stream, _), acked in zip(acks, replies, strict=True):
        if isinstance(acked, Exception):
            log.warning("ack failed", stream=stream, error=str(acked))


async def _ack_and_read(redis: Redis, reader: GroupReader, name: str,
                        acks: list[tuple[str, list[bytes]]], streams: dict[str, str],
                        block_ms: int) -> list[tuple[str, list[Entry]]]:
    """The acks of what was handled, then the next read, in one pipeline (one round trip per
    batch instead of two). On a Cluster the reads go by slot, so the acks go on their own."""
    if not acks:
        return await reader.read(streams, count=128, block=block_ms)
    if is_cluster(redis):
        await _ack(redis, acks)
        return await reader.read(streams, count=128, block=block_ms)
    pipe = lean_pipeline(redis)
    for stream, ids in acks:
        pipe.xack(stream, RULES_GROUP, *ids)
    pipe.xreadgroup(RULES_GROUP, name, cast(Any, streams), count=128, block=block_ms)
    replies = await pipe.execute(raise_on_error=False)
    if isinstance(replies[-1], Exception):
        _warn_failed_acks(acks, replies[:-1])
        raise replies[-1]
    return _read_after(acks, replies)


def _queue_ack_and_read(acks: list[tuple[str, list[bytes]]], name: str,
                        streams: dict[str, str]) -> Callable[[Pipeline], object]:
    """Queue the acks of what was handled and a read that does not wait (what arrived while
    the appends were made), for the appends' pipeline (one server only: as `_ack_and_read`)."""
    def queue(pipe: Pipeline) -> None:
        for stream, ids in acks:
            pipe.xack(stream, RULES_GROUP, *ids)
        pipe.xreadgroup(RULES_GROUP, name, cast(Any, streams), count=128)
    return queue


def _read_after(acks: list[tuple[str, list[bytes]]],
                replies: list[Any]) -> list[tuple[str, list[Entry]]]:
    """The replies of `_queue_ack_and_read`'s commands: the failed acks warned of, the read's
    entries ([] if it failed: the next read, on its own, meets the error again)."""
    _warn_failed_acks(acks, replies[:-1])
    read = replies[-1] if replies else None
    if isinstance(read, Exception):
        return []
    return [(stream.decode() if isinstance(stream, bytes) else str(stream),
             cast(list[Entry], entries)) for stream, entries in read or []]


async def _heartbeat(redis: Redis, name: str, status: str) -> int:
    await beat(redis, "rules", name, status)
    return 0


async def _once(fn: Any) -> None:
    try:
        await fn()
    except Exception:
        log.exception("start-up task failed", task=getattr(fn, "__name__", "?"))


async def _every(seconds: float, fn: Any) -> None:
    while True:
        try:
            await fn()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("background task failed", task=getattr(fn, "__name__", "?"))
        await asyncio.sleep(seconds)


def run(url: str, **kwargs: Any) -> None:
    app = build_app(url, **kwargs)
    loop.run(app.run())
