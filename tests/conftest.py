"""Shared fixtures: one embedded Valkey per test session (FLUSHALL before each test), a fresh
server per test for crash tests, and the rules service in-process (its own batch handler, or the
real FastStream app), bot workers as asyncio tasks, and real worker processes that are always
reaped. Everything runs on private Unix sockets, no TCP.

`pytest --cluster N` runs the same tests against an embedded N-master Valkey Cluster (on TCP
ports of 127.0.0.1) instead: `valkey_server` is the cluster, clients are `RedisCluster`s, and a
test that needs a server of its own gets the session's cluster, flushed. Tests about the
single embedded server itself (kill and restart it, its socket) are marked `single_server`
and deselected there.

`tests/service/service_helpers.py` (games, signed commands, stream inspection) is importable
from every test directory."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, cast

import pytest
from redis.asyncio import Redis

sys.path.insert(0, str(Path(__file__).parent / "service"))
sys.path.insert(0, str(Path(__file__).parent / "audit"))
sys.path.insert(0, str(Path(__file__).parent))

from service_helpers import Worker, spawn, spawn_rules  # noqa: E402
from suite_progress import SuiteProgress  # noqa: E402

from bots.worker import BotWorker  # noqa: E402
from services.rules.app import build_app  # noqa: E402
from services.rules.service import RulesService  # noqa: E402
from services.runtime.cluster import EmbeddedCluster  # noqa: E402
from services.runtime.valkey import EmbeddedValkey  # noqa: E402
from services.store import EventStore  # noqa: E402
from services.store.connect import connect, flush_everything  # noqa: E402


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--cluster", type=int, default=0, metavar="N",
                     help="run against an embedded N-master Valkey Cluster")


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):  # the process that reports (xdist's controller)
        config.pluginmanager.register(SuiteProgress(config), "hexlog-suite-progress")
    config.addinivalue_line(
        "markers", "single_server: about one embedded server (not collected with --cluster)")
    config.addinivalue_line(
        "markers", "cluster_only: about a Redis Cluster (collected only with --cluster)")
    config.addinivalue_line(
        "markers", "compiled_only: compares the compiled engine with the source (collected "
                   "only when the engine is compiled, or HEXLOG_REQUIRE_COMPILED=1)")


def pytest_sessionstart(session: pytest.Session) -> None:
    """HEXLOG_REQUIRE_COMPILED=1 (CI's passes on the compiled engine): a run that would import
    the interpreted engine (none built, or a build older than the source) stops at once, so a
    pass said to test the compiled engine cannot test the source instead."""
    if os.environ.get("HEXLOG_REQUIRE_COMPILED") != "1":
        return
    from services.rules.build import engine_build, stale

    if engine_build() != "compiled":
        pytest.exit("HEXLOG_REQUIRE_COMPILED=1 but the engine is not compiled"
                    + (f" (older than its source: {', '.join(stale()[:3])})" if stale() else
                       " (scripts/build_engine.py --require builds it)"), returncode=1)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests for the other kind of server are deselected, not skipped: each pass of CI runs
    every test it collects, and a skip there would hide a test that never ran."""
    others = ["single_server" if config.getoption("--cluster") else "cluster_only"]
    if not compiled_engine():
        others.append("compiled_only")
    deselected = [item for item in items
                  if any(item.get_closest_marker(other) for other in others)]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = [item for item in items if item not in deselected]


def compiled_engine() -> bool:
    """Whether this run has a compiled engine to compare (CI's compiled pass requires one)."""
    from services.rules.build import engine_build

    return engine_build() == "compiled" or os.environ.get("HEXLOG_REQUIRE_COMPILED") == "1"


def cluster_masters(config: pytest.Config) -> int:
    return int(config.getoption("--cluster") or 0)


@pytest.fixture(scope="session")
def valkey_server(pytestconfig: pytest.Config,
                  tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedValkey]:
    """One server (or cluster) for the whole session; the socket path is kept short by
    EmbeddedValkey."""
    masters = cluster_masters(pytestconfig)
    if masters:
        cluster = EmbeddedCluster(tmp_path_factory.mktemp("cluster"), masters).start()
        yield cast(EmbeddedValkey, cluster)  # the tests use its `url` only
        cluster.stop()
        return
    server = EmbeddedValkey(tmp_path_factory.mktemp("valkey")).start()
    yield server
    server.stop()


@pytest.fixture
async def redis_client(valkey_server: EmbeddedValkey) -> AsyncIterator[Redis]:
    """A fresh client on the session server, on an empty keyspace."""
    client = connect(valkey_server.url)
    await flush_everything(client)
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
    With --cluster: the session's cluster, flushed (a test that kills it is `single_server`).
    """
    if cluster_masters(request.config):
        cluster = cast(EmbeddedCluster, request.getfixturevalue("valkey_server"))
        cluster.flush()
        yield cast(EmbeddedValkey, cluster)
        return
    server = EmbeddedValkey(valkey_dir, appendfsync=getattr(request, "param", "everysec")).start()
    yield server
    server.stop()


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
    client = connect(url)
    yield RulesService(client, "rules-test-b")
    await client.aclose()


@pytest.fixture
async def rules_app(url: str) -> AsyncIterator[Callable[..., Awaitable[Any]]]:
    """Start the real FastStream rules app (subscribers, claimer, deadline keeper) in this
    event loop; every app started is stopped at the end of the test."""
    apps: list[Any] = []

    async def start(consumer: str = "rules-app", **kwargs: Any) -> Any:
        # (the faststream consumer reads one server: its tests are marked single_server)
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

    def start(pools: Sequence[str], pace_ms: int = 0) -> BotWorker:
        client = connect(url)
        clients.append(client)
        worker = BotWorker(client, pools, pace_ms=pace_ms)
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
