"""The "replica churn" stall (docs/operations.md): rules replicas started one after another,
faster than a prompt's deadline, while a seat stays silent. Each replica used to prompt every
live game again at its start, re-arming the deadline, so the silent seat never got its default
move while they kept coming (a chaos run left a game at its first move for 60 s). A replica
that starts while another serves comes after no outage: it prompts nothing again, and the
deadline runs out as it should (services/rules/failover.py)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from service_helpers import create_request, send_create

from services.rules.app import build_app
from services.runtime.valkey import EmbeddedValkey
from services.store import EventStore
from services.store.connect import connect

pytestmark = pytest.mark.slow
DEADLINE_MS = 1_500
NEW_REPLICA_EVERY_S = 0.7  # each start used to push the deadline 1.5 s on
CHURN_S = 15.0


async def test_a_silent_seat_gets_its_default_move_while_replicas_keep_coming(
        tmp_path: Path) -> None:
    server = EmbeddedValkey(tmp_path / "valkey").start()
    redis = connect(server.url)
    store = EventStore(redis)
    apps: list[Any] = []
    started = 0

    async def start() -> None:
        nonlocal started
        app = build_app(server.url, consumer=f"churn-{started}", claim_idle_ms=1_000)
        started += 1
        await app.start()
        apps.append(app)

    try:
        await start()
        await start()
        request = create_request("g-churn", controllers=("human",) * 4,
                                 deadline_ms=DEADLINE_MS)
        await send_create(redis, request)
        end = time.monotonic() + CHURN_S
        while await store.version("g-churn") <= 1 and time.monotonic() < end:
            await asyncio.sleep(NEW_REPLICA_EVERY_S)
            await asyncio.wait_for(apps.pop(0).stop(), 15)  # the oldest goes, a new one comes
            await start()
        entries = await store.read_entries("g-churn")
        assert len(entries) > 1, f"no move in {CHURN_S:.0f} s of replicas coming and going"
        assert entries[1].command_id.startswith("deadline:g-churn:1:")  # the silent seat's
        assert started > 3  # replicas did keep coming
    finally:
        for app in apps:
            await asyncio.wait_for(app.stop(), 15)
        await redis.aclose()
        server.stop()
