"""Fixtures for the tournament tests: `hexlog` commands as real processes on a Valkey of the
test's own (a tournament spawns the rules, projections and bot services as child processes,
which must not see another test's keys), and one finished tournament shared by the module's
read-only tests."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from redis.asyncio import Redis
from tournament_helpers import Hexlog, standings_of

from services.runtime.cluster import EmbeddedCluster
from services.runtime.valkey import EmbeddedValkey
from services.store.connect import connect

# The tournament most tests look at: 3 duplicate sets of random vs heuristic, 2 + 2 seats.
# Deadlines of 3 s: shorter than the resume test's downtime, so a restart that let deadlines
# run out while no rules service was up would show (default moves the first run never made).
BASELINE = ("tournament", "--bots", "random,heuristic", "--games", "12", "--seed", "tests-baseline",
            "--deadline-ms", "3000", "--concurrency", "4", "--json")


@pytest.fixture
def hexlog(fresh_valkey: EmbeddedValkey, tmp_path: Path) -> Iterator[Hexlog]:
    h = Hexlog(fresh_valkey.url, tmp_path)
    yield h
    h.kill_all()


@pytest.fixture
async def redis(fresh_valkey: EmbeddedValkey) -> AsyncIterator[Redis]:
    client = connect(fresh_valkey.url)
    yield client
    await client.aclose()


@dataclass
class Finished:
    url: str
    result: dict[str, Any]  # the `--json` output
    hexlog: Hexlog


@pytest.fixture(scope="session")
def baseline(pytestconfig: pytest.Config,
             tmp_path_factory: pytest.TempPathFactory) -> Iterator[Finished]:
    """BASELINE played to the end once, on a server (or with --cluster, a cluster) of its own
    (left running for the tests that read it; the services it started have exited with it)."""
    tmp = tmp_path_factory.mktemp("baseline")
    masters = int(pytestconfig.getoption("--cluster") or 0)
    server: EmbeddedValkey | EmbeddedCluster = (
        EmbeddedCluster(tmp / "data", masters) if masters
        else EmbeddedValkey(tmp / "data", appendfsync="everysec")).start()
    h = Hexlog(server.url, tmp)
    try:
        p = h.run(*BASELINE, timeout=150)
        yield Finished(server.url, standings_of(p.stdout()), h)
    finally:
        h.kill_all()
        server.stop()
