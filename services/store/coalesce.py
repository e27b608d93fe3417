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

A call that must wait for a replica (`evalsha_waited`, services/store/durability.py) gets a
WAIT after the batch, on the same connection: one WAIT answers every script of the turn, as
one fsync does.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis
from redis.typing import EncodableT

from services.store.connect import is_cluster
from services.store.durability import then_wait
from services.store.lean import lean_pipeline


@dataclass(slots=True)
class _Call:
    args: tuple[EncodableT, ...]
    reply: asyncio.Future[Any]
    wait: tuple[int, int] | None = None  # (replicas, ms): answer (reply, replicas that acked)


class CoalescingRunner:
    """`evalsha` as on a `Redis` client, with the calls of one loop turn pipelined together."""

    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._direct = is_cluster(redis)
        self._queued: list[_Call] = []
        self._flushes: set[asyncio.Task[None]] = set()

    async def evalsha(self, sha: str, numkeys: int, *keys_and_args: EncodableT) -> Any:
        if self._direct:
            return await self.redis.evalsha(sha, numkeys, *keys_and_args)  # type: ignore[misc]
        return await self._queue(_Call((sha, numkeys, *keys_and_args), self._future()))

    async def evalsha_waited(self, sha: str, numkeys: int, *keys_and_args: EncodableT,
                             replicas: int, wait_ms: int) -> tuple[Any, int]:
        """`evalsha`, then WAIT on the same connection: (the script's reply, how many replicas
        acknowledged it)."""
        if self._direct:  # a cluster: down the connection of the slot's node
            replies, acks = await then_wait(self.redis, str(keys_and_args[0]),
                                            [("EVALSHA", sha, numkeys, *keys_and_args)],
                                            replicas, wait_ms)
            if isinstance(replies[0], Exception):
                raise replies[0]
            return replies[0], acks
        reply, acks = await self._queue(_Call((sha, numkeys, *keys_and_args), self._future(),
                                              (replicas, wait_ms)))
        return reply, int(acks)

    def _future(self) -> asyncio.Future[Any]:
        return asyncio.get_running_loop().create_future()

    async def _queue(self, call: _Call) -> Any:
        if not self._queued:
            # After the tasks already ready to run this turn: they may queue calls too.
            asyncio.get_running_loop().call_soon(self._flush)
        self._queued.append(call)
        return await call.reply

    async def script_load(self, source: str) -> Any:
        return await self.redis.script_load(source)

    def _flush(self) -> None:
        batch, self._queued = self._queued, []
        task = asyncio.get_running_loop().create_task(self._send(batch))
        self._flushes.add(task)
        task.add_done_callback(self._flushes.discard)

    async def _send(self, batch: list[_Call]) -> None:
        replies = [call.reply for call in batch]
        waits = [call.wait for call in batch if call.wait is not None]
        acks = 0
        try:
            if waits:
                results, acks = await then_wait(
                    self.redis, "", [("EVALSHA", *call.args) for call in batch],
                    max(w[0] for w in waits), max(w[1] for w in waits))
            else:
                pipe: Any = lean_pipeline(self.redis)  # its execute_command is untyped
                for call in batch:
                    pipe.execute_command("EVALSHA", *call.args)
                results = await pipe.execute(raise_on_error=False)
        except BaseException as exc:  # the connection failed (or we are cancelled): all failed
            failure = exc if isinstance(exc, Exception) else ConnectionError("the call was cancelled")
            for reply in replies:
                if not reply.done():
                    reply.set_exception(failure)
            if failure is not exc:
                raise
            return  # the callers have it; nobody awaits this task
        for call, result in zip(batch, results, strict=True):
            if call.reply.done():  # its caller was cancelled
                continue
            if isinstance(result, Exception):
                call.reply.set_exception(result)
            else:
                call.reply.set_result(result if call.wait is None else (result, acks))
