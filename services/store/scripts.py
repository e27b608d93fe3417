"""Lua scripts of the store, shipped as package files and run by SHA (EVALSHA).

Why not `Redis.register_script`: this keeps the script text in reviewable `.lua` files, types the
call, and makes the fallback explicit: the server forgets scripts on restart (and each Cluster
node has its own cache), so on NOSCRIPT we load it and retry once.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import NoScriptError
from redis.typing import EncodableT

from services.store.coalesce import CoalescingRunner
from services.store.durability import then_wait


@dataclass(frozen=True, slots=True)
class LuaScript:
    name: str
    source: str
    sha: str

    async def run(self, redis: Redis | CoalescingRunner, keys: list[str],
                  args: list[EncodableT]) -> Any:
        try:
            return await redis.evalsha(self.sha, len(keys), *keys, *args)
        except NoScriptError:
            await redis.script_load(self.source)
            return await redis.evalsha(self.sha, len(keys), *keys, *args)

    async def run_waited(self, redis: Redis | CoalescingRunner, keys: list[str],
                         args: list[EncodableT], replicas: int, wait_ms: int) -> tuple[Any, int]:
        """`run`, then WAIT on the same connection (services/store/durability.py): the reply,
        and how many replicas acknowledged it."""
        call: tuple[EncodableT, ...] = ("EVALSHA", self.sha, len(keys), *keys, *args)
        try:
            if isinstance(redis, CoalescingRunner):
                return await redis.evalsha_waited(self.sha, len(keys), *keys, *args,
                                                  replicas=replicas, wait_ms=wait_ms)
            return _reply(await then_wait(redis, keys[0], [call], replicas, wait_ms), 0)
        except NoScriptError:
            # The server forgot it (a restart; a replica promoted, which never loaded it):
            # loaded down the same connection as the call, so on the same server.
            client = redis.redis if isinstance(redis, CoalescingRunner) else redis
            loaded = await then_wait(client, keys[0], [("SCRIPT", "LOAD", self.source), call],
                                     replicas, wait_ms)
            return _reply(loaded, 1)


def _reply(waited: tuple[list[Any], int], index: int) -> tuple[Any, int]:
    replies, acks = waited
    if isinstance(replies[index], Exception):
        raise replies[index]
    return replies[index], acks


@cache
def script(name: str) -> LuaScript:
    """The script `services/store/<name>.lua`, read once per process."""
    source = files("services.store").joinpath(f"{name}.lua").read_text(encoding="utf-8")
    return LuaScript(name=name, source=source, sha=hashlib.sha1(source.encode()).hexdigest())
