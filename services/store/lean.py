"""A pipeline for the hot paths: the same commands and replies as redis-py's, less work per call.

redis-py's asyncio `Pipeline.execute` (8.x) does, for every batch, a round of bookkeeping the
services' per-command loops do not use: HIMPORT preparation, observability hooks, a timeout
context per reply read (each an event-loop timer made and cancelled), and the reply options
copied per command. The rules service and the bot worker send one pipeline per read of their
streams: redis-py's pipeline was 15% of the rules service's samples and a quarter of the bot
worker's, timers alone 5% of the latter's (py-spy; benchmarks/cost.md). `LeanPipeline`
keeps the `Pipeline` interface (every command method queues as before) and replaces `execute`:
one write, the replies read in order under one timeout, each through the client's response
callback, a failed command's error in its place. Connection errors are retried by the
connection's own `Retry` (a Sentinel-managed connection asks where the primary is when it
connects again), as redis-py does for a pipeline.

Only for a plain server or a Sentinel primary: a Cluster pipeline splits by node, and a
transaction (MULTI/EXEC) or WATCH goes through redis-py's own path. A command queued with
options this path does not handle (never-decode, empty-response) sends the batch through
redis-py's path too.
"""

from __future__ import annotations

import asyncio
import inspect
import math
from collections.abc import Mapping
from typing import Any, cast

from redis._parsers.response_callbacks import _get_response_callback
from redis.asyncio import Redis
from redis.asyncio.client import CommandStackT, Pipeline
from redis.asyncio.connection import Connection
from redis.client import EMPTY_RESPONSE, NEVER_DECODE
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from services.store.connect import is_cluster

_OPTIONS_ELSEWHERE = (NEVER_DECODE, EMPTY_RESPONSE)


class LeanPipeline(Pipeline):
    """A non-transactional `Pipeline` whose `execute` skips redis-py's per-batch bookkeeping."""

    async def execute(self, raise_on_error: bool = True) -> list[Any]:
        stack = self.command_stack
        if self.watching or self.scripts or any(
                o in options for _, options in stack for o in _OPTIONS_ELSEWHERE):
            return await super().execute(raise_on_error)
        if not stack:
            return []
        conn = self.connection or await cast(Any, self.connection_pool).get_connection()
        self.connection = conn
        try:
            replies: list[Any] = await conn.retry.call_with_retry(
                lambda: self._send_and_read(conn, stack), lambda _: conn.disconnect())
        finally:
            await cast(Any, self).reset()  # (untyped in redis-py)
        if raise_on_error:
            for reply in replies:
                if isinstance(reply, Exception):
                    raise reply
        return replies

    async def _send_and_read(self, conn: Connection,
                             stack: CommandStackT) -> list[Any]:
        await conn.send_packed_command(conn.pack_commands([args for args, _ in stack]))
        replies: list[Any] = []
        try:
            # One timer for the batch, not one per reply (the per-read timeout is turned off
            # with math.inf; the server answers a pipeline's commands together anyway).
            async with asyncio.timeout(conn.socket_timeout):
                for args, options in stack:
                    try:
                        reply = await conn.read_response(timeout=math.inf)
                    except ResponseError as error:
                        replies.append(error)
                        continue
                    replies.append(await self._shaped(conn, args[0], reply, options))
        except TimeoutError as exc:
            # The rest of the batch's replies may still come: this connection is done with.
            await conn.disconnect(nowait=True)
            raise RedisTimeoutError(
                f"Timeout reading from {getattr(conn, 'host', 'the server')}") from exc
        except BaseException:
            await conn.disconnect(nowait=True)  # replies left unread on the socket
            raise
        return replies

    async def _shaped(self, conn: Connection, command: Any, reply: Any,
                      options: Mapping[str, Any]) -> Any:
        """The reply as the client's response callback shapes it (as `Redis.parse_response`)."""
        if getattr(conn, "_resp2_fallback", False):  # asked for RESP3, the server spoke RESP2
            callback = _get_response_callback(self.response_callbacks, command, conn)
        else:
            callback = self.response_callbacks.get(command)
        if callback is None:
            return reply
        if "keys" in options:
            options = {k: v for k, v in options.items() if k != "keys"}
        shaped = callback(reply, **options)
        return await shaped if inspect.isawaitable(shaped) else shaped


def lean_pipeline(redis: Redis) -> Pipeline:
    """A non-transactional pipeline: a `LeanPipeline` on a plain server or a Sentinel primary,
    redis-py's own on a Cluster."""
    if is_cluster(redis):
        return redis.pipeline(transaction=False)
    return LeanPipeline(redis.connection_pool, redis.response_callbacks, False, None)
