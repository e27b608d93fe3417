"""Rejection outcomes: first writer wins, so a redelivered command always gets the same answer."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis
from store_helpers import GAME, num, nums

from services.store import EventStore
from services.store.keys import OUTCOMES_TTL_SECONDS, game_keys

REJECTED = {"status": "rejected", "rule": "base.turn.not_your_turn"}


async def test_rejected_command_redelivered_gets_the_same_rejection(store: EventStore) -> None:
    stored = await store.record_outcome("c1", GAME, REJECTED, scope="s0")
    assert stored == {"game": GAME, **REJECTED}
    # Redelivered and (this time) decided differently: the first answer stands.
    again = await store.record_outcome("c1", GAME, {"status": "rejected", "rule": "other"}, scope="s0")
    assert again == stored
    assert await store.get_outcome("c1", GAME, scope="s0") == stored


async def test_rejected_command_cannot_be_appended_later(
    store: EventStore, redis_client: Redis
) -> None:
    await store.create_game(GAME, num(0), {"status": "active"})
    await store.record_outcome("c1", GAME, REJECTED, scope="s0")
    result = await store.append(GAME, 1, "c1", nums(1), scope="s0")
    assert result.status == "duplicate"
    assert result.outcome == {"game": GAME, **REJECTED}
    assert await store.version(GAME) == 1
    assert await redis_client.xlen(game_keys(GAME).ev) == 1


async def test_rejection_after_an_accept_returns_the_accept(store: EventStore) -> None:
    await store.create_game(GAME, num(0), {"status": "active"})
    accepted = await store.append(GAME, 1, "c1", nums(1), scope="s0")
    stood = await store.record_outcome("c1", GAME, REJECTED, scope="s0")
    assert stood == accepted.outcome


async def test_concurrent_reject_and_accept_agree(store: EventStore) -> None:
    await store.create_game(GAME, num(0), {"status": "active"})
    for i in range(20):
        version = await store.version(GAME)
        appended, recorded = await asyncio.gather(
            store.append(GAME, version, f"c{i}", nums(i), scope="s0"),
            store.record_outcome(f"c{i}", GAME, REJECTED, scope="s0"),
        )
        final = await store.get_outcome(f"c{i}", GAME, scope="s0")
        assert recorded == final
        assert appended.outcome == final


async def test_the_outcome_of_a_request_for_no_game_expires(
    store: EventStore, redis_client: Redis
) -> None:
    """A refused create leaves an outcome for a game that does not exist: it expires, and a
    game made later under that id keeps its own outcomes for as long as it runs."""
    await store.record_outcome("c1", GAME, REJECTED, scope="org")
    ttl = await redis_client.ttl(game_keys(GAME).outcomes)
    assert OUTCOMES_TTL_SECONDS - 5 <= ttl <= OUTCOMES_TTL_SECONDS
    await store.create_game(GAME, num(0), {"status": "live"}, command_id="c2")
    assert await redis_client.ttl(game_keys(GAME).outcomes) == -1
    assert await store.get_outcome("c1", GAME, scope="org") == {"game": GAME, **REJECTED}


async def test_record_outcome_refuses_a_fake_accept(store: EventStore) -> None:
    with pytest.raises(ValueError, match="accepted"):
        await store.record_outcome("c1", GAME, {"status": "accepted"}, scope="s0")


async def test_unknown_command_has_no_outcome(store: EventStore) -> None:
    assert await store.get_outcome("never", GAME, scope="s0") is None
