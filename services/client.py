"""A client of the rules service over Redis: create games, send commands, follow logs.

What `hexlog play`, the tournament runner, the gateway, the e2e benchmark and the tests use; it
only writes its own command streams (the organisers', or with `source=GATEWAY` the gateway's)
and reads logs and outcomes, like any external client would.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import msgspec
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as CutConnection
from redis.exceptions import TimeoutError as CutTimeout

from events.auth import sign, turn_key
from events.codec import codec
from events.disputes import REFEREE
from events.envelope import CommandEnvelope, EventEnvelope
from events.requests import CreateGame, ForfeitSeat
from events.sealed import SealError, new_reply_key, unseal
from services.protocol import DATA, KIND, MAC, SENT, is_alive
from services.store import EventStore
from services.store.connect import FAILOVER_PATIENCE_S, is_cluster, is_sentinel
from services.store.keys import ORGANISER, commands_key, game_keys, partition, seat_scope
from services.store.streams import read


class ServiceError(RuntimeError):
    """The rules service refused a request, or did not answer in time."""


@dataclass(frozen=True)
class Credentials:
    """What the creator of a game holds: each seat's credential and the referee's."""

    seats: list[str]
    referee: str


def signed_fields(envelope: CommandEnvelope, credential: str) -> dict[str, bytes | str]:
    """A command stream entry for `envelope`, signed for its seat (events/auth.py)."""
    body = codec().encode(envelope)
    key = turn_key(credential, envelope.game_id, envelope.command.seat, envelope.expected_version)
    return {DATA: body, MAC: sign(key, body), SENT: repr(time.time())}


class Client:
    def __init__(self, redis: Redis, source: str = "") -> None:
        """`source`: whose command streams this client writes ("" the organisers', GATEWAY
        the gateway's): the one its Redis user may add to."""
        self.redis = redis
        self.source = source
        # Through Sentinel or a cluster a cut connection is a failover, waited out; on one
        # server it is the server gone.
        self.follows_failover = is_cluster(redis) or is_sentinel(redis)
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

    def stream(self, game_id: str) -> str:
        return commands_key(partition(game_id), self.source)

    async def create_game(self, request: CreateGame, timeout: float = 20.0) -> Credentials:
        """Create a game; returns its credentials. The request gets a fresh reply key unless
        it has one (a caller that must read the credentials again after a restart, such as a
        tournament that resumes, keeps its own: `credentials_of`)."""
        if not request.reply_key:
            request = msgspec.structs.replace(request, reply_key=new_reply_key())
        await self.redis.xadd(self.stream(request.game_id),
                              {DATA: self.codec.encode(request), KIND: "create"})
        outcome = await self.outcome(request.command_id, request.game_id, timeout, scope=ORGANISER)
        if outcome.get("status") != "created":
            raise ServiceError(f"game {request.game_id} not created: {outcome.get('message', outcome)}")
        return opened(outcome, request)

    async def credentials_of(self, request: CreateGame) -> Credentials | None:
        """The credentials of a game this requester created with `request` (its reply key), if
        the creation's outcome is still kept; None otherwise."""
        outcome = await self.store.get_outcome(request.command_id, request.game_id,
                                               scope=ORGANISER)
        if outcome is None or outcome.get("status") != "created":
            return None
        return opened(outcome, request)

    async def send(self, envelope: CommandEnvelope, credential: str) -> None:
        """Send a seat's (or the referee's) command, signed with its credential."""
        await self.redis.xadd(self.stream(envelope.game_id),
                              signed_fields(envelope, credential))  # type: ignore[arg-type]

    async def forfeit(self, game_id: str, seat: int, referee: str, reason: str,
                      command_id: str) -> None:
        """Ask the service to play a seat's default moves from now on (signed by the referee)."""
        body = self.codec.encode(ForfeitSeat(command_id=command_id, game_id=game_id, seat=seat,
                                             reason=reason))
        mac = sign(turn_key(referee, game_id, REFEREE, 0), body)
        await self.redis.xadd(self.stream(game_id), {DATA: body, KIND: "forfeit", MAC: mac})

    async def outcome(self, command_id: str, game_id: str, timeout: float = 20.0, *,
                      scope: str) -> dict[str, Any]:
        """The outcome of a command sent in `scope` (`seat_scope(seat)` for a seat's move,
        `org` for a create request), once the service has decided it and, under replica
        durability, a replica holds it (services/store/replicated.py). A connection cut by a
        failover does not end the wait; a command left unanswered may be sent again under the
        same id (docs/operations.md, Failover)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                found = await self.store.get_outcome(command_id, game_id, scope=scope)
            except (CutConnection, CutTimeout):
                if not self.follows_failover:  # one server gone: not for waiting out
                    raise
                found = None  # a failover: ask again until the deadline
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
        cut_since = 0.0
        while True:
            try:
                got = await read(self.redis, {key: last}, count=500, block=block_ms)
                cut_since = 0.0
            except (CutConnection, CutTimeout):
                # A failover (Sentinel, Cluster) is over in seconds: read on from where it was.
                # One server that stopped is not coming back by itself: say so (the caller).
                now = time.monotonic()
                cut_since = cut_since or now
                if not self.follows_failover or now - cut_since > FAILOVER_PATIENCE_S:
                    raise
                await asyncio.sleep(0.5)
                continue
            for _, entries in got:
                for entry_id, fields in entries:
                    last = entry_id.decode()
                    yield self.codec.decode_event_envelope(fields[DATA.encode()])

    async def meta(self, game_id: str) -> dict[str, str] | None:
        return await self.store.meta(game_id)


def opened(outcome: dict[str, Any], request: CreateGame) -> Credentials:
    """The credentials sealed in a creation's outcome, opened with the request's reply key."""
    try:
        secret = unseal(request.reply_key, request.game_id, request.command_id,
                        str(outcome.get("sealed", "")))
    except SealError as exc:
        raise ServiceError(f"game {request.game_id}: {exc}") from None
    return Credentials([str(c) for c in secret["credentials"]], str(secret.get("referee", "")))


def move_scope(envelope: CommandEnvelope) -> str:
    """The outcome scope of a signed move (its seat's)."""
    return seat_scope(envelope.command.seat)


def new_id(prefix: str = "g") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"
