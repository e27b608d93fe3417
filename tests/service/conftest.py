"""Fixtures for the rules-service tests: the service in-process (its own batch handler, or the
real FastStream app), bot workers as asyncio tasks, and real worker processes that are always
reaped. All on the session's embedded Valkey, flushed before each test by `redis_client`."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from redis.asyncio import Redis
from service_helpers import Worker, spawn, spawn_rules

from bots.worker import BotWorker
from services.rules.app import build_app
from services.rules.service import RulesService
from services.runtime.valkey import EmbeddedValkey


@pytest.fixture
def url(valkey_server: EmbeddedValkey, redis_client: Redis) -> str:
    """The server's URL, once the keyspace is empty (depends on the flushing fixture)."""
    return valkey_server.url


@pytest.fixture
async def service(redis_client: Redis) -> RulesService:
    """A rules replica in-process, driven explicitly with `service_helpers.pump`."""
    svc = RulesService(redis_client, "rules-test-a")
    await svc.prepare()
    return svc


@pytest.fixture
async def replica(url: str) -> AsyncIterator[RulesService]:
    """A second replica: its own connection and consumer name, the same Redis."""
    client = Redis.from_url(url)
    yield RulesService(client, "rules-test-b")
    await client.aclose()


@pytest.fixture
async def rules_app(url: str) -> AsyncIterator[Callable[..., Awaitable[Any]]]:
    """Start the real FastStream rules app (subscribers, claimer, deadline keeper) in this
    event loop; every app started is stopped at the end of the test."""
    apps: list[Any] = []

    async def start(consumer: str = "rules-app", **kwargs: Any) -> Any:
        app = build_app(url, consumer=consumer, **kwargs)
        await app.start()
        apps.append(app)
        return app

    yield start
    for app in reversed(apps):
        await asyncio.wait_for(app.stop(), 15)


@pytest.fixture
async def bot_workers(url: str) -> AsyncIterator[Callable[[Sequence[str]], BotWorker]]:
    """Start BotWorker tasks serving some pools; stopped at the end of the test."""
    stop = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    clients: list[Redis] = []

    def start(pools: Sequence[str]) -> BotWorker:
        client = Redis.from_url(url)
        clients.append(client)
        worker = BotWorker(client, pools)
        tasks.append(asyncio.create_task(worker.run(stop)))
        return worker

    yield start
    stop.set()
    for task in tasks:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 5)
    for client in clients:
        await client.aclose()


@pytest.fixture
def processes(url: str, tmp_path: Path) -> Iterator[Callable[..., Worker]]:
    """Spawn real `hexlog` processes on the test's server; all are killed at the end."""
    started: list[Worker] = []

    def start(kind: str = "rules", *args: str, **env: str) -> Worker:
        log_path = tmp_path / f"{kind}-{len(started)}.log"
        if kind == "rules":
            worker = spawn_rules(url, log_path, **env)
        else:
            worker = spawn(["serve", kind, *args], url, log_path, heartbeat="-", **env)
        started.append(worker)
        return worker

    yield start
    for worker in started:
        worker.kill()
