"""A process that follows many games at once gets a connection for each (issue 34, item 14).

redis-py 8 caps an asyncio pool at 100 connections unless told otherwise, and
`hexlog tournament --concurrency 128` died at once with "Too many connections" (each game's
follower blocks on a connection of its own). `services.store.connect.connect` sets the cap;
the commands' `--concurrency` is bounded well inside it (services/cli/options.py).
"""

from __future__ import annotations

import asyncio

from redis.asyncio import Redis

from services.cli.options import MAX_CONCURRENCY
from services.store.connect import MAX_CONNECTIONS, connect


async def test_one_client_blocks_on_more_streams_at_once_than_redis_pys_default_pool(
        valkey_server: object, redis_client: Redis) -> None:
    client = connect(valkey_server.url)  # type: ignore[attr-defined]
    followers = 150  # over redis-py's default of 100
    try:
        reads = [asyncio.create_task(client.xread({f"hexlog:{{000}}:follow-{i}": "$"}, block=3000))
                 for i in range(followers)]
        await asyncio.sleep(0.5)  # every read now holds its connection, blocked
        for i in range(followers):
            await redis_client.xadd(f"hexlog:{{000}}:follow-{i}", {"v": i})
        replies = await asyncio.gather(*reads)
    finally:
        await client.aclose()
    assert all(reply for reply in replies)
    assert MAX_CONCURRENCY * 2 < MAX_CONNECTIONS  # a follower and a request for each game
