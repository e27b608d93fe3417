"""Attack 1 (credential theft) and attack 2 (forfeit without a credential).

A bot pool could once XAUTOCLAIM the shared command stream and read every seat's credential and
every game's seed out of the claimed entries, then act for another seat. Now: a pool's Redis
user cannot claim, read or add to any stream but its own; no stream anyone but the rules
service can read holds a credential or a seed; and a command copied from a stream is useless
(its signature covers its id, game, seat and version, and an id is answered once).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from redis.asyncio import Redis
from redis.exceptions import NoPermissionError
from service_helpers import (
    Script,
    create_request,
    created_outcome,
    dead_letters,
    log,
    outcome_of,
    pump,
    send,
    send_create,
    wait_for,
)

from bots.worker import BotWorker
from events.auth import sign, turn_key
from events.codec import codec
from events.disputes import ContestRuling
from events.requests import ForfeitSeat
from services.client import Client
from services.protocol import DATA, KIND, MAC
from services.rules.service import RulesService
from services.store import EventStore
from services.store.keys import commands_key, game_keys, partition

GAME = "g-attack"
POOLS = ("random", "heuristic")


@pytest.fixture
async def live_game(service: RulesService, user: Callable[..., Awaitable[Redis]],
                    redis_client: Redis) -> AsyncIterator[tuple[Script, list[str]]]:
    """A game of bot pools `random` and `heuristic` with a given seed, their workers running
    as their own Redis users, the service pumped in the background: (script, referee)."""
    req = create_request(GAME, controllers=[f"bot:{p}" for p in POOLS * 2], deadline_ms=60_000)
    await send_create(redis_client, req)
    await pump(service)
    outcome = await created_outcome(service.store, req)
    assert outcome is not None
    stop = asyncio.Event()
    workers = [asyncio.create_task(BotWorker(await user("bot", pool), [pool]).run(stop))
               for pool in POOLS]
    pumping = asyncio.create_task(_pump_until(service, stop))
    yield Script.start(req, outcome["credentials"]), [outcome["referee"]]
    stop.set()
    for task in (*workers, pumping):
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 10)


async def _pump_until(service: RulesService, stop: asyncio.Event) -> None:
    while not stop.is_set():
        await pump(service)
        await asyncio.sleep(0.01)


async def version_reaches(store: EventStore, game: str, version: int) -> None:
    async def there() -> bool:
        return await store.version(game) >= version

    await wait_for(there, 30, f"{game} to reach version {version}")


async def test_a_bot_pool_cannot_claim_or_read_any_command_stream(
    live_game: tuple[Script, list[str]], user: Callable[..., Awaitable[Redis]], store: EventStore,
) -> None:
    await version_reaches(store, GAME, 20)
    spy = await user("bot", "random")
    p = partition(GAME)
    for stream in (commands_key(p), commands_key(p, "bot:heuristic"), commands_key(p, "bot:random")):
        for attack in (
            spy.xautoclaim(stream, "rules", "spy", 0, "0-0"),
            spy.xclaim(stream, "rules", "spy", 0, ["0-1"]),
            spy.xgroup_create(stream, "spy", id="0"),
            spy.xrange(stream),
            spy.xreadgroup("rules", "spy", {stream: "0"}),
        ):
            with pytest.raises(NoPermissionError):
                await attack
    before = await store.version(GAME)
    await version_reaches(store, GAME, before + 10)  # the game goes on


async def test_nothing_a_non_rules_user_can_read_holds_a_credential_or_the_seed(
    live_game: tuple[Script, list[str]], redis_client: Redis, store: EventStore,
) -> None:
    """Every key but the game's secret hash, read in the middle of the game (before the seed
    is revealed): no credential, no seed, not even in the organisers' stream that carried the
    create request with its seed, nor in the creation's outcome (its credentials are sealed
    for the requester: events/sealed.py)."""
    script, (referee,) = live_game
    await version_reaches(store, GAME, 40)
    secrets_ = [*script.credentials, referee, bytes.fromhex(create_request(GAME).seed or "").hex()]
    k = game_keys(GAME)
    private = {k.secret.encode()}
    seen = 0
    async for key in redis_client.scan_iter(match="hexlog:*"):
        if key in private:
            continue
        value = await dump(redis_client, key)
        if key == k.outcomes.encode():
            assert any(f.startswith("org:") for f in value), "the creation's outcome is read too"
        text = json.dumps(value, default=repr)
        seen += 1
        for secret in secrets_:
            assert secret not in text, f"{key!r} holds a secret"
    assert seen > 10


async def dump(redis: Redis, key: bytes) -> Any:
    kind = (await redis.type(key)).decode()
    if kind == "stream":
        return [(i, {f.decode(): v.decode(errors="replace") for f, v in fields.items()})
                for i, fields in await redis.xrange(key)]
    if kind == "hash":
        return {f.decode(): v.decode(errors="replace") for f, v in (await redis.hgetall(key)).items()}
    if kind == "string":
        return (await redis.get(key) or b"").decode(errors="replace")
    if kind == "zset":
        return await redis.zrange(key, 0, -1)
    if kind == "set":
        return sorted(await redis.smembers(key))
    return kind


async def test_a_command_copied_from_a_stream_signs_nothing_else(
    service: RulesService, redis_client: Redis, store: EventStore,
) -> None:
    """A seat's signed command, read off the stream by an attacker (here: the admin, who may),
    sent again unchanged is answered by its first outcome; with any other body — a contest in
    that seat's name, the same move at another version — its signature is worthless."""
    req = create_request(GAME)
    await send_create(redis_client, req)
    await pump(service)
    script = Script.start(req, (await created_outcome(store, req) or {})["credentials"])
    move, _ = script.next()
    await send(redis_client, move)
    await pump(service)
    ((_, fields),) = await redis_client.xrange(commands_key(partition(GAME)), "-", "+")
    stolen_mac = fields[MAC.encode()]
    contest = codec().encode(ContestRuling(seat=0, command_id=move.command_id, claim="mine"))
    forged = json.loads(fields[DATA.encode()])
    forged["command"] = json.loads(contest)
    forged["command_id"] = "forged"
    for body in (json.dumps(forged).encode(),
                 fields[DATA.encode()].replace(b'"expected_version":1', b'"expected_version":2')):
        await redis_client.xadd(commands_key(partition(GAME)), {DATA: body, MAC: stolen_mac})
    await redis_client.xadd(commands_key(partition(GAME)), dict(fields))  # the exact copy
    await pump(service)
    assert [e.command_id for e in await log(store, GAME)] == [f"create-{GAME}", move.command_id]
    reasons = [d[b"reason"] for d in await dead_letters(redis_client, partition(GAME))]
    assert len(reasons) == 2
    assert all(r.startswith(b"service.seat.credential") for r in reasons)
    assert (await outcome_of(store, move) or {})["status"] == "accepted"


async def test_a_turn_key_from_an_old_prompt_signs_no_later_move(
    live_game: tuple[Script, list[str]], redis_client: Redis, store: EventStore,
) -> None:
    """A prompt hands a pool the key for one version; once the game has moved on, a command
    signed with it for the current version is set aside."""
    script, _ = live_game
    await version_reaches(store, GAME, 10)
    ((_, prompt),) = (await redis_client.xrange(
        f"hexlog:{{{partition(GAME):03d}}}:prompts:bot:random", "-", "+", count=1))
    old_key = bytes.fromhex(prompt[b"key"].decode())
    seat = int(prompt[b"seat"])
    now = await store.version(GAME)
    body = json.dumps({"command_id": "old-key", "game_id": GAME, "expected_version": now,
                       "command": {"type": "EndTurn", "seat": seat}}).encode()
    await redis_client.xadd(commands_key(partition(GAME), "bot:random"),
                            {DATA: body, MAC: sign(old_key, body)})
    await wait_for(lambda: dead_letters(redis_client, partition(GAME)), 10, "a dead letter")
    letter = (await dead_letters(redis_client, partition(GAME)))[-1]
    assert letter[b"reason"].startswith(b"service.seat.credential")
    assert "old-key" not in {e.command_id for e in await log(store, GAME)}


async def test_a_forfeit_needs_the_referees_signature(
    service: RulesService, redis_client: Redis, store: EventStore,
    user: Callable[..., Awaitable[Redis]],
) -> None:
    req = create_request(GAME)
    await send_create(redis_client, req)
    await pump(service)
    created = await created_outcome(store, req) or {}
    p = partition(GAME)
    request = codec().encode(ForfeitSeat(command_id="f0", game_id=GAME, seat=0))
    # A bot pool may not even write the organisers' stream.
    bot = await user("bot", "random")
    with pytest.raises(NoPermissionError):
        await bot.xadd(commands_key(p), {DATA: request, KIND: "forfeit"})
    # On the organisers' stream: unsigned, signed by a seat, signed by the referee for a seat.
    for mac in (b"", sign(turn_key(created["credentials"][1], GAME, 1, 0), request).encode(),
                sign(turn_key(created["referee"], GAME, 0, 0), request).encode()):
        await redis_client.xadd(commands_key(p), {DATA: request, KIND: "forfeit", MAC: mac})
    await pump(service)
    assert [e.command_id for e in await log(store, GAME)] == [f"create-{GAME}"]
    assert len(await dead_letters(redis_client, p)) == 3
    # The referee's signature, through the organiser's client: the seat is forfeited.
    await Client(redis_client).forfeit(GAME, 0, created["referee"], "left", command_id="f1")
    await pump(service)
    forfeits = [e for e in await log(store, GAME) if type(e.event).__name__ == "SeatForfeited"]
    assert [e.command_id for e in forfeits] == ["f1"]

