"""`EventStore.append_many`: several games' appends in one pipeline, for the rules service's
pass over one read (services/rules/batch.py), each still its own compare-and-set with its own
outcome, and a script the server forgot loaded again."""

from __future__ import annotations

import pytest
from redis.asyncio import Redis
from store_helpers import GAME, num, nums
from test_store_coalesced_appends import CountingWrites

from services.store import EventStore
from services.store.keys import game_keys
from services.store.results import AppendResult
from services.store.store import append_call


@pytest.mark.single_server
async def test_each_call_gets_its_own_result_in_one_write(
    store: EventStore, redis_client: Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = [f"{GAME}-{i}" for i in range(6)]
    for game in games:
        await store.create_game(game, num(0), {"status": "active"})
    await store.append(games[4], 1, "first", nums(1), scope="s0")
    assert await store.batches_appends()
    calls = [
        append_call(games[0], 1, "a", nums(1, 2), scope="s0"),
        append_call(games[1], 7, "b", nums(1), scope="s0"),  # not at version 7: a conflict
        append_call(games[2], 1, "c", nums(1), scope="s1"),
        append_call(games[3], 1, "d", nums(1), scope="s0"),
        append_call(games[4], 2, "first", nums(2), scope="s0"),  # an id already answered
        append_call(games[5], 1, "f", nums(1), scope="s0"),
    ]
    counter = CountingWrites(monkeypatch)
    results, _ = await store.append_many(calls)
    assert counter.sent == 1
    assert all(isinstance(r, AppendResult) for r in results)
    statuses = [r.status for r in results if isinstance(r, AppendResult)]
    assert statuses == ["accepted", "conflict", "accepted", "accepted", "duplicate", "accepted"]
    assert await redis_client.xlen(game_keys(games[0]).ev) == 3
    assert await redis_client.xlen(game_keys(games[1]).ev) == 1
    assert await redis_client.xlen(game_keys(games[4]).ev) == 2


@pytest.mark.single_server
async def test_a_forgotten_script_is_loaded_again(store: EventStore, redis_client: Redis) -> None:
    await store.create_game(GAME, num(0), {"status": "active"})
    await redis_client.script_flush()
    [result], _ = await store.append_many([append_call(GAME, 1, "a", nums(1), scope="s0")])
    assert isinstance(result, AppendResult)
    assert result.status == "accepted"
    assert result.version == 2


@pytest.mark.cluster_only
async def test_a_cluster_does_not_batch_appends(store: EventStore) -> None:
    """A cluster pipeline splits by node on its own terms: the rules service appends one by
    one there."""
    assert not await store.batches_appends()


@pytest.mark.single_server
async def test_commands_queued_after_the_appends_share_their_round_trip(
    store: EventStore, redis_client: Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rules service's acks and next read ride with its appends: one write, their replies
    after the appends'."""
    await store.create_game(GAME, num(0), {"status": "active"})
    await store.append(GAME, 1, "warm", nums(1), scope="s0")
    await redis_client.xadd("other", {"a": "1"})
    counter = CountingWrites(monkeypatch)
    results, after = await store.append_many(
        [append_call(GAME, 2, "a", nums(2), scope="s0")],
        lambda pipe: (pipe.xlen("other"), pipe.xrange("other")))
    assert counter.sent == 1
    assert [r.status for r in results if isinstance(r, AppendResult)] == ["accepted"]
    assert after[0] == 1
    assert [fields for _, fields in after[1]] == [{b"a": b"1"}]
