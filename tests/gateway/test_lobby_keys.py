"""The lobby's keys on either kind of server: tables listed whatever node holds them, at most a
few of each creator; a table's changes serialised by WATCH on its one key; a taken id refused
(its owner token with it); quotas counted in Redis; open tables expiring, started ones not. On
a Redis Cluster every call touches one slot (a cross-slot call would raise)."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis

from services.gateway.tables import (
    CREATORS,
    LISTED_PER_CREATOR,
    Lobby,
    LobbyError,
    Seat,
    Secrets,
    TableRecord,
    by_creator_key,
    table_key,
    token_key,
)


def table(table_id: str, seats: int = 4) -> TableRecord:
    return TableRecord(id=table_id, seats=[Seat() for _ in range(seats)])


async def started(t: TableRecord) -> Secrets:
    return Secrets(seats=["s"] * len(t.seats), referee="r")


async def test_tables_on_every_slot_are_listed_newest_first(redis_client: Redis) -> None:
    lobby = Lobby(redis_client)
    ids = [f"t-{i}" for i in range(12)]  # their keys hash to slots all over the cluster
    for table_id in ids:
        await lobby.create(table(table_id))
        await asyncio.sleep(0.002)  # distinct creation times
    listed = [t.id for t in await lobby.list()]
    assert listed == ids[::-1]
    assert [t.id for t in await lobby.list(limit=3)] == ids[:-4:-1]


async def test_the_listing_shows_a_few_tables_of_each_creator(redis_client: Redis) -> None:
    lobby = Lobby(redis_client, open_tables=100)
    await lobby.create(table("t-theirs"), "10.0.0.9")
    flood = [f"t-flood{i}" for i in range(30)]
    for table_id in flood:
        await lobby.create(table(table_id), "10.0.0.66")
        await asyncio.sleep(0.002)
    listed = [t.id for t in await lobby.list()]
    assert listed == [*flood[:-LISTED_PER_CREATOR - 1:-1], "t-theirs"]
    # What anyone sees of a table: nothing of who made it or holds its seats.
    shown = (await lobby.list())[0]
    assert type(shown).__name__ == "Table"
    assert not {"creator", "holders", "clients"} & set(shown.__struct_fields__)


async def test_a_taken_id_is_refused_and_its_owner_token_dropped(redis_client: Redis) -> None:
    lobby = Lobby(redis_client)
    first = await lobby.create(table("t-same"))
    before = set(await redis_client.keys("hexlog:gw:tok:*"))
    with pytest.raises(LobbyError, match="exists"):
        await lobby.create(table("t-same"))
    assert set(await redis_client.keys("hexlog:gw:tok:*")) == before
    assert await lobby.seat_of(first) == ("t-same", -1)


async def test_a_create_cut_short_leaves_no_table_unlisted(redis_client: Redis) -> None:
    # A create that dies after indexing its id and before storing the table: the listing
    # skips the id (and drops it), and every table that exists is listed.
    lobby = Lobby(redis_client)
    await lobby.create(table("t-whole"))
    await redis_client.zadd(by_creator_key("10.0.0.1"), {"t-cut": 1e12})  # indexed, not stored
    await redis_client.zadd(CREATORS, {"10.0.0.1": 1e12})
    await redis_client.zadd(CREATORS, {"10.0.0.2": 1.0})  # long ago, none of its tables left
    assert [t.id for t in await lobby.list()] == ["t-whole"]
    assert await redis_client.zscore(by_creator_key("10.0.0.1"), "t-cut") is None
    assert await redis_client.zscore(CREATORS, "10.0.0.2") is None
    with pytest.raises(LobbyError, match="no such table"):
        await lobby.get("t-cut")
    # A second create of a taken id keeps the first one's place in the listing.
    index = by_creator_key("table:t-whole")
    placed = await redis_client.zscore(index, "t-whole")
    assert placed is not None
    with pytest.raises(LobbyError, match="exists"):
        await lobby.create(table("t-whole"))
    assert await redis_client.zscore(index, "t-whole") == placed


async def test_concurrent_joins_take_each_seat_once(redis_client: Redis) -> None:
    lobby = Lobby(redis_client)
    await lobby.create(table("t-busy", seats=4))
    results = await asyncio.gather(*(lobby.join("t-busy", f"p{i}", None, f"10.0.0.{i}")
                                     for i in range(6)), return_exceptions=True)
    seats = sorted(r[0] for r in results if isinstance(r, tuple))
    refused = [r for r in results if isinstance(r, LobbyError)]
    assert seats == [0, 1, 2, 3]
    assert len(refused) == 2
    assert all("every seat is taken" in str(e) for e in refused)
    for r in results:
        if isinstance(r, tuple):
            assert await redis_client.exists(token_key(r[1]))
    names = sorted(s.name for s in (await lobby.get("t-busy")).seats)
    assert len(set(names)) == 4


async def test_one_client_takes_one_seat_of_a_table_even_at_once(redis_client: Redis) -> None:
    lobby = Lobby(redis_client)
    await lobby.create(table("t-squat", seats=4))
    results = await asyncio.gather(*(lobby.join("t-squat", f"s{i}", None, "10.0.0.66")
                                     for i in range(4)), return_exceptions=True)
    assert len([r for r in results if isinstance(r, tuple)]) == 1
    assert all("one seat per address" in str(r) for r in results if isinstance(r, Exception))
    assert len((await lobby.get("t-squat")).open_seats()) == 3
    for _ in range(3):  # a trusted client ('': the chat adapter, say) has no quota
        await lobby.join("t-squat", "trusted", None, "")
    assert (await lobby.get("t-squat")).open_seats() == []


async def test_open_tables_are_counted_per_client(redis_client: Redis) -> None:
    lobby = Lobby(redis_client, open_tables=3)
    for i in range(3):
        await lobby.create(table(f"t-q{i}"), "10.0.0.66")
    with pytest.raises(LobbyError, match="3 open tables") as refused:
        await lobby.create(table("t-q3"), "10.0.0.66")
    assert refused.value.status == 429
    assert 1 <= refused.value.retry_after <= 1800
    assert not await redis_client.exists(table_key("t-q3"))
    await lobby.create(table("t-other"), "10.0.0.9")  # another client is not counted with it
    await lobby.start("t-q0", "heuristic", started)  # a started table frees its place
    await lobby.create(table("t-q4"), "10.0.0.66")


async def test_open_tables_expire_and_started_ones_stay(redis_client: Redis) -> None:
    lobby = Lobby(redis_client, table_ttl_s=1)
    await lobby.create(table("t-idle"), "10.0.0.66")
    await lobby.create(table("t-go"), "10.0.0.66")
    idle = await lobby.get("t-idle")
    assert idle.expires_at == pytest.approx(idle.created_at + 1)
    live = await lobby.start("t-go", "heuristic", started)
    assert live.expires_at is None
    await asyncio.sleep(2.2)
    with pytest.raises(LobbyError, match="no such table"):
        await lobby.get("t-idle")
    assert (await lobby.get("t-go")).status == "live"
    assert [t.id for t in await lobby.list()] == ["t-go"]
