"""The rules worker outlives trouble on its Redis connections: when the server drops every
client connection (a network blip, a proxy or failover closing them), it reconnects and goes on
processing commands, in both consumer modes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import pytest
from redis.asyncio import Redis
from service_helpers import (
    Script,
    create_request,
    created_outcome,
    send,
    send_create,
    wait_outcome,
)

from services.rules.batch import ReadJudge
from services.store import EventStore
from services.store.connect import is_cluster
from services.store.keys import ORGANISER


@pytest.mark.parametrize(
    "mode", ["batched", pytest.param("faststream", marks=pytest.mark.single_server)])
async def test_worker_goes_on_after_its_connections_are_dropped(
    mode: str, rules_app: Any, store: EventStore, redis_client: Redis
) -> None:
    await rules_app(consumer_mode=mode)
    req = create_request(f"g-blip-{mode}")
    await send_create(redis_client, req)
    await wait_outcome(store, req.command_id, req.game_id, scope=ORGANISER)
    script = Script.start(req, (await created_outcome(store, req) or {})["credentials"])

    # Drop every other client's connection, mid-read (the worker blocks in XREADGROUP).
    await redis_client.execute_command("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes",
                                       **({"target_nodes": cast(Any, redis_client).get_nodes()}
                                          if is_cluster(redis_client) else {}))

    move, _ = script.next()
    await send(redis_client, move)
    outcome = await wait_outcome(store, move.command_id, req.game_id, timeout=15, scope=move.scope)
    assert outcome["status"] == "accepted"


async def test_a_read_that_fails_while_judged_is_judged_again_at_once(
    rules_app: Any, store: EventStore, redis_client: Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A round that fails after its read (the connection dropped while the commands were being
    judged) leaves them pending; they are read again at once, not after the claimer's 30 s."""
    await rules_app()  # claim_idle_ms: the default 30 s
    req = create_request("g-judged-again")
    await send_create(redis_client, req)
    await wait_outcome(store, req.command_id, req.game_id, scope=ORGANISER)
    script = Script.start(req, (await created_outcome(store, req) or {})["credentials"])
    move, _ = script.next()

    handle = ReadJudge.handle
    failed: list[str] = []

    async def fail_once(self: ReadJudge, reads: Sequence[tuple[str, Any]],
                        after: Any = None) -> Any:
        if not failed:
            failed.append("once")
            raise ConnectionError("the connection dropped while judging (injected)")
        return await handle(self, reads, after)

    monkeypatch.setattr(ReadJudge, "handle", fail_once)
    await send(redis_client, move)
    outcome = await wait_outcome(store, move.command_id, req.game_id, timeout=5, scope=move.scope)
    assert failed == ["once"]
    assert outcome["status"] == "accepted"
