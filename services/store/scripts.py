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


@cache
def script(name: str) -> LuaScript:
    """The script `services/store/<name>.lua`, read once per process."""
    source = files("services.store").joinpath(f"{name}.lua").read_text(encoding="utf-8")
    return LuaScript(name=name, source=source, sha=hashlib.sha1(source.encode()).hexdigest())
