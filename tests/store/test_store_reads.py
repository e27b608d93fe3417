"""Creating games, reading logs and meta, rulings, prompts and consumer groups."""

from __future__ import annotations

import pytest
from redis.asyncio import Redis
from store_helpers import GAME, num, nums

from services.store import CorruptLogError, EventStore, GameExistsError
from services.store.keys import GAMES_INDEX, game_keys


async def test_create_game_writes_meta_event_one_feed_and_index(
    store: EventStore, redis_client: Redis
) -> None:
    meta = {"status": "setup", "ruleset": "base", "seed_sha256": "ab" * 32}
    await store.create_game(GAME, num(42), meta)
    assert await store.version(GAME) == 1
    stored = await store.meta(GAME)
    assert stored is not None
    assert {k: stored[k] for k in meta} == meta
    assert stored["version"] == "1"
    assert stored["created_at"]  # filled in when the caller gives none
    assert await store.read(GAME) == [(1, num(42))]
    _, feed = (await redis_client.xrange(game_keys(GAME).feed))[0]
    assert feed[b"game"] == GAME.encode()
    assert (feed[b"from"], feed[b"to"]) == (b"1", b"1")
    assert await store.games() == [GAME]


async def test_create_game_twice_is_refused_and_changes_nothing(store: EventStore) -> None:
    await store.create_game(GAME, num(1), {"status": "setup"})
    with pytest.raises(GameExistsError):
        await store.create_game(GAME, num(2), {"status": "other"})
    assert await store.read(GAME) == [(1, num(1))]
    meta = await store.meta(GAME)
    assert meta is not None
    assert meta["status"] == "setup"


async def test_create_game_refuses_to_set_the_version(store: EventStore) -> None:
    with pytest.raises(ValueError, match="version"):
        await store.create_game(GAME, num(1), {"version": 9})


async def test_read_after_version_and_count(store: EventStore) -> None:
    await store.create_game(GAME, num(0), {})
    await store.append(GAME, 1, "c1", nums(1, 2, 3, 4), scope="s0")
    assert await store.read(GAME) == list(enumerate(nums(0, 1, 2, 3, 4), start=1))
    assert await store.read(GAME, after_version=3) == [(4, num(3)), (5, num(4))]
    assert await store.read(GAME, after_version=1, count=2) == [(2, num(1)), (3, num(2))]
    assert await store.read(GAME, after_version=5) == []


async def test_unknown_game_reads_empty(store: EventStore) -> None:
    assert await store.read("nope") == []
    assert await store.version("nope") == 0
    assert await store.meta("nope") is None


async def test_read_detects_a_gap(store: EventStore, redis_client: Redis) -> None:
    await store.create_game(GAME, num(0), {})
    await redis_client.xadd(game_keys(GAME).ev, {"__data__": num(9)}, id="3-0")
    with pytest.raises(CorruptLogError):
        await store.read(GAME)


async def test_games_index_lists_games_oldest_first(store: EventStore, redis_client: Redis) -> None:
    for g in ("b", "a", "c"):
        await store.create_game(g, num(0), {})
    assert await store.games() == ["b", "a", "c"]
    assert await redis_client.zcard(GAMES_INDEX) == 3


async def test_rulings_and_prompts_are_streams_of_the_game(
    store: EventStore, redis_client: Redis
) -> None:
    k = game_keys(GAME)
    rid = await store.append_ruling(GAME, {"cmd": "c1", "seat": 2, "rule": "base.build.distance"})
    pid = await store.publish_prompt(GAME, b'{"seat":1}')
    assert [(i.decode(), f) for i, f in await redis_client.xrange(k.rulings)] == [
        (rid, {b"cmd": b"c1", b"seat": b"2", b"rule": b"base.build.distance"})
    ]
    assert [(i.decode(), f) for i, f in await redis_client.xrange(k.prompts)] == [
        (pid, {b"__data__": b'{"seat":1}'})
    ]


async def test_ensure_group_creates_stream_and_group_once(
    store: EventStore, redis_client: Redis
) -> None:
    stream = "hexlog:{000}:cmds"
    assert await store.ensure_group(stream, "rules") is True
    assert await store.ensure_group(stream, "rules") is False
    groups = await redis_client.xinfo_groups(stream)
    assert [g["name"] for g in groups] == [b"rules"]


def test_store_refuses_a_text_client() -> None:
    with pytest.raises(ValueError, match="decode_responses"):
        EventStore(Redis(decode_responses=True))


async def test_create_with_a_command_id_stores_its_outcome_atomically(store: EventStore) -> None:
    outcome = await store.create_game(
        GAME, num(1), {"status": "setup"}, command_id="create-1", outcome={"credentials": ["x"]}
    )
    expected = {"status": "created", "game": GAME, "credentials": ["x"]}
    assert outcome == expected
    assert await store.get_outcome("create-1", GAME, scope="org") == expected
    # Redelivered: the original outcome, not GameExistsError, and nothing changes.
    again = await store.create_game(GAME, num(2), {"status": "other"}, command_id="create-1")
    assert again == expected
    assert await store.read(GAME) == [(1, num(1))]
    # Another command creating the same game is refused, and gets no outcome stored.
    with pytest.raises(GameExistsError):
        await store.create_game(GAME, num(3), {}, command_id="create-2")
    assert await store.get_outcome("create-2", GAME, scope="org") is None


async def test_create_without_a_command_id_returns_none(store: EventStore) -> None:
    assert await store.create_game(GAME, num(1), {}) is None
