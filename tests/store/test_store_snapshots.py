"""Snapshots: a cache that never goes backwards, and fold(snapshot + tail) == fold(all events).

The fold is a toy (events are JSON numbers) so these tests do not depend on the engine; it is
order-sensitive on purpose, so a tail applied twice, skipped or reordered changes the result.
"""

from __future__ import annotations

import random

import msgspec
from redis.asyncio import Redis
from store_helpers import GAME, num, nums

from services.store import EventStore, Snapshot
from services.store.keys import game_keys

SCHEMA = 1
RULES = "rules-1"
MOD = 2**61 - 1


class Toy(msgspec.Struct, frozen=True):
    acc: int
    count: int


def init(payload: bytes) -> Toy:
    return Toy(acc=msgspec.json.decode(payload, type=int), count=1)


def apply(state: Toy, payload: bytes) -> Toy:
    x = msgspec.json.decode(payload, type=int)
    return Toy(acc=(state.acc * 31 + x) % MOD, count=state.count + 1)


def decode_toy(raw: bytes) -> Toy:
    return msgspec.json.decode(raw, type=Toy)


async def game_with(store: EventStore, values: list[int]) -> None:
    await store.create_game(GAME, num(values[0]), {"status": "active"})
    await store.append(GAME, 1, "c-rest", nums(*values[1:]), scope="s0")


async def full_fold(store: EventStore) -> Toy:
    loaded = await store.load_state(GAME, init=init, apply=apply)
    assert loaded is not None
    return loaded.state


async def test_snapshot_never_goes_backwards(store: EventStore) -> None:
    await game_with(store, list(range(10)))
    assert await store.save_snapshot(GAME, 5, SCHEMA, RULES, b"five")
    assert not await store.save_snapshot(GAME, 4, SCHEMA, RULES, b"four")
    assert not await store.save_snapshot(GAME, 5, SCHEMA, RULES, b"five again")
    assert await store.load_snapshot(GAME) == Snapshot(5, SCHEMA, RULES, b"five")
    assert await store.save_snapshot(GAME, 8, SCHEMA, RULES, b"eight")
    assert await store.load_snapshot(GAME) == Snapshot(8, SCHEMA, RULES, b"eight")


async def test_snapshot_beyond_the_log_is_refused(store: EventStore) -> None:
    await game_with(store, list(range(10)))
    assert not await store.save_snapshot(GAME, 11, SCHEMA, RULES, b"future")
    assert await store.load_snapshot(GAME) is None
    assert not await store.save_snapshot("no-such-game", 1, SCHEMA, RULES, b"x")
    assert await store.save_snapshot(GAME, 10, SCHEMA, RULES, b"ten")


async def test_snapshot_of_other_rules_may_be_replaced_by_an_older_one(store: EventStore) -> None:
    await game_with(store, list(range(10)))
    assert await store.save_snapshot(GAME, 9, SCHEMA, "rules-0", b"old rules")
    assert await store.save_snapshot(GAME, 3, SCHEMA, RULES, b"new rules")
    assert await store.load_snapshot(GAME) == Snapshot(3, SCHEMA, RULES, b"new rules")


async def test_fold_of_snapshot_plus_tail_equals_full_fold_at_random_cuts(
    store: EventStore, redis_client: Redis
) -> None:
    rng = random.Random(20240611)
    values = [rng.randrange(-1000, 1000) for _ in range(120)]
    await game_with(store, values)
    expected = await full_fold(store)
    assert expected.count == len(values)
    for cut in [1, len(values), *rng.sample(range(2, len(values)), 25)]:
        await redis_client.delete(game_keys(GAME).snap)
        prefix = await store.read(GAME, count=cut)
        state = init(prefix[0][1])
        for _, payload in prefix[1:]:
            state = apply(state, payload)
        assert await store.save_snapshot(GAME, cut, SCHEMA, RULES, msgspec.json.encode(state))
        loaded = await store.load_state(
            GAME,
            init=init,
            apply=apply,
            snapshot_decode=decode_toy,
            schema=SCHEMA,
            rules_version=RULES,
        )
        assert loaded is not None
        assert loaded.snapshot_version == cut
        assert loaded.version == len(values)
        assert loaded.state == expected


async def test_mismatched_or_broken_snapshot_is_ignored(store: EventStore) -> None:
    await game_with(store, list(range(20)))
    expected = await full_fold(store)
    bogus = msgspec.json.encode(Toy(acc=-1, count=-1))
    for schema, rules, state in [
        (SCHEMA + 1, RULES, bogus),  # other state schema
        (SCHEMA, "rules-0", bogus),  # other rules version
        (SCHEMA, RULES, b"{not json"),  # does not decode
    ]:
        await store.redis.delete(game_keys(GAME).snap)
        assert await store.save_snapshot(GAME, 10, schema, rules, state)
        loaded = await store.load_state(
            GAME,
            init=init,
            apply=apply,
            snapshot_decode=decode_toy,
            schema=SCHEMA,
            rules_version=RULES,
        )
        assert loaded is not None
        assert loaded.snapshot_version == 0
        assert loaded.state == expected


async def test_load_state_of_unknown_game_is_none(store: EventStore) -> None:
    assert await store.load_state("nope", init=init, apply=apply) is None
