"""Typed wrappers of the stream reads every consumer does (redis-py's replies are untyped
unions): entries come back as `(id, {field: value})` with bytes, streams named by str."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from redis.asyncio import Redis

Entry = tuple[bytes, dict[bytes, bytes]]


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


async def read_group(
    redis: Redis, group: str, consumer: str, streams: Mapping[str, str], count: int, block: int
) -> list[tuple[str, list[Entry]]]:
    """XREADGROUP over several streams; [] when nothing arrived within `block` ms."""
    reply = await redis.xreadgroup(group, consumer, cast(Any, dict(streams)), count=count, block=block)
    return [(_text(stream), cast(list[Entry], entries)) for stream, entries in cast(Any, reply or [])]


async def read(
    redis: Redis, streams: Mapping[str, str], count: int, block: int
) -> list[tuple[str, list[Entry]]]:
    """XREAD over several streams (no group); [] when nothing arrived."""
    reply = await redis.xread(cast(Any, dict(streams)), count=count, block=block)
    return [(_text(stream), cast(list[Entry], entries)) for stream, entries in cast(Any, reply or [])]
