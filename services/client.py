"""A client of the rules service over Redis: create games, send commands, follow logs.

What `hexlog play`, the tournament runner, the e2e benchmark and the tests use; it only writes
command streams and reads logs and outcomes, like any external client would.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

from redis.asyncio import Redis

from events.codec import codec
from events.envelope import CommandEnvelope, EventEnvelope
from events.requests import CreateGame
from services.rules.protocol import DATA, KIND, SENT, is_alive
from services.store import EventStore
from services.store.keys import commands_key, game_keys, partition
from services.store.streams import read


class ServiceError(RuntimeError):
    """The rules service refused a request, or did not answer in time."""


class Client:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self.store = EventStore(redis)
        self.codec = codec()

    async def rules_alive(self) -> bool:
        return await is_alive(self.redis, "rules")

    async def wait_for_rules(self, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while not await self.rules_alive():
            if time.monotonic() > deadline:
                raise ServiceError("no rules service answered (is `hexlog serve rules` running?)")
            await asyncio.sleep(0.05)

    async def create_game(self, request: CreateGame, timeout: float = 20.0) -> list[str]:
        """Create a game; returns the seats' credentials."""
        stream = commands_key(partition(request.game_id))
        await self.redis.xadd(stream, {DATA: self.codec.encode(request), KIND: "create"})
        outcome = await self.outcome(request.command_id, request.game_id, timeout)
        if outcome.get("status") != "created":
            raise ServiceError(f"game {request.game_id} not created: {outcome.get('message', outcome)}")
        creds: list[str] = outcome["credentials"]
        return creds

    async def send(self, envelope: CommandEnvelope) -> None:
        stream = commands_key(partition(envelope.game_id))
        await self.redis.xadd(stream, {DATA: self.codec.encode(envelope), SENT: repr(time.time())})

    async def outcome(self, command_id: str, game_id: str, timeout: float = 20.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            found = await self.store.get_outcome(command_id, game_id)
            if found is not None:
                return found
            if time.monotonic() > deadline:
                raise ServiceError(f"no outcome for command {command_id} after {timeout:.0f}s")
            await asyncio.sleep(0.01)

    async def events(self, game_id: str, after: int = 0) -> list[EventEnvelope]:
        return [self.codec.decode_event_envelope(b) for _, b in await self.store.read(game_id, after)]

    async def follow(self, game_id: str, after: int = 0, block_ms: int = 500) -> AsyncIterator[EventEnvelope]:
        """Every event after `after`, then new ones as they are appended (until the caller stops)."""
        key = game_keys(game_id).ev
        last = f"{after}-0"
        while True:
            for _, entries in await read(self.redis, {key: last}, count=500, block=block_ms):
                for entry_id, fields in entries:
                    last = entry_id.decode()
                    yield self.codec.decode_event_envelope(fields[DATA.encode()])

    async def meta(self, game_id: str) -> dict[str, str] | None:
        return await self.store.meta(game_id)


def new_id(prefix: str = "g") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"
