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
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

import structlog
from redis.asyncio import Redis
from redis.asyncio.client import Pipeline

log = structlog.get_logger("hexlog.rules")
T = TypeVar("T")


def _ms(entry_id: Any) -> tuple[int, int]:
    text = entry_id.decode() if isinstance(entry_id, bytes) else str(entry_id)
    ms, _, seq = text.partition("-")
    return int(ms), int(seq or 0)


async def trim(redis: Redis, streams: Iterable[str], retention_ms: int) -> int:
    """Trim each stream to what is younger than `retention_ms` or not yet handled by all its
    groups; returns how many entries were removed. Three round trips for all the streams
    (their groups, the groups' oldest pending entries, the trims), not two or three each."""
    streams = list(streams)
    newest = (int(time.time() * 1000) - retention_ms, 0)
    if not streams or newest[0] <= 0:
        return 0
    floors: dict[str, tuple[int, int]] = {}
    asks: list[tuple[str, Any]] = []  # (stream, group) with entries pending
    infos = await _each(redis, streams, lambda pipe, s: pipe.xinfo_groups(s))
    for stream, groups in zip(streams, infos, strict=True):
        if isinstance(groups, Exception):
            continue  # no such stream (or not a stream: the stream guard deals with that)
        floor = newest
        for g in groups:
            last = g.get("last-delivered-id")
            if last is not None:
                ms, seq = _ms(last)
                floor = min(floor, (ms, seq + 1))  # entries after it were never read by it
            if int(g.get("pending", 0)):
                asks.append((stream, g["name"]))
        floors[stream] = floor
    pending = await _each(redis, asks, lambda pipe, ask: pipe.xpending(*ask))
    for (stream, _), summary in zip(asks, pending, strict=True):
        if isinstance(summary, Exception):
            floors.pop(stream, None)
        elif summary.get("min") is not None:
            floors[stream] = min(floors[stream], _ms(summary["min"]))
    kept = [(stream, f"{ms}-{seq}") for stream, (ms, seq) in floors.items() if ms > 0]
    removed = 0
    trimmed = await _each(redis, kept, lambda pipe, k: pipe.xtrim(k[0], minid=k[1]))
    for (stream, _), done in zip(kept, trimmed, strict=True):
        if isinstance(done, Exception):  # one bad key must not keep the rest untrimmed
            log.warning("stream not trimmed", stream=stream, error=str(done))
        else:
            removed += int(done)
    return removed


async def _each(redis: Redis, calls: Sequence[T],
                queue: Callable[[Pipeline, T], object]) -> list[Any]:
    """One pipeline of a call per item of `calls`: each reply, or the error it met."""
    if not calls:
        return []
    pipe = redis.pipeline(transaction=False)
    for call in calls:
        queue(pipe, call)
    return list(await pipe.execute(raise_on_error=False))
