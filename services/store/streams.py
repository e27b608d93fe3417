"""Typed wrappers of the stream reads every consumer does (redis-py's replies are untyped
unions): entries come back as `(id, {field: value})` with bytes, streams named by str."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any, cast

from redis.asyncio import Redis

from services.store.connect import is_cluster
from services.tasks import cancel_and_wait

Entry = tuple[bytes, dict[bytes, bytes]]


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


async def read_group(
    redis: Redis, group: str, consumer: str, streams: Mapping[str, str], count: int,
    block: int | None = None,
) -> list[tuple[str, list[Entry]]]:
    """XREADGROUP over several streams; [] when nothing arrived within `block` ms (None: do not
    wait). On a Cluster, one call per slot, together (and then all of them wait `block`: a
    consumer loop uses GroupReader instead)."""
    if is_cluster(redis):
        groups = by_slot(streams)
        if len(groups) > 1:
            replies = await asyncio.gather(*(
                read_group(redis, group, consumer, subset, count, block)
                for subset in groups.values()))
            return [item for reply in replies for item in reply]
    reply = await redis.xreadgroup(group, consumer, cast(Any, dict(streams)), count=count, block=block)
    return [(_text(stream), cast(list[Entry], entries)) for stream, entries in cast(Any, reply or [])]


def by_slot(streams: Mapping[str, str]) -> dict[str, dict[str, str]]:
    """The streams grouped by hash tag: what one call may read on a Cluster."""
    groups: dict[str, dict[str, str]] = {}
    for stream, start in streams.items():
        groups.setdefault(slot_tag(stream), {})[stream] = start
    return groups


async def read(
    redis: Redis, streams: Mapping[str, str], count: int, block: int
) -> list[tuple[str, list[Entry]]]:
    """XREAD over several streams (no group); [] when nothing arrived."""
    reply = await redis.xread(cast(Any, dict(streams)), count=count, block=block)
    return [(_text(stream), cast(list[Entry], entries)) for stream, entries in cast(Any, reply or [])]


def slot_tag(stream: str) -> str:
    """The hash tag of a key (`017` of `hexlog:{017}:cmds`), or the key itself without one."""
    start = stream.find("{")
    end = stream.find("}", start + 1)
    return stream[start + 1:end] if 0 <= start < end - 1 else stream


class GroupReader:
    """XREADGROUP over streams of several partitions, on one server or on a Cluster.

    One server: one call, as `read_group`. A Cluster refuses a call whose keys are in more than
    one slot (CROSSSLOT), so there each partition's streams are read by a call of its own, all
    blocking concurrently; `read` returns as soon as any partition has entries, and the other
    calls stay in flight for the next `read` (never cancelled while the reader is in use: an
    entry read by a cancelled call would sit pending until the claimer took it).
    """

    def __init__(self, redis: Redis, group: str, consumer: str) -> None:
        self.redis = redis
        self.group = group
        self.consumer = consumer
        self._inflight: dict[str, asyncio.Task[list[tuple[str, list[Entry]]]]] = {}

    async def read(self, streams: Mapping[str, str], count: int,
                   block: int) -> list[tuple[str, list[Entry]]]:
        if not is_cluster(self.redis):
            return await read_group(self.redis, self.group, self.consumer, streams, count, block)
        for tag, subset in by_slot(streams).items():
            if tag not in self._inflight:
                self._inflight[tag] = asyncio.create_task(
                    read_group(self.redis, self.group, self.consumer, subset, count, block))
        if not self._inflight:
            await asyncio.sleep(block / 1000)
            return []
        await asyncio.wait(self._inflight.values(), return_when=asyncio.FIRST_COMPLETED)
        out: list[tuple[str, list[Entry]]] = []
        error: BaseException | None = None
        for tag, task in list(self._inflight.items()):
            if task.done():
                del self._inflight[tag]
                if task.exception() is not None:
                    error = error or task.exception()
                else:
                    out.extend(task.result())
        if error is not None and not out:
            raise error
        return out

    async def close(self) -> None:
        """Cancel the calls in flight (at shutdown)."""
        tasks = list(self._inflight.values())
        self._inflight.clear()
        await cancel_and_wait(tasks)
