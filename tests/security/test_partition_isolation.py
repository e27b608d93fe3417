"""One key, one hostile role or one broken partition never stops the others.

Once, the gateway's user could `DEL hexlog:{011}:cmds; SET hexlog:{011}:cmds x`, and the
rules service's one XREADGROUP over every partition failed with WRONGTYPE: no game anywhere
moved until an administrator deleted the key. Now no service role may delete, set or expire a
command stream (test_role_matrix.py); what a role can still do to the streams it writes (XADD
with MAXLEN 0 or the maximum id) spoils only its own requests; and should a command stream
break anyway (an administrator's slip), the service reads the others on, repairs it, and says
so (services/rules/stream_guard.py).

These run the real rules app (its consume loop, claimer and deadline keeper) with bot workers
playing games in several partitions, and attack while the games run.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, cast

import pytest
from redis.asyncio import Redis
from redis.exceptions import NoPermissionError, ResponseError
from service_helpers import dead_letters, wait_for

from bots.worker import BotWorker
from events.requests import CreateGame
from services.client import Client
from services.protocol import deadlines_key
from services.rules.deadlines import DeadlineKeeper
from services.rules.stream_guard import StreamGuard
from services.store import EventStore
from services.store.keys import GATEWAY, PARTITIONS, RULES_GROUP, commands_key, partition

MAX_ID = "18446744073709551615-18446744073709551615"
BOTS = ("bot:random", "bot:heuristic") * 2


def game_in(p: int, name: str) -> str:
    """A game id whose partition is p."""
    return next(g for i in range(10_000) if partition(g := f"{name}-{i}") == p)


async def start_game(client: Client, game_id: str) -> None:
    await client.create_game(CreateGame(command_id=f"create-{game_id}", game_id=game_id,
                                        controllers=BOTS, deadline_ms=10_000))


async def moves_on(store: EventStore, game_id: str, by: int = 10, timeout: float = 20) -> None:
    """The game's version grows by `by` (or the game ends) within `timeout` seconds."""
    start = await store.version(game_id)

    async def moved() -> bool:
        meta = await store.meta(game_id) or {}
        return await store.version(game_id) >= start + by or meta.get("status") == "finished"

    await wait_for(moved, timeout, f"{game_id} to move on from version {start}")


@pytest.fixture
async def running(rules_app: Callable[..., Awaitable[Any]],
                  bot_workers: Callable[[Sequence[str]], BotWorker]) -> None:
    await rules_app(consumer="rules-isolation", claim_idle_ms=2000)
    bot_workers(["random", "heuristic"])


async def test_a_command_stream_of_another_type_stalls_no_partition(
    running: None, redis_client: Redis, store: EventStore,
    user: Callable[..., Awaitable[Redis]],
) -> None:
    organiser = Client(await user("organiser"))
    broken, other = 11, 4
    here, there = game_in(broken, "g-here"), game_in(other, "g-there")
    await start_game(organiser, here)
    await start_game(organiser, there)
    await moves_on(store, there)
    # The role that once could do it no longer can...
    gateway = await user("gateway")
    for attack in (gateway.delete(commands_key(broken)), gateway.set(commands_key(broken), "x"),
                   gateway.expire(commands_key(broken), 1),
                   gateway.delete(commands_key(broken, GATEWAY))):
        with pytest.raises(NoPermissionError):
            await attack
    # ...so an administrator's slip stands in for it: the stream becomes a string.
    await redis_client.delete(commands_key(broken))
    await redis_client.set(commands_key(broken), "x")
    await moves_on(store, there)  # the other partition never stopped
    await moves_on(store, here)  # nor this one's games (their moves are on the pools' streams)
    # The stream was put aside, made again, and the partition's dead letters say so.
    assert await redis_client.type(commands_key(broken)) == b"stream"
    letters = [f[b"reason"].decode() for f in await dead_letters(redis_client, broken)]
    assert any(r.startswith("service.stream.broken") and "was a string" in r for r in letters)
    aside = [k async for k in redis_client.scan_iter(match=f"hexlog:{{{broken:03d}}}:quarantine:*")]
    assert len(aside) == 1
    assert await redis_client.get(aside[0]) == b"x"
    # Requests in that partition are judged again.
    later = game_in(broken, "g-later")
    await start_game(organiser, later)
    await moves_on(store, later)


async def test_a_writer_that_trims_or_poisons_its_own_stream_spoils_only_its_own(
    running: None, redis_client: Redis, store: EventStore,
    user: Callable[..., Awaitable[Redis]],
) -> None:
    """What no ACL can forbid: the gateway trims its own stream to nothing and poisons it with
    the largest id. The organisers' games in the same partition are created and move; the
    gateway has only made itself unable to send."""
    p = 7
    gateway = await user("gateway")
    own = commands_key(p, GATEWAY)
    await gateway.xadd(own, {"x": "1"}, maxlen=0)
    await gateway.xadd(own, {"x": "1"}, id=MAX_ID)
    organiser = Client(await user("organiser"))
    game = game_in(p, "g-organised")
    await start_game(organiser, game)
    await moves_on(store, game)
    with pytest.raises(ResponseError):  # its own stream takes no new entry now
        await Client(gateway, source=GATEWAY).create_game(
            CreateGame(command_id="c-gw", game_id=game_in(p, "g-gw"), controllers=BOTS))
    # The poisoned entry was read like any other and set aside as unreadable.
    letters = [f[b"reason"].decode() for f in await dead_letters(redis_client, p)]
    assert any("no __data__" in r for r in letters)
    await moves_on(store, game)


async def test_a_stream_that_cannot_be_read_is_set_aside_and_reported(
    redis_client: Redis, valkey_server: Any,
) -> None:
    """A stream whose failure is not one the service can repair (here: a server that refuses
    the service's user on one key) is set aside for a while; the others are read meanwhile,
    and the heartbeat's status names it until it reads again."""
    streams = [commands_key(p) for p in range(PARTITIONS)]
    for stream in streams:
        await redis_client.xgroup_create(stream, RULES_GROUP, id="0", mkstream=True)
        await redis_client.xadd(stream, {"__data__": b"{}"})
    blocked = commands_key(5)
    limited = await _user_without(redis_client, valkey_server, blocked)
    guard = StreamGuard(limited)
    read = await guard.read_each(streams, "rules-guard", count=10)
    assert sorted(s for s, _ in read) == sorted(s for s in streams if s != blocked)
    assert list(guard.keys) == [blocked]
    assert guard.status().startswith("degraded: 1 command stream(s) set aside: " + blocked)
    assert blocked not in guard.readable(streams)
    letters = [f[b"reason"].decode() for f in await dead_letters(redis_client, 5)]
    assert any(r.startswith(f"service.stream.broken: {blocked} set aside") for r in letters)
    guard.keys[blocked].until = 0  # its pause is over, and the key reads again
    assert blocked in guard.readable(streams)
    guard.recovered([blocked])
    assert guard.status() == "ok"
    await limited.aclose()


async def test_a_deadline_set_that_cannot_be_read_stops_no_other_partition(
    redis_client: Redis, valkey_server: Any,
) -> None:
    """Every partition's due deadlines are asked in one call; a deadline set the server refuses
    fails that call, so each set is then asked on its own: the refused one is set aside and
    named in the heartbeat's status, and the others' deadlines still come due."""
    limited = await _user_without(redis_client, valkey_server, commands_key(5))
    keeper = DeadlineKeeper(limited, cast(Any, None), cast(Any, None), range(PARTITIONS))
    for p in (3, 5, 12):
        await redis_client.zadd(deadlines_key(p), {f"g-{p}|7|1": 1000})
    due = dict(await keeper.due(now=2000))
    assert due.pop(deadlines_key(5), None) is None
    assert due == {deadlines_key(p): [f"g-{p}|7|1".encode()] if p in (3, 12) else []
                   for p in range(PARTITIONS) if p != 5}
    assert keeper.aside.status().startswith(
        f"degraded: 1 deadline set(s) set aside: {deadlines_key(5)} (NoPermissionError")
    assert len(await keeper.due(now=2000)) == PARTITIONS - 1  # paused: not asked again
    await limited.aclose()
    healed = DeadlineKeeper(redis_client, cast(Any, None), cast(Any, None), range(PARTITIONS))
    healed.aside.keys = keeper.aside.keys
    next(iter(healed.aside.keys.values())).until = 0  # its pause is over, and it reads
    assert dict(await healed.due(now=2000))[deadlines_key(5)] == [b"g-5|7|1"]
    assert healed.aside.status() == "ok"


async def _user_without(admin: Redis, valkey_server: Any, key: str) -> Redis:
    """A client of a user that may do everything under hexlog: but touch `key` (which must
    be `hexlog:{005}:cmds`: ACL patterns cannot except one key, so partition 5's other keys
    but its bot pools' command streams are refused too)."""
    assert key == "hexlog:{005}:cmds"
    from services.runtime.acl import acl_words
    from services.store.connect import connect, on_every_node, user_url

    await on_every_node(admin, "ACL", "SETUSER", *acl_words(
        "user guard-test on resetpass resetkeys >pw %RW~hexlog:{00[^5]}:* %RW~hexlog:{01*}:* "
        "%RW~hexlog:{005}:cmds:* "
        "+@all"))
    return connect(user_url(valkey_server.url, "guard-test", "pw"))
