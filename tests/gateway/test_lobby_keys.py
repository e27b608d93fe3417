"""The lobby's keys on either kind of server: tables listed whatever node holds them, a
table's changes serialised by WATCH on its one key, a taken id refused (its owner token with
it). On a Redis Cluster every call touches one slot (a cross-slot call would raise)."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis

from services.gateway.tables import TABLES, Lobby, LobbyError, Seat, Table, token_key


def table(table_id: str, seats: int = 4) -> Table:
    return Table(id=table_id, seats=[Seat() for _ in range(seats)])


async def test_tables_on_every_slot_are_listed_newest_first(redis_client: Redis) -> None:
    lobby = Lobby(redis_client)
    ids = [f"t-{i}" for i in range(12)]  # their keys hash to slots all over the cluster
    for table_id in ids:
        await lobby.create(table(table_id))
        await asyncio.sleep(0.002)  # distinct creation times
    listed = [t.id for t in await lobby.list()]
    assert listed == ids[::-1]
    assert [t.id for t in await lobby.list(limit=3)] == ids[:-4:-1]


async def test_a_taken_id_is_refused_and_its_owner_token_dropped(redis_client: Redis) -> None:
    lobby = Lobby(redis_client)
    first = await lobby.create(table("t-same"))
    before = set(await redis_client.keys("hexlog:gw:tok:*"))
    with pytest.raises(LobbyError, match="exists"):
        await lobby.create(table("t-same"))
    assert set(await redis_client.keys("hexlog:gw:tok:*")) == before
    assert await lobby.seat_of(first) == ("t-same", -1)


async def test_a_create_cut_short_leaves_no_table_unlisted(redis_client: Redis) -> None:
    # A create that dies after listing its id and before storing the table: the listing skips
    # the id, and every table that exists is listed.
    lobby = Lobby(redis_client)
    await lobby.create(table("t-whole"))
    await redis_client.zadd(TABLES, {"t-cut": 1e12})  # listed, never stored
    assert [t.id for t in await lobby.list()] == ["t-whole"]
    with pytest.raises(LobbyError, match="no table"):
        await lobby.get("t-cut")
    # A second create of a taken id keeps the first one's place in the listing.
    placed = await redis_client.zscore(TABLES, "t-whole")
    with pytest.raises(LobbyError, match="exists"):
        await lobby.create(table("t-whole"))
    assert await redis_client.zscore(TABLES, "t-whole") == placed


async def test_concurrent_joins_take_each_seat_once(redis_client: Redis) -> None:
    lobby = Lobby(redis_client)
    await lobby.create(table("t-busy", seats=4))
    results = await asyncio.gather(*(lobby.join("t-busy", f"p{i}", None) for i in range(6)),
                                   return_exceptions=True)
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
