"""Shared fixtures: one embedded Valkey per test session (FLUSHALL before each test) and a fresh
server per test for crash tests. Everything runs on private Unix sockets, no TCP."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from redis.asyncio import Redis

from services.runtime.valkey import EmbeddedValkey
from services.store import EventStore


@pytest.fixture(scope="session")
def valkey_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedValkey]:
    """One server for the whole session; the socket path is kept short by EmbeddedValkey."""
    server = EmbeddedValkey(tmp_path_factory.mktemp("valkey")).start()
    yield server
    server.stop()


@pytest.fixture
async def redis_client(valkey_server: EmbeddedValkey) -> AsyncIterator[Redis]:
    """A fresh client on the session server, on an empty keyspace."""
    client = Redis.from_url(valkey_server.url)
    await client.flushall()
    yield client
    await client.aclose()


@pytest.fixture
def store(redis_client: Redis) -> EventStore:
    return EventStore(redis_client)


@pytest.fixture
def valkey_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def fresh_valkey(request: pytest.FixtureRequest, valkey_dir: Path) -> Iterator[EmbeddedValkey]:
    """A server of its own for one test (crash tests: kill() and start() it at will).

    Parametrize indirectly with an appendfsync policy ("always", "everysec"); default everysec.
    """
    server = EmbeddedValkey(valkey_dir, appendfsync=getattr(request, "param", "everysec")).start()
    yield server
    server.stop()
