"""One record changed in one transaction on its one key (WATCH/MULTI), so several gateways
and matchmakers may change it at once, on a single server or a Cluster."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import msgspec
from redis.asyncio import Redis
from redis.exceptions import WatchError

T = TypeVar("T", bound=msgspec.Struct)
R = TypeVar("R")


class Busy(RuntimeError):
    """A record changed by others every time we tried."""


async def change(redis: Redis, key: str, kind: type[T], apply: Callable[[T], R],
                 missing: Callable[[], R] | None = None) -> R:
    """Apply `apply` to the record at `key` and store it, keeping the key's expiry; when
    there is none, `missing()` (or LookupError)."""
    for _ in range(50):
        async with redis.pipeline(transaction=True) as pipe:
            try:
                await pipe.watch(key)
                raw = await pipe.get(key)
                if raw is None:
                    await cast(Any, pipe).unwatch()
                    if missing is None:
                        raise LookupError(key)
                    return missing()
                record = msgspec.json.decode(raw, type=kind)
                result = apply(record)
                cast(Any, pipe).multi()
                pipe.set(key, msgspec.json.encode(record), keepttl=True)
                await pipe.execute()
                return result
            except WatchError:
                continue
    raise Busy(f"{key}: changed by others every time; try again")
