"""The rules service as a FastStream app on the partition command streams.

One batch subscriber per partition stream (consumer group `rules`, created before the broker
starts), manual acks (XACK after the batch is settled — FastStream's nack/reject do nothing on
Redis), and a raw parser: FastStream's own would choke on a non-UTF-8 body before our handler
could dead-letter it. Two background tasks: the claimer (XAUTOCLAIM of entries left pending by
a dead consumer) and the deadline keeper (default moves for silent seats).
"""

from __future__ import annotations

import asyncio
import os
import socket
from collections.abc import Mapping
from typing import Any

import structlog
from faststream import AckPolicy, FastStream
from faststream.redis import RedisBroker, StreamSub
from faststream.redis.annotations import RedisBatchStreamMessage
from redis.asyncio import Redis

from services.rules.protocol import SERVICE_TTL_S, heartbeat_key
from services.rules.service import RulesService
from services.store.keys import PARTITIONS, RULES_GROUP, commands_key

log = structlog.get_logger("hexlog.rules")


async def _raw_parser(message: Mapping[str, Any], original: Any) -> Any:
    """Let FastStream build its message from placeholders; keep the raw entries for us."""
    safe = {**message, "data": [{b"__data__": b"null"} for _ in message["data"]]}
    msg = await original(safe)
    msg.raw_message = message
    return msg


def consumer_name() -> str:
    return f"rules-{socket.gethostname()}-{os.getpid()}"


def build_app(
    url: str,
    *,
    consumer: str | None = None,
    claim_idle_ms: int = 30_000,
    tick_s: float = 0.1,
    polling_ms: int = 100,
) -> FastStream:
    name = consumer or consumer_name()
    broker = RedisBroker(url, logger=None)
    app = FastStream(broker, logger=None)
    redis = Redis.from_url(url)
    service = RulesService(redis, name, claim_idle_ms=claim_idle_ms)
    tasks: list[asyncio.Task[None]] = []

    async def on_batch(body: Any, msg: RedisBatchStreamMessage) -> None:
        raw = msg.raw_message
        await service.handle_batch(raw["channel"], raw["message_ids"], raw["data"])

    for p in range(PARTITIONS):
        sub = broker.subscriber(
            stream=StreamSub(commands_key(p), group=RULES_GROUP, consumer=name, batch=True,
                             max_records=128, polling_interval=polling_ms),
            ack_policy=AckPolicy.MANUAL,
            parser=_raw_parser,
            decoder=lambda m: None,
        )
        sub(on_batch)

    @app.on_startup
    async def create_groups() -> None:
        await service.prepare()

    @app.after_startup
    async def start_background() -> None:
        tasks.append(asyncio.create_task(_every(tick_s, service.enforce_deadlines)))
        tasks.append(asyncio.create_task(_every(claim_idle_ms / 2000, service.claim_pending)))
        tasks.append(asyncio.create_task(_every(1.0, lambda: _heartbeat(redis, name))))
        log.info("rules service started", consumer=name, partitions=PARTITIONS)

    @app.on_shutdown
    async def stop_background() -> None:
        for t in tasks:
            t.cancel()
        await redis.delete(heartbeat_key("rules", name))
        await redis.aclose()

    return app


async def _heartbeat(redis: Redis, name: str) -> int:
    await redis.set(heartbeat_key("rules", name), "1", ex=SERVICE_TTL_S)
    return 0


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
    asyncio.run(app.run())
