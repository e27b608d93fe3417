"""A stuck game ends `hexlog bench e2e` with an error after a while without events, instead of
a wait for ever (services/cli/bench_e2e.py `wait_finished`)."""

from __future__ import annotations

import asyncio
import time

import pytest
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from services.cli.bench_e2e import FinishWatch, wait_finished
from services.cli.errors import CliError
from services.store.keys import game_keys

# One key read with HMGET: nothing a cluster changes, so not in CI's cluster pass.
pytestmark = pytest.mark.single_server


async def test_a_game_without_new_events_ends_the_wait_with_an_error(redis_client: Redis) -> None:
    await redis_client.hset(game_keys("bench-stuck").meta,
                            mapping={"status": "running", "version": 7})
    began = time.monotonic()
    with pytest.raises(CliError, match=r"game bench-stuck is stuck: no new event for 0 s "
                                       r"\(at version 7, running\)"):
        await wait_finished(redis_client, "bench-stuck", stall_s=0.3, poll_s=0.02)
    assert 0.3 <= time.monotonic() - began < 5


async def test_a_game_that_moves_on_is_waited_for_to_its_end(redis_client: Redis) -> None:
    meta = game_keys("bench-slow").meta
    await redis_client.hset(meta, mapping={"status": "running", "version": 1})

    async def play() -> None:  # an event every 0.2 s: never 0.3 s without one
        for version in range(2, 8):
            await asyncio.sleep(0.2)
            await redis_client.hset(meta, "version", version)
        await redis_client.hset(meta, "status", "finished")

    player = asyncio.create_task(play())
    assert await wait_finished(redis_client, "bench-slow", stall_s=0.3, poll_s=0.02) == 7
    await player


async def test_redis_away_ends_every_wait_instead_of_hanging() -> None:
    nobody = Redis.from_url("redis://127.0.0.1:1", socket_connect_timeout=0.2)  # nothing there
    watch = FinishWatch(nobody, poll_s=0.02)
    try:
        waits = [asyncio.create_task(watch.wait(game)) for game in ("bench-a", "bench-b")]
        done, _ = await asyncio.wait(waits, timeout=20)
        assert done == set(waits)  # neither hangs on a poller that died
        for wait in waits:
            with pytest.raises(RedisConnectionError):
                wait.result()
    finally:
        await nobody.aclose()
