"""Intake: one command-stream entry in, routed to the pipeline, or set aside with its reason.

Everything on a command stream is hostile until checked. An entry is
* `kind=create` or `kind=forfeit`: a requester's request, accepted only from a requester's
  stream (the organisers' `hexlog:{p}:cmds` or the gateway's `hexlog:{p}:cmds:gateway`); a
  forfeit must be signed by the referee;
* a move (the default kind): a `CommandEnvelope` signed for its seat (events/auth.py), from a
  requester's stream or from the stream of the bot pool that controls that seat.

Only an authenticated command gets an outcome under its id (in its seat's scope), so a forged
or broken entry cannot occupy the id of somebody's next move. What cannot be authenticated —
unreadable, oversized, unsigned, signed with the wrong key, for an unknown game, from another
pool's stream — goes to the partition's dead-letter stream with a one-line reason (its fields
cut to a few kilobytes) and is logged; nothing else changes. A body that fails to decode but
whose signature checks out for the ids it names is answered: the sender is who it claims, so
it learns what was wrong (`base.command.invalid`). Nothing raises out of `handle` but Redis
being away (the entry then stays pending for the claimer).
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeVar

import msgspec
import structlog
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from events.auth import MAC_FIELD, turn_key, verify
from events.codec import Codec, CodecError
from events.disputes import REFEREE
from events.envelope import CommandEnvelope
from events.requests import CreateGame, ForfeitSeat
from services import metrics
from services.protocol import DATA, KIND, SENT
from services.rules import disputes
from services.rules.config import ServiceConfig
from services.rules.lifecycle import Lifecycle
from services.rules.moves import MovePipeline
from services.rules.prompting import FORFEIT
from services.rules.repository import GameRepository, GameSlot
from services.runtime.logging import command_context
from services.store.keys import check_id, dlq_key, partition, pool_of_stream, seat_scope

log = structlog.get_logger("hexlog.rules")

MAX_REQUEST_BYTES = 64 * 1024  # a create request (names, modules and their parameters)
MAX_CLOCK_SKEW_S = 300.0  # a `sent` stamp further off than this is ignored
DLQ_MAXLEN = 10_000
_DATA, _KIND, _MAC, _SENT = DATA.encode(), KIND.encode(), MAC_FIELD.encode(), SENT.encode()

Request = TypeVar("Request", CreateGame, ForfeitSeat)


@dataclass(frozen=True)
class Claimed:
    """What an unreadable body says about itself, read leniently: enough to check its
    signature, never trusted without it."""

    command_id: str
    game_id: str
    seat: int
    version: int


class Intake:
    def __init__(self, redis: Redis, repo: GameRepository, pipeline: MovePipeline,
                 lifecycle: Lifecycle, codec: Codec, config: ServiceConfig,
                 on_new_pools: Callable[[list[str]], Awaitable[None]]) -> None:
        self.redis = redis
        self.repo = repo
        self.pipeline = pipeline
        self.lifecycle = lifecycle
        self.codec = codec
        self.config = config
        self.on_new_pools = on_new_pools

    async def handle(self, stream: str, entry_id: bytes, fields: dict[bytes, bytes]) -> None:
        """Process one command entry. Raises only when Redis is away (the entry stays pending
        for the claimer); every other failure becomes an outcome or a
        dead letter."""
        try:
            data = fields.get(_DATA)
            if data is None:
                await self.dead_letter(stream, entry_id, fields, "no __data__ field")
                return
            kind = fields.get(_KIND, b"move")
            pool = pool_of_stream(stream)
            if kind == b"move":
                await self.move(stream, entry_id, fields, data, pool)
            elif kind in (b"create", b"forfeit") and pool:
                await self.dead_letter(stream, entry_id, fields,
                                       f"a bot pool's stream carries moves only, not {kind.decode()}")
            elif kind == b"create":
                await self.create(stream, entry_id, fields, data)
            elif kind == b"forfeit":
                await self.forfeit(stream, entry_id, fields, data)
            else:
                await self.dead_letter(stream, entry_id, fields, f"unknown kind {kind[:40]!r}")
        except (RedisConnectionError, RedisTimeoutError):
            # Redis itself is away (longer than the client's retries across a failover): the
            # command is not bad. It stays pending, unacknowledged, and is judged again by the
            # claimer once Redis is back, instead of being set aside for good.
            raise
        except Exception as exc:  # a bug must not leave the entry pending for ever
            log.exception("command failed", entry=entry_id.decode(), stream=stream)
            await self.dead_letter(stream, entry_id, fields, f"internal error: {exc!r}"[:300])

    # --- moves ----------------------------------------------------------------------------

    async def move(self, stream: str, entry_id: bytes, fields: dict[bytes, bytes], data: bytes,
                   pool: str) -> None:
        mac = fields.get(_MAC, b"").decode(errors="replace")
        try:
            env = self.decode_move(data)
        except (CodecError, ValueError) as exc:
            await self.unreadable(stream, entry_id, fields, data, mac, str(exc))
            return
        p = partition(env.game_id)
        if p != stream_partition(stream):
            await self.dead_letter(stream, entry_id, fields, "command sent to the wrong partition")
            return
        seat = env.command.seat
        slot = await self.repo.slot(env.game_id)
        if slot is None:
            await self.refused(stream, entry_id, fields, env.game_id, seat, env.command_id,
                               "service.game.unknown", f"no game {env.game_id!r}", None)
            return
        problem = seat_problem(slot, env, data, mac, pool)
        if problem is not None:
            await self.refused(stream, entry_id, fields, env.game_id, seat, env.command_id,
                               *problem, slot)
            return
        if env.default:
            # Only the service plays default moves; on a stream the flag is a forgery.
            env = msgspec.structs.replace(env, default=False)
        # Every line logged while this command is judged carries its ids (JSON logs: one
        # command followed from the gateway or the bot through here to its events).
        with command_context(command_id=env.command_id, game_id=env.game_id, partition=p,
                             seat=seat):
            async with slot.lock:
                await self.pipeline.apply(slot, env, seat_scope(seat), sent_at(fields))

    def decode_move(self, data: bytes) -> CommandEnvelope:
        """A move's envelope, its ids checked (CodecError or ValueError says what is wrong)."""
        env = self.codec.decode_command_envelope(data)
        check_id("command id", env.command_id)
        check_id("game id", env.game_id)
        return env

    def quick(self, stream: str, entry_id: bytes, fields: dict[bytes, bytes]) -> Quick | None:
        """The common case, checked without waiting (services/rules/batch.py): a move for a
        game in memory whose lock is free, on its current version, signed by its seat and sent
        by that seat's controller, that `decide` alone judges, in a game without forfeited
        seats. Anything else is None: the entry takes `handle`, which says what is wrong."""
        data = fields.get(_DATA)
        if data is None or fields.get(_KIND, b"move") != b"move":
            return None
        try:
            env = self.decode_move(data)
        except (CodecError, ValueError):
            return None
        slot = self.repo.cached(env.game_id)
        if (slot is None or slot.lock.locked() or env.default
                or env.expected_version != slot.version or FORFEIT in slot.controllers
                or disputes.needs_record(env.command)
                or partition(env.game_id) != stream_partition(stream)):
            return None
        mac = fields.get(_MAC, b"").decode(errors="replace")
        if seat_problem(slot, env, data, mac, pool_of_stream(stream)) is not None:
            return None
        return Quick(stream, entry_id, fields, env, slot, seat_scope(env.command.seat),
                     sent_at(fields))

    def still_quick(self, q: Quick) -> bool:
        """Whether `quick`'s answer still holds once the game's lock is taken (another task
        may have held it in between: the game moved on, or a seat forfeited)."""
        slot = q.slot
        return (q.env.expected_version == slot.version and FORFEIT not in slot.controllers
                and self.repo.slots.get(slot.game_id) is slot)

    async def unreadable(self, stream: str, entry_id: bytes, fields: dict[bytes, bytes],
                         data: bytes, mac: str, reason: str) -> None:
        """A body that is not a valid command. If its signature checks out for the ids it
        names, its sender learns why (an outcome); otherwise only the dead-letter stream hears
        of it."""
        await self.answer_signed(stream, fields, "base.command.invalid", reason)
        claimed = claimed_ids(data)
        if claimed is None or partition(claimed.game_id) != stream_partition(stream):
            await self.dead_letter(stream, entry_id, fields, f"invalid command: {reason}")
            return
        await self.refused(stream, entry_id, fields, claimed.game_id, claimed.seat,
                           claimed.command_id, "invalid command", reason,
                           await self.repo.slot(claimed.game_id))

    async def answer_signed(self, stream: str, fields: dict[bytes, bytes], rule_id: str,
                            reason: str) -> bool:
        """Record `rule_id` as the outcome of an entry we cannot process, if (and only if) it
        is signed by the seat it names; True if it was."""
        data = fields.get(_DATA, b"")
        mac = fields.get(_MAC, b"").decode(errors="replace")
        claimed = claimed_ids(data)
        if claimed is None or partition(claimed.game_id) != stream_partition(stream):
            return False
        slot = await self.repo.slot(claimed.game_id)
        key = None if slot is None else slot.key(claimed.seat, claimed.version)
        if slot is None or key is None or not verify(key, data, mac):
            return False
        await self.pipeline.record_rejection(claimed.game_id, claimed.command_id,
                                             seat_scope(claimed.seat), slot.version,
                                             claimed.seat, rule_id, reason)
        return True

    # --- organisers' requests ---------------------------------------------------------------

    async def create(self, stream: str, entry_id: bytes, fields: dict[bytes, bytes],
                     data: bytes) -> None:
        req = await self.request(stream, entry_id, fields, data, CreateGame, "create")
        if req is None:
            return
        if partition(req.game_id) != stream_partition(stream):
            await self.dead_letter(stream, entry_id, fields, "create request sent to the wrong partition")
            return
        pools = await self.lifecycle.create(req)
        if pools:
            await self.on_new_pools(pools)
        # The request may hold the seed: it does not stay on the stream once handled.
        await self.redis.xdel(stream, entry_id)

    async def forfeit(self, stream: str, entry_id: bytes, fields: dict[bytes, bytes],
                      data: bytes) -> None:
        req = await self.request(stream, entry_id, fields, data, ForfeitSeat, "forfeit")
        if req is None:
            return
        slot = await self.repo.slot(req.game_id)
        mac = fields.get(_MAC, b"").decode(errors="replace")
        if slot is None or not slot.referee or not verify(
                turn_key(slot.referee, req.game_id, REFEREE, 0), data, mac):
            await self.dead_letter(stream, entry_id, fields,
                                   "service.seat.credential: a forfeit must be signed by the referee")
            return
        await self.lifecycle.forfeit(req)

    async def request(
        self, stream: str, entry_id: bytes, fields: dict[bytes, bytes], data: bytes,
        kind: type[Request], name: str,
    ) -> Request | None:
        """Decode an organiser's request, or dead-letter it with the field that is wrong."""
        if len(data) > MAX_REQUEST_BYTES:
            await self.dead_letter(stream, entry_id, fields,
                                   f"invalid {name} request: {len(data)} bytes; the limit is "
                                   f"{MAX_REQUEST_BYTES}")
            return None
        try:
            req = msgspec.json.decode(data, type=kind)
            check_id("command id", req.command_id)
            check_id("game id", req.game_id)
        except (msgspec.DecodeError, ValueError) as exc:
            await self.dead_letter(stream, entry_id, fields, f"invalid {name} request: {exc}")
            return None
        except RecursionError:
            await self.dead_letter(stream, entry_id, fields,
                                   f"invalid {name} request: JSON nested too deeply")
            return None
        return req

    # --- dead letters -----------------------------------------------------------------------

    async def refused(self, stream: str, entry_id: bytes, fields: dict[bytes, bytes],
                      game_id: str, seat: int, command_id: str, rule_id: str, message: str,
                      slot: GameSlot | None) -> None:
        """A move not taken as its seat's: dead-lettered, told to the pool that sent it, and
        counted for the seat when the sender is that seat's controller (refusals.py)."""
        await self.dead_letter(stream, entry_id, fields, f"{rule_id}: {message}")
        pool = pool_of_stream(stream)
        owns = (slot is not None and 0 <= seat < len(slot.controllers)
                and (not pool or slot.controllers[seat] == pool))
        await self.pipeline.refusals.note(game_id, seat, pool, command_id, rule_id, message,
                                          count=owns)
        metrics.REFUSED.labels(pool).inc()

    async def dead_letter(self, stream: str, entry_id: bytes, fields: dict[bytes, bytes],
                          reason: str) -> None:
        """Set an entry aside with its reason: at most a few fields, each cut short, so a
        hostile entry cannot make the dead-letter stream hold megabytes."""
        cut = self.config.dead_letter_field_bytes
        body: dict[Any, Any] = {k[:64]: v[:cut] for k, v in list(fields.items())[:8]}
        if fields.get(_KIND) == b"create" and _DATA in body:
            # A create request may hold a seed and its reply key: not for dead-letter readers.
            body[_DATA] = b"(a create request: withheld, it may hold a seed)"
        body[b"reason"] = reason
        body[b"entry"] = entry_id
        body[b"stream"] = stream
        await self.redis.xadd(dlq_key(stream_partition(stream)), body, maxlen=DLQ_MAXLEN,
                              approximate=True)
        metrics.COMMANDS.labels("dead_lettered", "unknown").inc()
        log.warning("dead letter", stream=stream, entry=entry_id.decode(), reason=reason)


@dataclass(slots=True)  # (not frozen: made for every command, and frozen costs 4x to make)
class Quick:
    """A move that passed `Intake.quick`: authenticated, for its game's current version."""

    stream: str
    entry_id: bytes
    fields: dict[bytes, bytes]
    env: CommandEnvelope
    slot: GameSlot
    scope: str
    sent: float


def seat_problem(slot: GameSlot, env: CommandEnvelope, data: bytes, mac: str,
                 pool: str) -> tuple[str, str] | None:
    """Why a move cannot be taken as its seat's (the rule and a message), or None: it must be
    signed with the seat's turn key for the version it names, and a bot pool may only send
    for the seats it plays."""
    seat = env.command.seat
    key = slot.key(seat, env.expected_version)
    if key is None or not verify(key, data, mac):
        return ("service.seat.credential",
                f"not signed by seat {seat} of {env.game_id} for version {env.expected_version}")
    if pool and (seat < 0 or seat >= len(slot.controllers) or slot.controllers[seat] != pool):
        return "service.seat.controller", f"seat {seat} is not played by {pool}"
    return None


def sent_at(fields: dict[bytes, bytes]) -> float:
    """The sender's clock (seconds) for the latency statistics; 0 when missing or absurd
    (not a number, infinite, or far from ours)."""
    raw = fields.get(_SENT)
    try:
        sent = float(raw) if raw else 0.0
    except ValueError:
        return 0.0
    if not math.isfinite(sent) or abs(time.time() - sent) > MAX_CLOCK_SKEW_S:
        return 0.0
    return sent


@lru_cache(maxsize=4096)  # asked for every command read: a service reads a few dozen streams
def stream_partition(stream: str) -> int:
    # hexlog:{017}:cmds[:bot:<pool>]
    return int(stream.split("{", 1)[1].split("}", 1)[0])


_FIELD = re.compile(rb'"(command_id|game_id)"\s*:\s*"([^"\\]{1,200})"')
_NUMBER = re.compile(rb'"(seat|expected_version)"\s*:\s*(-?\d{1,9})')


def claimed_ids(data: bytes) -> Claimed | None:
    """What a body that failed validation says it is, read without trusting its shape: the
    command id, game, seat and version, found by pattern in its first kilobytes (a hostile
    body may be megabytes, or nested too deep for a parser)."""
    head = data[:4096]
    text = {m[1].decode(): m[2].decode() for m in _FIELD.finditer(head)}
    numbers = {m[1].decode(): int(m[2]) for m in _NUMBER.finditer(head)}
    try:
        cid, gid = text["command_id"], text["game_id"]
        check_id("command id", cid)
        check_id("game id", gid)
        return Claimed(cid, gid, numbers["seat"], numbers["expected_version"])
    except (KeyError, ValueError):
        return None
