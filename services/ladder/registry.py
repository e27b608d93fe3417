"""Bots: registration, tokens, readiness, absence.

A bot registers once with a name (taken for good, whatever its case: names are what the log
and the boards know a bot by), its owner and the rule sets it accepts, and gets an id and a
*bot token*: a random secret that acts for that bot only, stored by its SHA-256. The token is
rotated (a new one; the old one stops at once) or revoked (the bot retires: it plays no more
games; its name, games and ratings stay).

A bot is matched while it is *ready* (it said so), not *absent* (it missed `absent_after`
deadlines in a row: the matchmaker takes it out until it says ready again) and its stream is
open (`seen` by a gateway within the ladder's `seen_timeout_s`).
"""

from __future__ import annotations

import time
from collections.abc import Iterable

import msgspec
from redis.asyncio import Redis

from services.ladder.keys import (
    BOTS,
    LADDER,
    MISSES,
    NEWS,
    NEWS_KEPT,
    READY,
    SEEN,
    bot_key,
    name_key,
    new_bot_id,
    new_token,
    registrations_key,
    token_hash,
    token_key,
)
from services.ladder.records import BotRecord, decode_bot
from services.ladder.watch import change

REGISTRATIONS_PER_DAY = 10  # per client address (trusted addresses: no quota)
DAY_S = 24 * 3600


class LadderError(ValueError):
    """A request the ladder cannot do; the text names the field and says why."""

    def __init__(self, message: str, status: int = 409, retry_after: float = 0.0) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


def now_ms() -> int:
    return int(time.time() * 1000)


class Registry:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis

    async def register(self, name: str, owner: str, rulesets: tuple[str, ...],
                       client: str = "") -> tuple[BotRecord, str]:
        """A new bot and its token. `client` ('' : trusted) counts against its address's
        quota of registrations a day."""
        bot_id = new_bot_id()
        if client:
            await self._count(bot_id, client)
        if not await self.redis.set(name_key(name), bot_id, nx=True):
            if client:
                await self.redis.zrem(registrations_key(client), bot_id)
            raise LadderError(f"name: {name!r} is taken (names are for good, whatever the case)")
        token = new_token()
        record = BotRecord(id=bot_id, name=name, owner=owner.strip(), rulesets=rulesets,
                           created_at=time.time(), token=token_hash(token), creator=client)
        pipe = self.redis.pipeline(transaction=False)  # one call per key: any slots
        pipe.set(bot_key(bot_id), msgspec.json.encode(record))
        pipe.set(token_key(token), bot_id)
        pipe.zadd(BOTS, {bot_id: record.created_at})
        await pipe.execute()
        return record, token

    async def _count(self, bot_id: str, client: str) -> None:
        key = registrations_key(client)
        now = time.time()
        pipe = self.redis.pipeline(transaction=False)
        pipe.zremrangebyscore(key, 0, now - DAY_S)
        pipe.zadd(key, {bot_id: now})
        pipe.expire(key, DAY_S)
        pipe.zcard(key)
        if int((await pipe.execute())[3]) > REGISTRATIONS_PER_DAY:
            await self.redis.zrem(key, bot_id)
            first = await self.redis.zrange(key, 0, 0, withscores=True)
            wait = float(first[0][1]) + DAY_S - now if first else DAY_S
            raise LadderError(f"bots: an address may register {REGISTRATIONS_PER_DAY} bots a "
                              "day", 429, max(1.0, wait))

    async def bot(self, bot_id: str) -> BotRecord | None:
        raw = await self.redis.get(bot_key(bot_id))
        return None if raw is None else decode_bot(raw)

    async def bots(self, bot_ids: Iterable[str]) -> dict[str, BotRecord]:
        ids = list(bot_ids)
        if not ids:
            return {}
        pipe = self.redis.pipeline(transaction=False)
        for bot_id in ids:
            pipe.get(bot_key(bot_id))
        return {bot_id: decode_bot(raw) for bot_id, raw in zip(ids, await pipe.execute(),
                                                               strict=True) if raw is not None}

    async def of_token(self, token: str) -> BotRecord | None:
        """The active bot `token` acts for, or None (unknown, rotated away or revoked)."""
        if not token or len(token) > 200:
            return None
        found = await self.redis.get(token_key(token))
        if found is None:
            return None
        record = await self.bot(found.decode() if isinstance(found, bytes) else str(found))
        if record is None or record.status != "active" or record.token != token_hash(token):
            return None
        return record

    async def ready(self, bot_id: str, ready: bool) -> BotRecord:
        """Say the bot wants games (no longer absent, its misses forgotten), or no more."""
        def mark(r: BotRecord) -> BotRecord:
            if r.status != "active":
                raise LadderError("bot: revoked; register a new bot", 409)
            if ready:
                r.absent, r.absent_since = False, 0.0
            return r

        record = await change(self.redis, bot_key(bot_id), BotRecord, mark)
        pipe = self.redis.pipeline(transaction=False)
        if ready:
            pipe.zadd(READY, {bot_id: now_ms()}, nx=True)  # keeps its place if ready already
            pipe.hdel(MISSES, bot_id)
            pipe.zadd(SEEN, {bot_id: now_ms()})
        else:
            pipe.zrem(READY, bot_id)
        await pipe.execute()
        return record

    async def rotate(self, bot_id: str, old: str) -> tuple[BotRecord, str]:
        """A new token for the bot; `old` stops at once."""
        token = new_token()

        def swap(r: BotRecord) -> BotRecord:
            if r.status != "active" or r.token != token_hash(old):
                raise LadderError("authorization: unknown or revoked token", 401)
            r.token = token_hash(token)
            return r

        await self.redis.set(token_key(token), bot_id)
        try:
            record = await change(self.redis, bot_key(bot_id), BotRecord, swap)
        except BaseException:
            await self.redis.delete(token_key(token))
            raise
        await self.redis.delete(token_key(old))
        return record, token

    async def revoke(self, bot_id: str, token: str) -> BotRecord:
        """The bot retires: its token stops, it is matched no more; its games play on (its
        seats get their default moves) and its name and ratings stay."""
        def retire(r: BotRecord) -> BotRecord:
            r.status, r.token = "revoked", ""
            return r

        record = await change(self.redis, bot_key(bot_id), BotRecord, retire)
        pipe = self.redis.pipeline(transaction=False)
        pipe.delete(token_key(token))
        pipe.zrem(READY, bot_id)
        pipe.xadd(NEWS, {"kind": "revoked", "bot": bot_id}, maxlen=NEWS_KEPT, approximate=True)
        await pipe.execute()
        return record

    async def mark_absent(self, bot_id: str, misses: int) -> bool:
        """Take a bot out of matchmaking after `misses` deadlines in a row; whether it was
        marked now (False: absent already, or gone)."""
        def mark(r: BotRecord) -> bool:
            if r.absent or r.status != "active":
                return False
            r.absent, r.absent_since = True, time.time()
            return True

        marked = await change(self.redis, bot_key(bot_id), BotRecord, mark, missing=lambda: False)
        if marked:
            pipe = self.redis.pipeline(transaction=False)
            pipe.zrem(READY, bot_id)
            pipe.xadd(NEWS, {"kind": "absent", "bot": bot_id, "misses": misses},
                      maxlen=NEWS_KEPT, approximate=True)
            await pipe.execute()
        return marked

    async def seen(self, bot_ids: Iterable[str]) -> None:
        """These bots' streams are open now."""
        stamp = now_ms()
        found = {bot_id: stamp for bot_id in bot_ids}
        if found:
            await self.redis.zadd(SEEN, found)

    async def id_of_name(self, name: str) -> str | None:
        found = await self.redis.get(name_key(name))
        return None if found is None else (found.decode() if isinstance(found, bytes)
                                           else str(found))


def is_ladder_key(key: str) -> bool:
    return key.startswith(f"{LADDER}:")
