"""The gateway makes the ladder's pods games: it creates each through the rules service (on
its own command stream, as for a lobby table) and keeps the seats' credentials, with which it
signs the bots' answers. The matchmaker never holds them (services/ladder/matchmaker.py).

The pods come on keys.PODS, a stream every gateway process reads in one consumer group: each
pod goes to one of them; one that dies with a pod unmade leaves it pending, and another takes
it over (XAUTOCLAIM) after CLAIM_IDLE_MS. Creation is idempotent: the request's id and reply
key are stored (SET NX, in the gateway's own keys) before it is sent, so whoever takes a pod
over sends the same request, and the credentials sealed in its outcome open with the same key.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from typing import Any, cast

import msgspec
import structlog
from redis.asyncio import Redis
from redis.exceptions import RedisError, ResponseError

from events.requests import CreateGame
from events.sealed import new_reply_key
from services.client import Client, ServiceError, new_id
from services.gateway.tables import GW, TOKEN_TTL_S, Secrets
from services.ladder.games import Games
from services.ladder.keys import CONTROLLER, NEWS, NEWS_KEPT, PODS, PODS_GROUP
from services.ladder.records import LadderGame
from services.store.keys import ORGANISER

log = structlog.get_logger("hexlog.gateway")

CLAIM_IDLE_MS = 10_000
CLAIM_EVERY_S = 5.0
RETRY_S = 2.0


class CreateStub(msgspec.Struct):
    """What makes a ladder game's create request the same each time it is sent."""

    command_id: str
    reply_key: str


def request_key(game_id: str) -> str:
    return f"{GW}:ladder:{game_id}:request"


def set_seed_key(set_id: str) -> str:
    """A duplicate set's seed (hex): drawn by the first gateway to create one of its games,
    read by the others; the gateway's alone (the matchmaker never knows it)."""
    return f"{GW}:ladder:set:{set_id}:seed"


async def set_seed(redis: Redis, set_id: str) -> str:
    """The seed every game of the set is created with (drawn once, whoever asks first)."""
    await redis.set(set_seed_key(set_id), secrets.token_hex(32), nx=True, ex=TOKEN_TTL_S)
    raw = await redis.get(set_seed_key(set_id))
    return "" if raw is None else (raw.decode() if isinstance(raw, bytes) else str(raw))


def secret_key(game_id: str) -> str:
    """A ladder game's credentials (tables.Secrets): the gateway's alone."""
    return f"{GW}:ladder:{game_id}:secret"


async def credentials(redis: Redis, game_id: str) -> Secrets | None:
    raw = await redis.get(secret_key(game_id))
    return None if raw is None else msgspec.json.decode(raw, type=Secrets)


class PodStarter:
    def __init__(self, redis: Redis, client: Client, consumer: str) -> None:
        self.redis = redis
        self.client = client
        self.games = Games(redis)
        self.consumer = consumer
        self.stopping = False  # set by the desk's stop (see LadderDesk.stop)

    async def run(self) -> None:
        with contextlib.suppress(ResponseError):  # BUSYGROUP: made already
            await self.redis.xgroup_create(PODS, PODS_GROUP, id="0", mkstream=True)
        claimed = 0.0
        while not self.stopping:
            try:
                if time.monotonic() - claimed > CLAIM_EVERY_S:
                    claimed = time.monotonic()
                    reply: Any = await self.redis.xautoclaim(
                        PODS, PODS_GROUP, self.consumer, CLAIM_IDLE_MS, "0-0", count=32)
                    await self.start_all(reply[1])
                read = cast(list[Any], await self.redis.xreadgroup(
                    PODS_GROUP, self.consumer, {PODS: ">"}, count=32, block=2000))
                for _, entries in read or []:
                    await self.start_all(entries)
            except asyncio.CancelledError:
                raise
            except ResponseError as exc:  # NOGROUP: the stream gone (a flushed server)
                log.warning("ladder pods: reading failed; making the group again", error=str(exc))
                with contextlib.suppress(RedisError):
                    await self.redis.xgroup_create(PODS, PODS_GROUP, id="0", mkstream=True)
                await asyncio.sleep(RETRY_S)
            except (RedisError, OSError) as exc:
                log.warning("ladder pods: Redis did not answer; retrying", error=str(exc))
                await asyncio.sleep(RETRY_S)

    async def start_all(self, entries: list[Any]) -> None:
        await asyncio.gather(*(self.start(entry_id, fields) for entry_id, fields in entries
                               if fields))

    async def start(self, entry_id: bytes, fields: dict[bytes, bytes]) -> None:
        game_id = fields.get(b"game", b"").decode()
        game = await self.games.get(game_id)
        if game is not None and game.status == "pending":
            try:
                await self.create(game)
            except ServiceError as exc:
                outcome = await self.client.store.get_outcome(
                    (await self.stub(game_id)).command_id, game_id, scope=ORGANISER)
                if outcome is None:  # no rules service answered: a gateway tries again
                    log.warning("ladder game not created yet", game_id=game_id, error=str(exc))
                    return
                log.warning("ladder game refused by the rules service", game_id=game_id,
                            outcome=outcome)
                await self.games.mark(game_id, "void")
            else:
                await self.games.mark(game_id, "live")
                await self.redis.xadd(NEWS, {"kind": "start", "game": game_id},
                                      maxlen=NEWS_KEPT, approximate=True)
                log.info("ladder game started", game_id=game_id, bots=list(game.names))
        await self.redis.xack(PODS, PODS_GROUP, entry_id)

    async def stub(self, game_id: str) -> CreateStub:
        fresh = CreateStub(command_id=new_id("create"), reply_key=new_reply_key())
        await self.redis.set(request_key(game_id), msgspec.json.encode(fresh), nx=True,
                             ex=TOKEN_TTL_S)
        raw = await self.redis.get(request_key(game_id))
        return fresh if raw is None else msgspec.json.decode(raw, type=CreateStub)

    async def create(self, game: LadderGame) -> Secrets:
        stub = await self.stub(game.id)
        seed = await set_seed(self.redis, game.set_id) if game.set_id else ""
        request = CreateGame(
            command_id=stub.command_id, game_id=game.id, seats=len(game.bots),
            modules=game.modules, names=game.names, controllers=(CONTROLLER,) * len(game.bots),
            deadline_ms=game.deadline_ms, turn_limit=game.turn_limit, seed=seed or None,
            reply_key=stub.reply_key)
        creds = await self.client.credentials_of(request) or \
            await self.client.create_game(request)
        found = Secrets(seats=creds.seats, referee=creds.referee)
        await self.redis.set(secret_key(game.id), msgspec.json.encode(found), ex=TOKEN_TTL_S)
        return found
