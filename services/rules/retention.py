"""Retention: streams that would otherwise grow for ever are trimmed once what they hold has
been handled.

An entry is trimmed when it is older than the stream's retention *and* every consumer group of
the stream has read and acknowledged it (XTRIM MINID below the oldest pending entry and the
last delivered one): a consumer that is down loses nothing while it is away, however long.
Stream ids are milliseconds, so age is read from the id. The rules service runs this for the
command streams (handled commands: their bodies are kept with the events they caused), the
prompt streams of every pool (turn keys of moves long made) and the partition feeds. Finished
games drop their snapshot and, after a day, their secrets (moves.py `finish`).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

import structlog
from redis.asyncio import Redis
from redis.exceptions import ResponseError

log = structlog.get_logger("hexlog.rules")


def _ms(entry_id: Any) -> tuple[int, int]:
    text = entry_id.decode() if isinstance(entry_id, bytes) else str(entry_id)
    ms, _, seq = text.partition("-")
    return int(ms), int(seq or 0)


async def safe_floor(redis: Redis, stream: str, retention_ms: int) -> tuple[int, int] | None:
    """The lowest id to keep in `stream`, or None if the stream does not exist."""
    floor = (int(time.time() * 1000) - retention_ms, 0)
    try:
        groups = await redis.xinfo_groups(stream)
    except ResponseError:  # no such stream
        return None
    for g in groups:
        last = g.get("last-delivered-id")
        if last is not None:
            ms, seq = _ms(last)
            floor = min(floor, (ms, seq + 1))  # entries after it were never read by this group
        if int(g.get("pending", 0)):
            summary = await redis.xpending(stream, g["name"])
            if summary.get("min") is not None:
                floor = min(floor, _ms(summary["min"]))
    return floor


async def trim(redis: Redis, streams: Iterable[str], retention_ms: int) -> int:
    """Trim each stream to what is younger than `retention_ms` or not yet handled by all its
    groups; returns how many entries were removed."""
    removed = 0
    for stream in streams:
        try:
            floor = await safe_floor(redis, stream, retention_ms)
            if floor is None or floor[0] <= 0:
                continue
            removed += int(await redis.xtrim(stream, minid=f"{floor[0]}-{floor[1]}"))
        except ResponseError:  # one bad key (another type) must not keep the rest untrimmed
            log.warning("stream not trimmed", stream=stream, exc_info=True)
    return removed
