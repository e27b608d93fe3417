"""The lobby: tables waiting for players, and the seat credentials the gateway hands out.

A table is a game before it starts: its modules, its seats (open, a human who joined, or a bot
pool) and its options. Joining a seat gives a *seat token*, a random secret that only ever acts
for that seat of that table; the owner token (from creating the table) may start it and fill
its open seats with bots. Starting sends `CreateGame` on the organisers' stream; the rules
service answers with the seats' credentials, which stay in the gateway's keys and sign each
seat's commands (events/auth.py). Tokens are stored by their SHA-256 only.

Everything lives under `hexlog:gw:` (services/runtime/acl.py: the gateway's own keys). Each
change of a table is a WATCH/MULTI transaction on its one key, so several gateway processes may
share them, on a single server or a Redis Cluster: no call spans two keys' slots (a table's key
and the list of tables may live on different nodes, so creating a table is two calls: the
listing first, then its SET NX; a crash between them leaves an id listed with no table, which
`list` skips and the listing's expiry drops, never a table that no listing shows).
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal, TypeVar, cast

import msgspec
from redis.asyncio import Redis
from redis.exceptions import WatchError

from events.events import ModuleSpec
from services.store.keys import PREFIX

R = TypeVar("R")

GW = f"{PREFIX}:gw"
TABLES = f"{GW}:tables"  # sorted set: table ids by creation time
OWNER = -1  # the seat number of an owner token
TOKEN_TTL_S = 7 * 24 * 3600
MAX_TABLES_LISTED = 100

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=40, pattern=r"^[^\x00-\x1f\x7f]+$")]
Pool = Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z0-9_.\-]{1,64}$")]


class LobbyError(ValueError):
    """A lobby request that cannot be done; the text names the field and says why."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.status = status


class Seat(msgspec.Struct, kw_only=True):
    kind: Literal["open", "human", "bot"] = "open"
    name: str = ""
    pool: str = ""  # the bot pool of a bot seat

    def controller(self) -> str:
        return f"bot:{self.pool}" if self.kind == "bot" else f"human:{self.name}"


class Table(msgspec.Struct, kw_only=True):
    id: str
    status: Literal["open", "starting", "live", "finished"] = "open"
    seats: list[Seat]
    modules: tuple[ModuleSpec, ...] = ()
    deadline_ms: int = 0
    turn_limit: int = 0
    created_at: float = 0.0
    game_id: str = ""  # once started

    def open_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind == "open"]


class Secrets(msgspec.Struct):
    """What the rules service gave the creator: each seat's credential and the referee's."""

    seats: list[str]
    referee: str


def table_key(table_id: str) -> str:
    return f"{GW}:t:{table_id}"


def secrets_key(table_id: str) -> str:
    return f"{GW}:t:{table_id}:secret"


def token_key(token: str) -> str:
    return f"{GW}:tok:{hashlib.sha256(token.encode()).hexdigest()}"


class Lobby:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis

    async def get(self, table_id: str) -> Table:
        raw = await self.redis.get(table_key(table_id))
        if raw is None:
            raise LobbyError(f"table: no table {table_id!r}", 404)
        return msgspec.json.decode(raw, type=Table)

    async def list(self, limit: int = MAX_TABLES_LISTED) -> list[Table]:
        ids = await self.redis.zrevrange(TABLES, 0, limit - 1)
        if not ids:
            return []
        pipe = self.redis.pipeline(transaction=False)  # one GET per key: any slots
        for i in ids:
            pipe.get(table_key(_text(i)))
        raws = await pipe.execute()
        return [msgspec.json.decode(r, type=Table) for r in cast(list[bytes | None], raws)
                if r is not None]

    async def create(self, table: Table) -> str:
        """Store a new table; its owner token."""
        table.created_at = time.time()
        owner = await self._token(table.id, OWNER)
        # Listed first (NX: a taken id keeps its first listing), then stored.
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(TABLES, {table.id: table.created_at}, nx=True)
        pipe.zremrangebyscore(TABLES, 0, table.created_at - TOKEN_TTL_S)  # expired tables
        await pipe.execute()
        if not await self.redis.set(table_key(table.id), msgspec.json.encode(table), nx=True,
                                    ex=TOKEN_TTL_S):
            await self.redis.delete(token_key(owner))
            raise LobbyError(f"table: {table.id!r} exists")
        return owner

    async def seat_of(self, token: str) -> tuple[str, int] | None:
        """The table and seat (OWNER for the owner) a token acts for, or None."""
        if not token or len(token) > 200:
            return None
        raw = await self.redis.get(token_key(token))
        if raw is None:
            return None
        table, _, seat = _text(raw).rpartition("|")
        return table, int(seat)

    async def join(self, table_id: str, name: str, seat: int | None) -> tuple[int, str]:
        """Take an open seat (the first one, or `seat`); the seat and its token."""
        def take(t: Table) -> int:
            if t.status != "open":
                raise LobbyError(f"table: {t.id} has started; spectate it instead")
            free = t.open_seats()
            if seat is not None:
                if not 0 <= seat < len(t.seats):
                    raise LobbyError(f"seat: {seat} is not a seat of this table "
                                     f"(0..{len(t.seats) - 1})", 400)
                if seat not in free:
                    raise LobbyError(f"seat: {seat} is taken")
                chosen = seat
            elif not free:
                raise LobbyError("table: every seat is taken")
            else:
                chosen = free[0]
            t.seats[chosen] = Seat(kind="human", name=name)
            return chosen

        chosen = await self._change(table_id, take)
        return chosen, await self._token(table_id, chosen)

    async def leave_open(self, table_id: str, seat: int, token: str) -> None:
        """Give a seat back before the table starts."""
        def free(t: Table) -> None:
            if t.status != "open":
                raise LobbyError("table: started (leaving now forfeits the seat)")
            t.seats[seat] = Seat()

        await self._change(table_id, free)
        await self.redis.delete(token_key(token))

    async def start(self, table_id: str, fill: str,
                    start: Callable[[Table], Awaitable[Secrets]]) -> Table:
        """Fill open seats with `fill` bots, create the game (`start`), keep its secrets for
        signing, then mark the table live. A table starts once; one whose game could not be
        created is open again."""
        filled: list[int] = []

        def go(t: Table) -> Table:
            if t.status != "open":
                raise LobbyError(f"table: {t.id} has started already")
            filled[:] = t.open_seats()
            for i in filled:
                t.seats[i] = Seat(kind="bot", name=f"{fill}{i}", pool=fill)
            t.status = "starting"
            t.game_id = t.id
            return t

        def live(t: Table) -> Table:
            t.status = "live"
            return t

        def failed(t: Table) -> None:
            t.status = "open"
            for i in filled:
                t.seats[i] = Seat()

        table = await self._change(table_id, go)
        try:
            found = await start(table)
        except BaseException:
            await self._change(table_id, failed)
            raise
        # The credentials first: a seat told the game is live may send a command at once.
        await self.redis.set(secrets_key(table_id), msgspec.json.encode(found), ex=TOKEN_TTL_S)
        return await self._change(table_id, live)

    async def secrets(self, table_id: str) -> Secrets | None:
        raw = await self.redis.get(secrets_key(table_id))
        return None if raw is None else msgspec.json.decode(raw, type=Secrets)

    async def mark_finished(self, table_id: str) -> None:
        def end(t: Table) -> None:
            t.status = "finished"

        await self._change(table_id, end)

    async def forget_token(self, token: str) -> None:
        await self.redis.delete(token_key(token))

    async def _token(self, table_id: str, seat: int) -> str:
        token = secrets.token_urlsafe(32)
        await self.redis.set(token_key(token), f"{table_id}|{seat}", ex=TOKEN_TTL_S)
        return token

    async def _change(self, table_id: str, change: Callable[[Table], R]) -> R:
        key = table_key(table_id)
        for _ in range(50):
            async with self.redis.pipeline(transaction=True) as pipe:
                try:
                    await pipe.watch(key)
                    raw = await pipe.get(key)
                    if raw is None:
                        raise LobbyError(f"table: no table {table_id!r}", 404)
                    table = msgspec.json.decode(raw, type=Table)
                    result = change(table)
                    cast(Any, pipe).multi()
                    pipe.set(key, msgspec.json.encode(table), keepttl=True)
                    await pipe.execute()
                    return result
                except WatchError:
                    continue
        raise LobbyError("table: too busy, try again", 503)


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
