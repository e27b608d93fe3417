"""The append script: CAS on the game version, gap-free ids, idempotency by command id."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis
from store_helpers import GAME, num, nums

from services.runtime.valkey import EmbeddedValkey
from services.store import AppendResult, CorruptLogError, EventStore
from services.store.connect import connect
from services.store.keys import OUTCOMES_TTL_SECONDS, game_keys


async def new_game(store: EventStore, game_id: str = GAME) -> None:
    await store.create_game(game_id, num(0), {"status": "active", "ruleset": "base"})


async def assert_log_consistent(redis: Redis, game_id: str, version: int) -> None:
    k = game_keys(game_id)
    assert await redis.xlen(k.ev) == version
    ids = [entry_id for entry_id, _ in await redis.xrange(k.ev)]
    assert ids == [f"{v}-0".encode() for v in range(1, version + 1)]
    assert int(await redis.hget(k.meta, "version")) == version


async def test_fifty_concurrent_appenders_at_one_version_one_wins(
    store: EventStore, redis_client: Redis
) -> None:
    await new_game(store)
    version = 1
    for round_no in range(4):
        batch = 1 + round_no  # batches of several events must stay contiguous too
        results = await asyncio.gather(
            *(
                store.append(GAME, version, f"r{round_no}-c{i}", nums(*range(batch)), scope="s0")
                for i in range(50)
            )
        )
        accepted = [r for r in results if r.status == "accepted"]
        conflicts = [r for r in results if r.status == "conflict"]
        assert len(accepted) == 1
        assert len(conflicts) == 49
        assert accepted[0].first == version + 1
        assert accepted[0].last == version + batch
        assert all(r.version == version + batch for r in conflicts)
        version += batch
        await assert_log_consistent(redis_client, GAME, version)
    feed = await redis_client.xrange(game_keys(GAME).feed)
    assert len(feed) == 1 + 4  # creation + one per committed batch, none for conflicts


async def test_same_command_twice_in_sequence_is_applied_once(
    store: EventStore, redis_client: Redis
) -> None:
    await new_game(store)
    first = await store.append(GAME, 1, "cmd-a", nums(5, 6), outcome_extra=b'{"reply":"ok"}', scope="s0")
    second = await store.append(GAME, 1, "cmd-a", nums(5, 6), outcome_extra=b'{"reply":"ok"}', scope="s0")
    assert first.status == "accepted"
    assert second.status == "duplicate"
    assert second.outcome == first.outcome
    assert first.outcome == {
        "status": "accepted",
        "game": GAME,
        "from": 2,
        "to": 3,
        "extra": {"reply": "ok"},
    }
    assert (second.first, second.last, second.version) == (2, 3, 3)
    await assert_log_consistent(redis_client, GAME, 3)
    # A redelivery even at a later expected version is still answered by the stored outcome.
    third = await store.append(GAME, 3, "cmd-a", nums(5, 6), scope="s0")
    assert third.status == "duplicate"
    await assert_log_consistent(redis_client, GAME, 3)


async def test_same_command_from_two_replicas_concurrently_is_applied_once(
    valkey_server: EmbeddedValkey, store: EventStore, redis_client: Redis
) -> None:
    await new_game(store)
    replicas = [connect(valkey_server.url), connect(valkey_server.url)]
    try:
        stores = [EventStore(r) for r in replicas]
        for round_no in range(20):
            version = 1 + round_no
            results: list[AppendResult] = await asyncio.gather(
                *(s.append(GAME, version, f"dup-{round_no}", nums(round_no), scope="s0") for s in stores)
            )
            statuses = sorted(r.status for r in results)
            assert statuses == ["accepted", "duplicate"]
            assert results[0].outcome == results[1].outcome
        await assert_log_consistent(redis_client, GAME, 21)
    finally:
        for r in replicas:
            await r.aclose()


async def test_stale_expected_version_conflicts_and_writes_nothing(
    store: EventStore, redis_client: Redis
) -> None:
    await new_game(store)
    await store.append(GAME, 1, "c1", nums(1), scope="s0")
    feed_before = await redis_client.xlen(game_keys(GAME).feed)
    result = await store.append(GAME, 1, "c2", nums(2), scope="s0")
    assert result == AppendResult("conflict", version=2)
    await assert_log_consistent(redis_client, GAME, 2)
    assert await redis_client.xlen(game_keys(GAME).feed) == feed_before
    # No outcome is stored for a conflict: the caller decides (retry with fresh state, or reject).
    assert await store.get_outcome("c2", GAME, scope="s0") is None
    # A version from the future is just as stale.
    assert (await store.append(GAME, 7, "c3", nums(3), scope="s0")).status == "conflict"


async def test_append_to_unknown_game_writes_nothing(
    store: EventStore, redis_client: Redis
) -> None:
    result = await store.append("nope", 0, "c1", nums(1), scope="s0")
    assert result.status == "missing"
    assert await redis_client.dbsize() == 0


async def test_outcomes_live_with_the_game_and_expire_once_it_is_over(
    store: EventStore, redis_client: Redis
) -> None:
    await new_game(store)
    await store.append(GAME, 1, "c1", nums(1), scope="s0")
    assert await redis_client.ttl(game_keys(GAME).outcomes) == -1  # the game goes on
    await store.append(GAME, 2, "c2", nums(2), scope="s0", finished_winner=0)
    ttl = await redis_client.ttl(game_keys(GAME).outcomes)
    assert OUTCOMES_TTL_SECONDS - 5 <= ttl <= OUTCOMES_TTL_SECONDS
    assert await store.get_outcome("c1", GAME, scope="s0") == {
        "status": "accepted",
        "game": GAME,
        "from": 2,
        "to": 2,
    }


async def test_events_carry_payload_and_command_id_and_feed_names_the_batch(
    store: EventStore, redis_client: Redis
) -> None:
    await new_game(store)
    await store.append(GAME, 1, "c1", nums(7, 8), scope="s0")
    k = game_keys(GAME)
    entries = await redis_client.xrange(k.ev, "2-0", "3-0")
    assert [f[b"__data__"] for _, f in entries] == nums(7, 8)
    assert {f[b"cmd"] for _, f in entries} == {b"c1"}
    _, last_feed = (await redis_client.xrevrange(k.feed, count=1))[0]
    assert last_feed == {b"game": GAME.encode(), b"from": b"2", b"to": b"3", b"cmd": b"c1"}


async def test_log_ahead_of_meta_is_refused_without_writing(
    store: EventStore, redis_client: Redis
) -> None:
    await new_game(store)
    k = game_keys(GAME)
    await redis_client.xadd(k.ev, {"__data__": num(9)}, id="5-0")  # corrupt on purpose
    with pytest.raises(CorruptLogError):
        await store.append(GAME, 1, "c1", nums(1), scope="s0")
    assert await redis_client.xlen(k.ev) == 2
    assert await store.version(GAME) == 1
    assert await store.get_outcome("c1", GAME, scope="s0") is None


async def test_bad_arguments_are_refused_before_touching_redis(store: EventStore) -> None:
    with pytest.raises(ValueError, match="at least one event"):
        await store.append(GAME, 0, "c", [], scope="s0")
    with pytest.raises(ValueError, match="JSON"):
        await store.append(GAME, 0, "c", nums(1), outcome_extra=b"not json", scope="s0")
    with pytest.raises(ValueError, match="command id"):
        await store.append(GAME, 0, "bad id", nums(1), scope="s0")
    with pytest.raises(ValueError, match="game id"):
        await store.append("", 0, "c", nums(1), scope="s0")
