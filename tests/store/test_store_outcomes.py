"""Rejection outcomes: first writer wins, so a redelivered command always gets the same answer."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis
from store_helpers import GAME, num, nums

from services.store import EventStore
from services.store.keys import COMMAND_TTL_SECONDS, game_keys

REJECTED = {"status": "rejected", "rule": "base.turn.not_your_turn"}


async def test_rejected_command_redelivered_gets_the_same_rejection(store: EventStore) -> None:
    stored = await store.record_outcome("c1", GAME, REJECTED)
    assert stored == {"game": GAME, **REJECTED}
    # Redelivered and (this time) decided differently: the first answer stands.
    again = await store.record_outcome("c1", GAME, {"status": "rejected", "rule": "other"})
    assert again == stored
    assert await store.get_outcome("c1", GAME) == stored


async def test_rejected_command_cannot_be_appended_later(
    store: EventStore, redis_client: Redis
) -> None:
    await store.create_game(GAME, num(0), {"status": "active"})
    await store.record_outcome("c1", GAME, REJECTED)
    result = await store.append(GAME, 1, "c1", nums(1))
    assert result.status == "duplicate"
    assert result.outcome == {"game": GAME, **REJECTED}
    assert await store.version(GAME) == 1
    assert await redis_client.xlen(game_keys(GAME).ev) == 1


async def test_rejection_after_an_accept_returns_the_accept(store: EventStore) -> None:
    await store.create_game(GAME, num(0), {"status": "active"})
    accepted = await store.append(GAME, 1, "c1", nums(1))
    stood = await store.record_outcome("c1", GAME, REJECTED)
    assert stood == accepted.outcome


async def test_concurrent_reject_and_accept_agree(store: EventStore) -> None:
    await store.create_game(GAME, num(0), {"status": "active"})
    for i in range(20):
        version = await store.version(GAME)
        appended, recorded = await asyncio.gather(
            store.append(GAME, version, f"c{i}", nums(i)),
            store.record_outcome(f"c{i}", GAME, REJECTED),
        )
        final = await store.get_outcome(f"c{i}", GAME)
        assert recorded == final
        assert appended.outcome == final


async def test_rejection_outcome_has_a_ttl(store: EventStore, redis_client: Redis) -> None:
    await store.record_outcome("c1", GAME, REJECTED)
    ttl = await redis_client.ttl(game_keys(GAME).cmd("c1"))
    assert COMMAND_TTL_SECONDS - 5 <= ttl <= COMMAND_TTL_SECONDS


async def test_record_outcome_refuses_a_fake_accept(store: EventStore) -> None:
    with pytest.raises(ValueError, match="accepted"):
        await store.record_outcome("c1", GAME, {"status": "accepted"})


async def test_unknown_command_has_no_outcome(store: EventStore) -> None:
    assert await store.get_outcome("never", GAME) is None
