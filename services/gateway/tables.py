"""The lobby: tables waiting for players, and the seat credentials the gateway hands out.

A table is a game before it starts: its modules, its seats (open, a human who joined, or a bot
pool) and its options. Joining a seat gives a *seat token*, a random secret that only ever acts
for that seat of that table; the owner token (from creating the table) may start it, fill its
open seats with bots, and remove a seat's holder before the start. Starting sends `CreateGame`
through the rules service's client; its answer, the seats' credentials, stays in the gateway's
keys and signs each seat's commands (events/auth.py). Tokens are stored by their SHA-256 only,
and a table names the hash of each seat's holder: a token acts only while its seat names it, so
removing a holder ends their token even if a join raced the removal.

Quotas against squatting and flooding: an open table expires when not started within the
table TTL (`expires_at`); one client (an address, limits.client_key) has at most a few open
tables at once and one seat per table; the listing shows each creator's newest few tables, so
one creator's many tables cannot push the others off it. Trusted addresses have no quotas
(their `client` is ''), and each of their tables lists as a creator of its own.

Everything lives under `hexlog:gw:` (services/runtime/acl.py: the gateway's own keys; SET, DEL,
ZADD, ZREM, ZREMRANGEBYSCORE, EXPIRE, reads and transactions only). Each change of a table is a
WATCH/MULTI transaction on its one key, so several gateway processes may share them, on a
single server or a Redis Cluster: no call spans two keys' slots (a table's key and the indexes
may live on different nodes, so creating a table is several calls: the indexes first, then its
SET NX; a crash between them leaves an id indexed with no table, which `list` skips and drops,
never a table that no index shows).
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal, TypeVar, cast

import msgspec
from redis.asyncio import Redis
from redis.exceptions import WatchError

from events.events import ModuleSpec
from services.store.keys import PREFIX

R = TypeVar("R")

GW = f"{PREFIX}:gw"
CREATORS = f"{GW}:creators"  # sorted set: creators by the time of their latest table
OWNER = -1  # the seat number of an owner token
TOKEN_TTL_S = 7 * 24 * 3600  # a started table, its tokens and its credentials
TABLE_TTL_S = 1800.0  # an open table's life unless started (GatewayLimits.table_ttl_s)
OPEN_TABLES = 3  # open tables per client (GatewayLimits.open_tables_per_address)
MAX_TABLES_LISTED = 100
LISTED_PER_CREATOR = 3  # a creator's newest tables in the listing
KEPT_PER_CREATOR = 20  # a creator's index keeps their newest tables only

TABLE_ID = re.compile(r"t-[0-9a-f]{12}")  # the ids new_table_id makes

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=40, pattern=r"^[^\x00-\x1f\x7f]+$")]
Pool = Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z0-9_.\-]{1,64}$")]


def new_table_id() -> str:
    return f"t-{uuid.uuid4().hex[:12]}"


def is_table_id(text: str) -> bool:
    """Whether `text` is an id the gateway issues: anything else names no table (and never
    reaches a key, such as a table's credentials)."""
    return TABLE_ID.fullmatch(text) is not None


class LobbyError(ValueError):
    """A lobby request that cannot be done; the text names the field and says why."""

    def __init__(self, message: str, status: int = 409, retry_after: float = 0.0) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


class Seat(msgspec.Struct, kw_only=True):
    kind: Literal["open", "human", "bot"] = "open"
    name: str = ""
    pool: str = ""  # the bot pool of a bot seat

    def controller(self) -> str:
        return f"bot:{self.pool}" if self.kind == "bot" else f"human:{self.name}"


class Table(msgspec.Struct, kw_only=True):
    """A table as anyone may see it."""

    id: str
    status: Literal["open", "starting", "live", "finished"] = "open"
    seats: list[Seat]
    modules: tuple[ModuleSpec, ...] = ()
    deadline_ms: int = 0
    turn_limit: int = 0
    created_at: float = 0.0
    expires_at: float | None = None  # an open table is removed then unless started (epoch s)
    game_id: str = ""  # once started

    def open_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind == "open"]


class TableRecord(Table, kw_only=True):
    """A table as Redis holds it: what anyone may see, and what the gateway alone knows."""

    creator: str = ""  # the client that made it ('' : trusted or unknown)
    holders: list[str] = []  # each seat's holder: the SHA-256 of their token ('' : none)
    clients: list[str] = []  # each seat's holder: the client that joined ('' : trusted)

    def public(self) -> Table:
        return Table(**{name: getattr(self, name) for name in Table.__struct_fields__})

    def clear(self, seat: int) -> None:
        self.seats[seat] = Seat()
        self.hold(seat, "", "")

    def hold(self, seat: int, holder: str, client: str) -> None:
        for column in (self.holders, self.clients):
            column.extend([""] * (len(self.seats) - len(column)))
        self.holders[seat] = holder
        self.clients[seat] = client


class Secrets(msgspec.Struct):
    """What the rules service gave the creator: each seat's credential and the referee's."""

    seats: list[str]
    referee: str


def table_key(table_id: str) -> str:
    return f"{GW}:t:{table_id}"


def secrets_key(table_id: str) -> str:
    return f"{GW}:t:{table_id}:secret"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_key(token: str) -> str:
    return f"{GW}:tok:{token_hash(token)}"


def by_creator_key(creator: str) -> str:
    """A creator's tables (sorted set: id → creation time), for the listing."""
    return f"{GW}:by:{creator}"


def open_key(creator: str) -> str:
    """A client's open tables (sorted set: id → expiry), for its quota."""
    return f"{GW}:open:{creator}"


class Lobby:
    def __init__(self, redis: Redis, table_ttl_s: float = TABLE_TTL_S,
                 open_tables: int = OPEN_TABLES) -> None:
        self.redis = redis
        self.table_ttl_s = table_ttl_s
        self.open_tables = open_tables

    async def get(self, table_id: str) -> TableRecord:
        raw = await self.redis.get(table_key(table_id))
        if raw is None:
            raise LobbyError("table: no such table", 404)
        return decode(raw)

    async def list(self, limit: int = MAX_TABLES_LISTED) -> list[Table]:
        """The newest tables, at most LISTED_PER_CREATOR of each creator, newest first. Ids
        whose table is gone, and creators left with none, are dropped from the indexes."""
        ranked = cast(list[tuple[Any, float]], await self.redis.zrevrange(
            CREATORS, 0, 2 * limit - 1, withscores=True))
        creators = [(_text(c), float(at)) for c, at in ranked]
        if not creators:
            return []
        pipe = self.redis.pipeline(transaction=False)  # one call per key: any slots
        for creator, _ in creators:
            pipe.zrevrange(by_creator_key(creator), 0, LISTED_PER_CREATOR - 1, withscores=True)
        found = cast(list[list[tuple[Any, float]]], await pipe.execute())
        gone = self.redis.pipeline(transaction=False)
        settled = time.time() - 60  # a creator's index may trail its place among creators
        for (creator, at), ids in zip(creators, found, strict=True):
            if not ids and at < settled:
                gone.zrem(CREATORS, creator)
        newest = sorted(((score, _text(i), creator) for (creator, _), ids
                         in zip(creators, found, strict=True) for i, score in ids), reverse=True)
        pipe = self.redis.pipeline(transaction=False)
        for _, table_id, _ in newest:
            pipe.get(table_key(table_id))
        raws = cast(list[bytes | None], await pipe.execute())
        tables: list[Table] = []
        for (_, table_id, creator), raw in zip(newest, raws, strict=True):
            if raw is None:  # expired, or a create cut short
                gone.zrem(by_creator_key(creator), table_id)
            elif len(tables) < limit:
                tables.append(decode(raw).public())
        if len(gone):
            await gone.execute()
        return tables

    async def create(self, table: TableRecord, client: str = "") -> str:
        """Store a new open table made by `client` ('' : trusted); its owner token."""
        now = time.time()
        table.created_at = now
        table.expires_at = now + self.table_ttl_s
        table.creator = client
        table.holders = [""] * len(table.seats)
        table.clients = [""] * len(table.seats)
        if client:
            await self._count_open(table.id, client, table.expires_at)
        owner = await self._token(table.id, OWNER)
        # Indexed first (NX: a taken id keeps its first place), then stored.
        creator = client or f"table:{table.id}"
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(by_creator_key(creator), {table.id: now}, nx=True)
        pipe.zremrangebyscore(by_creator_key(creator), 0, now - TOKEN_TTL_S)
        pipe.expire(by_creator_key(creator), TOKEN_TTL_S)
        pipe.zcard(by_creator_key(creator))
        pipe.zadd(CREATORS, {creator: now})
        pipe.zremrangebyscore(CREATORS, 0, now - TOKEN_TTL_S)  # creators long gone
        kept = (await pipe.execute())[3]
        if int(kept) > KEPT_PER_CREATOR:  # a busy creator: only their newest are listed
            old = await self.redis.zrange(by_creator_key(creator), 0, -KEPT_PER_CREATOR - 1)
            if old:
                await self.redis.zrem(by_creator_key(creator), *old)
        if not await self.redis.set(table_key(table.id), msgspec.json.encode(table), nx=True,
                                    ex=ttl(self.table_ttl_s)):
            await self.redis.delete(token_key(owner))
            raise LobbyError(f"table: {table.id!r} exists")
        return owner

    async def _count_open(self, table_id: str, client: str, expires_at: float) -> None:
        """Count a new open table against its client's quota (added first, then counted, so
        two creates at once cannot both slip under it)."""
        key = open_key(client)
        pipe = self.redis.pipeline(transaction=False)
        pipe.zremrangebyscore(key, 0, time.time())  # expired ones
        pipe.zadd(key, {table_id: expires_at})
        pipe.expire(key, ttl(self.table_ttl_s))
        pipe.zcard(key)
        held = int((await pipe.execute())[3])
        if held > self.open_tables:
            await self.redis.zrem(key, table_id)
            first = await self.redis.zrange(key, 0, 0, withscores=True)
            wait = float(first[0][1]) - time.time() if first else self.table_ttl_s
            raise LobbyError(f"tables: an address may have {self.open_tables} open tables at "
                             "once; start or wait for one", 429, max(1.0, wait))

    async def seat_of(self, token: str) -> tuple[str, int] | None:
        """The table and seat (OWNER for the owner) a token was given for, or None."""
        if not token or len(token) > 200:
            return None
        raw = await self.redis.get(token_key(token))
        if raw is None:
            return None
        table, _, seat = _text(raw).rpartition("|")
        return table, int(seat)

    async def join(self, table_id: str, name: str, seat: int | None,
                   client: str = "") -> tuple[int, str, Table]:
        """Take an open seat (the first one, or `seat`) for `client` ('' : trusted); the
        seat, its token and the table with its new holder."""
        token = secrets.token_urlsafe(32)

        def take(t: TableRecord) -> tuple[int, Table]:
            if t.status != "open":
                raise LobbyError(f"table: {t.id} has started; spectate it instead")
            if client and client in t.clients:
                raise LobbyError(f"seat: this address holds seat {t.clients.index(client)} of "
                                 "this table already (one seat per address)")
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
            t.hold(chosen, token_hash(token), client)
            return chosen, t.public()

        chosen, table = await self._change(table_id, take)
        await self.redis.set(token_key(token), f"{table_id}|{chosen}", ex=TOKEN_TTL_S)
        return chosen, token, table

    async def leave_open(self, table_id: str, seat: int, token: str) -> Table:
        """Give a seat back before the table starts (the seat's holder only: the owner may
        have given it to someone else meanwhile); the table without them."""
        def free(t: TableRecord) -> Table:
            if t.status != "open":
                raise LobbyError("table: started (leaving now forfeits the seat)")
            if t.holders and t.holders[seat:seat + 1] != [token_hash(token)]:
                raise LobbyError("authorization: unknown or expired token", 401)
            t.clear(seat)
            return t.public()

        table = await self._change(table_id, free)
        await self.redis.delete(token_key(token))
        return table

    async def remove(self, table_id: str, seat: int) -> Table:
        """The owner frees a seat before the start; its holder's token stops working."""
        holder: list[str] = []

        def free(t: TableRecord) -> Table:
            if t.status != "open":
                raise LobbyError("table: started; seats are removed before the start only")
            if not 0 <= seat < len(t.seats):
                raise LobbyError(f"seat: {seat} is not a seat of this table "
                                 f"(0..{len(t.seats) - 1})", 404)
            if t.seats[seat].kind == "open":
                raise LobbyError(f"seat: {seat} is open already")
            holder[:] = t.holders[seat:seat + 1]
            t.clear(seat)
            return t.public()

        table = await self._change(table_id, free)
        if holder and holder[0]:
            await self.redis.delete(f"{GW}:tok:{holder[0]}")
        return table

    async def start(self, table_id: str, fill: str,
                    start: Callable[[TableRecord], Awaitable[Secrets]]) -> Table:
        """Fill open seats with `fill` bots, create the game (`start`), keep its secrets for
        signing, then mark the table live. A table starts once; one whose game could not be
        created is open again. A started table no longer expires with the open ones."""
        filled: list[int] = []

        def go(t: TableRecord) -> TableRecord:
            if t.status != "open":
                raise LobbyError(f"table: {t.id} has started already")
            filled[:] = t.open_seats()
            for i in filled:
                t.seats[i] = Seat(kind="bot", name=f"{fill}{i}", pool=fill)
            t.status = "starting"
            t.game_id = t.id
            return t

        def live(t: TableRecord) -> Table:
            t.status = "live"
            t.expires_at = None
            return t.public()

        def failed(t: TableRecord) -> float:
            t.status = "open"
            for i in filled:
                t.seats[i] = Seat()
            return (t.expires_at or 0.0) - time.time()

        table = await self._change(table_id, go, ttl=TOKEN_TTL_S)
        try:
            found = await start(table)
        except BaseException:
            left = await self._change(table_id, failed)
            await self.redis.expire(table_key(table_id), ttl(left))
            raise
        if table.creator:
            await self.redis.zrem(open_key(table.creator), table_id)
        # The credentials first: a seat told the game is live may send a command at once.
        await self.redis.set(secrets_key(table_id), msgspec.json.encode(found), ex=TOKEN_TTL_S)
        return await self._change(table_id, live)

    async def secrets(self, table_id: str) -> Secrets | None:
        raw = await self.redis.get(secrets_key(table_id))
        return None if raw is None else msgspec.json.decode(raw, type=Secrets)

    async def mark_finished(self, table_id: str) -> None:
        def end(t: TableRecord) -> None:
            t.status = "finished"

        await self._change(table_id, end)

    async def forget_token(self, token: str) -> None:
        await self.redis.delete(token_key(token))

    async def _token(self, table_id: str, seat: int) -> str:
        token = secrets.token_urlsafe(32)
        await self.redis.set(token_key(token), f"{table_id}|{seat}", ex=TOKEN_TTL_S)
        return token

    async def _change(self, table_id: str, change: Callable[[TableRecord], R],
                      ttl: int | None = None) -> R:
        """Apply `change` to the table in one transaction on its key (keeping its expiry,
        or setting `ttl` seconds)."""
        key = table_key(table_id)
        for _ in range(50):
            async with self.redis.pipeline(transaction=True) as pipe:
                try:
                    await pipe.watch(key)
                    raw = await pipe.get(key)
                    if raw is None:
                        raise LobbyError("table: no such table", 404)
                    table = decode(raw)
                    result = change(table)
                    cast(Any, pipe).multi()
                    if ttl is None:
                        pipe.set(key, msgspec.json.encode(table), keepttl=True)
                    else:
                        pipe.set(key, msgspec.json.encode(table), ex=ttl)
                    await pipe.execute()
                    return result
                except WatchError:
                    continue
        raise LobbyError("table: too busy, try again", 503)


def decode(raw: bytes | str) -> TableRecord:
    """A stored table; a key that does not hold one names no table."""
    try:
        return msgspec.json.decode(raw, type=TableRecord)
    except msgspec.DecodeError:
        raise LobbyError("table: no such table", 404) from None


def ttl(seconds: float) -> int:
    """Seconds for EXPIRE: whole, at least 1."""
    return max(1, round(seconds))


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
