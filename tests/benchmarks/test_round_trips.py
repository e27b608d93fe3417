"""The round-trip probe of `hexlog bench e2e` (services/cli/bench_cost.py RoundTrips) is a
measurement beside the run: a server that goes away ends the probe, not the run."""

from __future__ import annotations

import asyncio

import pytest

from services.cli.bench_cost import RoundTrips
from services.runtime.valkey import EmbeddedValkey
from services.store.connect import connect

pytestmark = pytest.mark.single_server  # it kills its server


async def test_a_lost_server_ends_the_probe_and_keeps_what_it_measured(
        fresh_valkey: EmbeddedValkey) -> None:
    redis = connect(fresh_valkey.url)
    trips = RoundTrips(redis, every_s=0.002)
    try:
        await trips.begin(idle_pings=5)
        await asyncio.sleep(0.2)
        fresh_valkey.kill()
        assert trips.task is not None
        await asyncio.wait_for(asyncio.shield(trips.task), timeout=30)  # ended, not raised
        await trips.finish()
        measured = trips.report()["round_trip_ms"]
        assert measured["samples"] >= 10, measured
        assert 0 < measured["p50"] <= measured["p99"], measured
        assert measured["idle_p50"] > 0, measured
    finally:
        await redis.aclose()
