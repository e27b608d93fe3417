"""A real gateway for each test: `hexlog serve gateway` on a free port, beside a real rules
service and a bot worker (random, heuristic), all on the session's Valkey; `start_gateway`
starts one with other limits."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable

import httpx
import pytest
from redis.asyncio import Redis
from service_helpers import Worker, wait_started


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_healthy(base: str, worker: Worker, timeout: float = 30.0) -> None:
    until = time.monotonic() + timeout
    while time.monotonic() < until:
        if worker.proc.poll() is not None:
            raise AssertionError(f"the gateway exited:\n{worker.output()}")
        try:
            if httpx.get(f"{base}/health", timeout=1.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"the gateway did not answer in {timeout}s:\n{worker.output()}")


@pytest.fixture
async def services(redis_client: Redis, processes: Callable[..., Worker]) -> Worker:
    """The rules service and a worker of the shipped bots, started."""
    rules = processes("rules")
    await wait_started(redis_client, rules)
    processes("bots", "--bots", "random,heuristic")
    until = time.monotonic() + 30
    while not await redis_client.exists("hexlog:pool:bot:heuristic"):
        assert time.monotonic() < until, "no bot worker registered"
        time.sleep(0.05)
    return rules


@pytest.fixture
def start_gateway(services: Worker, processes: Callable[..., Worker]) -> Callable[..., str]:
    """Start a gateway with these `hexlog serve gateway` options; its base URL."""

    def start(*options: str) -> str:
        port = free_port()
        worker = processes("gateway", "--port", str(port), *options)
        base = f"http://127.0.0.1:{port}"
        wait_healthy(base, worker)
        return base

    return start


@pytest.fixture
def gateway(start_gateway: Callable[..., str]) -> str:
    """The gateway's base URL. The suite's own clients (the HTTP bots, the chat adapter, the
    players of tests/gateway/witness.py) come from 127.0.0.1, which it trusts as an operator
    trusts their chat adapter; attacks come from other loopback addresses, which it does not."""
    return start_gateway("--trust", "127.0.0.1")
