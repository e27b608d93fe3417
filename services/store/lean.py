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
from collections.abc import Mapping
from typing import Any, cast

from redis._parsers.response_callbacks import _get_response_callback
from redis.asyncio import Redis
from redis.asyncio.client import CommandStackT, Pipeline
from redis.asyncio.connection import Connection
from redis.client import EMPTY_RESPONSE, NEVER_DECODE
from redis.exceptions import ConnectionError as RedisConnectionError
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
        """Write the batch and read its replies under one timer. The connection's own
        `send_packed_command` and `read_response` each make a timer (the write a task as well,
        through `asyncio.wait_for`) and wrap every reply in their error handling; this talks
        to its writer and its parser directly and translates their errors the same way."""
        packed = conn.pack_commands([args for args, _ in stack])
        raw = cast(Any, conn)  # the writer, the parser and these calls are redis-py's, untyped
        if not conn.is_connected:
            await raw.connect_check_health(check_health=False)
        await raw.check_health()
        replies: list[Any] = []
        try:
            async with asyncio.timeout(conn.socket_timeout):
                writer = raw._writer
                if writer is None or writer.transport.is_closing():
                    raise RedisConnectionError("Connection closed by the server before write")
                writer.writelines(packed)
                await writer.drain()
                parser = raw._parser
                for args, options in stack:
                    reply = await parser.read_response(disable_decoding=False)
                    if isinstance(reply, ResponseError):
                        replies.append(reply)
                        continue
                    shaped = self._shaped(conn, args[0], reply, options)
                    replies.append(await shaped if inspect.isawaitable(shaped) else shaped)
        except TimeoutError as exc:
            # The rest of the batch's replies may still come: this connection is done with.
            await conn.disconnect(nowait=True)
            raise RedisTimeoutError(
                f"Timeout reading from {getattr(conn, 'host', 'the server')}") from exc
        except OSError as exc:  # as redis-py: a socket error is a ConnectionError (retried)
            await conn.disconnect(nowait=True)
            raise RedisConnectionError(f"Error talking to the server: {exc!r}") from exc
        except BaseException:
            await conn.disconnect(nowait=True)  # replies left unread on the socket
            raise
        if conn.health_check_interval:
            raw.next_health_check = asyncio.get_running_loop().time() + conn.health_check_interval
        return replies

    def _shaped(self, conn: Connection, command: Any, reply: Any,
                options: Mapping[str, Any]) -> Any:
        """The reply as the client's response callback shapes it (as `Redis.parse_response`;
        an awaitable where the callback gives one: no coroutine per reply otherwise)."""
        if getattr(conn, "_resp2_fallback", False):  # asked for RESP3, the server spoke RESP2
            callback = _get_response_callback(self.response_callbacks, command, conn)
        else:
            callback = self.response_callbacks.get(command)
        if callback is None:
            return reply
        if "keys" in options:
            options = {k: v for k, v in options.items() if k != "keys"}
        return callback(reply, **options)


def lean_pipeline(redis: Redis) -> Pipeline:
    """A non-transactional pipeline: a `LeanPipeline` on a plain server or a Sentinel primary,
    redis-py's own on a Cluster."""
    if is_cluster(redis):
        return redis.pipeline(transaction=False)
    return LeanPipeline(redis.connection_pool, redis.response_callbacks, False, None)
