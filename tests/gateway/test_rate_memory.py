"""The rate limiter's memory is bounded without forgetting everyone at once: a flood of new
addresses pushes out the least recently seen clients only, so a client that keeps asking stays
limited. Over HTTP against a gateway that remembers 100 clients (a victim limited, then 400
addresses, one request each, the victim asking again among them), and in-process at the
default bound of 100,000."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from urllib.parse import urlsplit

import pytest
from helpers import outsider
from witness import witnessed

from services.gateway.limits import Buckets, GatewayLimits, Rate


@pytest.fixture
def forgetful_gateway(start_gateway: Callable[..., str]) -> str:
    return start_gateway("--trust", "127.0.0.1", "--limit", "clients=100",
                         "--limit", "reads=0.01/5")


async def status_from(base: str, source: str, path: str) -> int:
    """A GET on a connection of its own from `source`; the status."""
    url = urlsplit(base)
    reader, writer = await asyncio.open_connection(url.hostname, url.port,
                                                   local_addr=(source, 0))
    writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
    line = await asyncio.wait_for(reader.readline(), 30)
    writer.close()
    return int(line.split()[1])


async def test_a_flood_of_addresses_does_not_free_an_active_client(
        forgetful_gateway: str) -> None:
    victim = outsider(0)
    async with witnessed(forgetful_gateway) as witness:
        statuses = [await status_from(forgetful_gateway, victim, "/v1/tables")
                    for _ in range(6)]
        assert statuses == [200] * 5 + [429]
        for wave in range(40):  # 400 new addresses, ten at a time
            flood = await asyncio.gather(*(
                status_from(forgetful_gateway, outsider(100 + wave * 10 + i), "/v1/tables")
                for i in range(10)))
            assert flood == [200] * 10
            assert await status_from(forgetful_gateway, victim, "/v1/tables") == 429, wave
        await witness.moved()
    witness.assert_healthy()


def test_the_default_bound_keeps_memory_and_the_active_clients() -> None:
    limits = GatewayLimits(reads=Rate(0.001, 3))
    buckets = Buckets(limits)
    for _ in range(3):
        assert buckets.take("reads", "victim") == 0.0
    began = time.monotonic()
    for i in range(250_000):
        buckets.take("reads", f"flood-{i}")
        if i % 1000 == 0:
            assert buckets.take("reads", "victim") > 0, i
        assert len(buckets.level) <= limits.clients
    assert len(buckets.level) == limits.clients
    assert ("reads", "flood-0") not in buckets.level  # the idle ones went first
    assert time.monotonic() - began < 10
