"""Script calls made in the same turn of the event loop, sent to the server together.

The rules service judges every partition's next command concurrently, so one read of the
command streams ends with a burst of append scripts, one per game, all issued before any reply
can arrive. Sent one by one, each is its own socket write, its own reply read and its own trip
through the connection pool; on a single server the write alone was the largest cost of the
rules process (benchmarks/README.md, "Where the time goes"). Here the calls of one turn share one
non-transactional pipeline: one write, one read, the same replies in the same order.

Only the sending is shared: each call is still its own script run with its own reply or error,
so one game's refusal or NOSCRIPT never touches another's. On a Redis Cluster the calls go one
by one (a cluster pipeline splits by node and retries on its own terms; the saving is for one
server).
"""

from __future__ import annotations

import asyncio
from typing import Any, cast

from redis.asyncio import Redis
from redis.typing import EncodableT

from services.store.connect import is_cluster


class CoalescingRunner:
    """`evalsha` as on a `Redis` client, with the calls of one loop turn pipelined together."""

    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._direct = is_cluster(redis)
        self._queued: list[tuple[tuple[EncodableT, ...], asyncio.Future[Any]]] = []
        self._flushes: set[asyncio.Task[None]] = set()

    async def evalsha(self, sha: str, numkeys: int, *keys_and_args: EncodableT) -> Any:
        if self._direct:
            return await self.redis.evalsha(sha, numkeys, *keys_and_args)  # type: ignore[misc]
        loop = asyncio.get_running_loop()
        reply: asyncio.Future[Any] = loop.create_future()
        if not self._queued:
            # After the tasks already ready to run this turn: they may queue calls too.
            loop.call_soon(self._flush)
        self._queued.append(((sha, numkeys, *keys_and_args), reply))
        return await reply

    async def script_load(self, source: str) -> Any:
        return await self.redis.script_load(source)

    def _flush(self) -> None:
        batch, self._queued = self._queued, []
        task = asyncio.get_running_loop().create_task(self._send(batch))
        self._flushes.add(task)
        task.add_done_callback(self._flushes.discard)

    async def _send(self, batch: list[tuple[tuple[EncodableT, ...], asyncio.Future[Any]]]) -> None:
        replies = [reply for _, reply in batch]
        try:
            if len(batch) == 1:
                results = [await cast(Any, self.redis).execute_command("EVALSHA", *batch[0][0])]
            else:
                pipe: Any = self.redis.pipeline(transaction=False)  # its execute_command is untyped
                for args, _ in batch:
                    pipe.execute_command("EVALSHA", *args)
                results = await pipe.execute(raise_on_error=False)
        except BaseException as exc:  # the connection failed (or we are cancelled): all failed
            failure = exc if isinstance(exc, Exception) else ConnectionError("the call was cancelled")
            for reply in replies:
                if not reply.done():
                    reply.set_exception(failure)
            if failure is not exc:
                raise
            return  # the callers have it; nobody awaits this task
        for reply, result in zip(replies, results, strict=True):
            if reply.done():  # its caller was cancelled
                continue
            if isinstance(result, Exception):
                reply.set_exception(result)
            else:
                reply.set_result(result)
