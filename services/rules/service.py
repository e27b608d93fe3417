"""The rules service: commands in, events out (DESIGN.md "Services: rules").

For each command entry it loads the game (memory → snapshot + tail → full fold), checks the
seat's credential and `expected_version`, runs `decide`, appends by CAS (one Lua script with
the command's idempotency key), then prompts the seat that must act next and sets its
deadline. A rejection is stored as the command's outcome and on the game's rulings stream.
Nothing raises out of `handle_entry`: bad input becomes an outcome and a dead letter, so a
poison message can never wedge a worker or stay pending.

Safety does not depend on this process: any number of replicas may consume the same streams;
the CAS orders each game, the command key makes redelivery idempotent, and a seat's default
move on a deadline has a deterministic command id, so two replicas cannot both play it.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import signal
import time
from datetime import UTC, datetime
from typing import Any, cast

import msgspec
import structlog
from redis.asyncio import Redis

from events.codec import MAX_COMMAND_BYTES, CodecError, codec
from events.commands import Command
from events.disputes import REFEREE
from events.envelope import CommandEnvelope, EventEnvelope, schema_of
from events.events import Event, SeatForfeited
from events.requests import CreateGame, ForfeitSeat
from services.rules import disputes
from services.rules.engine import (
    RULES_VERSION,
    Rejected,
    RulesetError,
    decide,
    evolve,
    new_game,
    next_prompt,
    pending,
    snapshot,
    view,
)
from services.rules.engine.rules import register
from services.rules.protocol import (
    DATA,
    KIND,
    SENT,
    deadlines_key,
    latency_key,
    pool_key,
    prompts_key,
)
from services.rules.record import load_record
from services.rules.slots import GameSlot, credential_hash, load_slot
from services.store import EventStore
from services.store.keys import (
    PARTITIONS,
    RULES_GROUP,
    check_id,
    commands_key,
    dlq_key,
    game_keys,
    partition,
)
from services.store.results import GameExistsError, PromptWrite

log = structlog.get_logger("hexlog.rules")

register(
    {
        "service.stale": "A command must be decided on the game's current version (expected_version).",
        "service.seat.credential": "A command must carry the credential of the seat it is for.",
        "service.game.unknown": "A command must name an existing game.",
        "service.create.invalid": "A game is created with a valid ruleset, seats and controllers.",
        "service.create.exists": "A game id is used once.",
        "service.forfeit.invalid": "A forfeit names a seat of a game still in progress.",
        "service.dead_letter": "A command that cannot be processed after several deliveries is set aside.",
    }
)

# Test hook, for the crash-recovery tests only (tests/service/test_crash_recovery.py):
# HEXLOG_FAULT=before_append or after_append makes this process SIGKILL itself at that point of
# the first move it commits, as a crash would. Read once at start; unset, it does nothing.
FAULT = os.environ.get("HEXLOG_FAULT", "")


def _fault(point: str) -> None:
    if point == FAULT:
        os.kill(os.getpid(), signal.SIGKILL)


DEFAULT_DEADLINE_MS = 30_000
FORFEIT = "forfeit"  # the controller of a seat whose bot has left for good
SNAPSHOT_EVERY = 100
MAX_CONFLICT_RETRIES = 3
LATENCY_SAMPLES = 100_000


class RulesService:
    def __init__(
        self,
        redis: Redis,
        consumer: str,
        *,
        partitions: range = range(PARTITIONS),
        claim_idle_ms: int = 30_000,
        max_deliveries: int = 5,
        default_deadline_ms: int = DEFAULT_DEADLINE_MS,
    ) -> None:
        self.redis = redis
        self.store = EventStore(redis)
        self.consumer = consumer
        self.partitions = partitions
        self.claim_idle_ms = claim_idle_ms
        self.max_deliveries = max_deliveries
        self.default_deadline_ms = default_deadline_ms
        self.slots: dict[str, GameSlot] = {}
        self.view_wanted: dict[str, tuple[bool, float]] = {}
        self.latencies_us: list[int] = []
        self.codec = codec()

    # --- entry points -----------------------------------------------------------------------

    async def prepare(self) -> None:
        """Create the consumer groups before any subscriber starts (FastStream stops if a
        group is missing)."""
        for p in self.partitions:
            await self.store.ensure_group(commands_key(p), RULES_GROUP)

    async def reprompt_live_games(self) -> int:
        """Prompt again every live game of our partitions. After a crash between an append
        and its prompt nobody would be asked to move; a prompt sent twice is harmless (the
        answers share a command id). Returns how many games were prompted."""
        count = 0
        for game_id in await self.store.games():
            if partition(game_id) not in self.partitions:
                continue
            meta = await self.store.meta(game_id)
            if not meta or meta.get("status") != "live":
                continue
            slot = await self.slot(game_id)
            if slot is None:
                continue
            async with slot.lock:
                await self.prompt(slot)
                while (move := self.forfeited_move(slot)) is not None:
                    await self._apply(slot, move, 0.0)
            count += 1
        return count

    async def handle_batch(
        self, stream: str, ids: list[bytes], entries: list[dict[bytes, bytes]], ack: bool = True
    ) -> None:
        """Handle entries in order, then XACK them (unless the caller acks several streams'
        entries together, `ack=False`)."""
        for entry_id, fields in zip(ids, entries, strict=True):
            await self.handle_entry(stream, entry_id, fields)
        if ids and ack:
            await self.redis.xack(stream, RULES_GROUP, *ids)

    async def handle_entry(self, stream: str, entry_id: bytes, fields: dict[bytes, bytes]) -> None:
        """Process one command entry. Never raises: every failure becomes an outcome."""
        try:
            data = fields.get(DATA.encode())
            if data is None:
                await self.dead_letter(stream, entry_id, fields, "no __data__ field")
                return
            kind = fields.get(KIND.encode(), b"move")
            sent = _float(fields.get(SENT.encode()))
            if kind == b"create":
                await self.create(stream, entry_id, fields, data)
            elif kind == b"forfeit":
                await self.forfeit(stream, entry_id, fields, data)
            elif kind == b"move":
                await self.move(stream, entry_id, fields, data, sent)
            else:
                await self.dead_letter(stream, entry_id, fields, f"unknown kind {kind!r}")
        except Exception as exc:  # a bug must not leave the entry pending for ever
            log.exception("command failed", entry=entry_id.decode(), stream=stream)
            await self.dead_letter(stream, entry_id, fields, f"internal error: {exc!r}")

    # --- moves ------------------------------------------------------------------------------

    async def move(
        self, stream: str, entry_id: bytes, fields: dict[bytes, bytes], data: bytes, sent: float
    ) -> None:
        try:
            env = self.codec.decode_command_envelope(data)
        except CodecError as exc:
            ids = _lenient_ids(data)
            if ids is not None:
                await self.record_rejection(ids[1], ids[0], -1, None, "base.command.invalid", str(exc))
            await self.dead_letter(stream, entry_id, fields, f"invalid command: {exc}")
            return
        if partition(env.game_id) != _stream_partition(stream):
            await self.dead_letter(stream, entry_id, fields, "command sent to the wrong partition")
            return
        if env.default:
            # Only the deadline keeper plays default moves (it calls `apply` directly); on the
            # stream the flag is a forgery that would skip the seat's credential check.
            env = msgspec.structs.replace(env, default=False)
        slot = await self.slot(env.game_id)
        if slot is None:
            await self.record_rejection(env.game_id, env.command_id, -1, env.command.seat,
                                        "service.game.unknown", f"no game {env.game_id!r}")
            return
        async with slot.lock:
            await self.apply(slot, env, sent)

    async def apply(self, slot: GameSlot, env: CommandEnvelope, sent: float) -> None:
        """Decide and append one command, then any default moves owed by forfeited seats
        (caller holds the slot lock)."""
        await self._apply(slot, env, sent)
        while (move := self.forfeited_move(slot)) is not None:
            await self._apply(slot, move, 0.0)

    def forfeited_move(self, slot: GameSlot) -> CommandEnvelope | None:
        """The default move of a forfeited seat, if one must act now."""
        state = slot.state
        if state.finished:
            return None
        prompts = pending(state)
        if not prompts:
            return None
        p = next_prompt(state, prompts)
        if slot.controllers[p.seat] != FORFEIT:
            return None
        return CommandEnvelope(
            command_id=f"forfeit:{slot.game_id}:{state.version}:{p.seat}", game_id=slot.game_id,
            credential="", expected_version=state.version, command=p.default, default=True,
        )

    async def _apply(self, slot: GameSlot, env: CommandEnvelope, sent: float) -> None:
        """Decide and append one command (caller holds the slot lock).

        A redelivered command needs no lookup on the hot path: if it was accepted, the append
        script answers "duplicate"; if it is refused now, `reject` finds the original outcome
        and stays silent."""
        seat = env.command.seat
        if not env.default and not self.credential_ok(slot, seat, env.credential):
            await self.reject(slot, env, "service.seat.credential",
                              f"the credential does not belong to seat {seat}")
            return
        for _ in range(MAX_CONFLICT_RETRIES):
            # Another replica may have moved the game on: reload only if the log says so
            # (a client spamming stale commands must not cost a fold each).
            if env.expected_version != slot.version and (
                await self.store.version(slot.game_id) != slot.version
            ):
                slot = await self.reload(slot)
            if env.expected_version != slot.version:
                await self.reject(slot, env, "service.stale",
                                  f"the game is at version {slot.version}, not {env.expected_version}")
                return
            try:
                events = await self.judge(slot, env.command)
            except Rejected as r:
                await self.reject(slot, env, r.rule_id, r.message)
                return
            if await self.commit(slot, env.command_id, events, sent, env.command):
                return
            # A conflict: another replica moved the game on, so this cache is stale. Refold;
            # the next round then decides on the real version (or refuses a stale command).
            slot = await self.reload(slot)
        log.warning("gave up after conflicts", game_id=slot.game_id, command_id=env.command_id)
        await self.reject(slot, env, "service.stale",
                          f"the game kept moving (now at version {slot.version}); send it again")

    async def judge(self, slot: GameSlot, command: Command) -> list[Event]:
        """The events a command causes, or Rejected: the engine's `decide`, except for what
        needs the game's record (undo targets, contests, the referee): `disputes`."""
        if not disputes.needs_record(command):
            return decide(slot.state, command, slot.dealer)
        record = await load_record(self.store, slot.game_id)
        return disputes.judge(slot.state, command, slot.dealer, record)

    async def commit(self, slot: GameSlot, command_id: str, events: list[Event], sent: float,
                     command: Command | None = None) -> bool:
        """Append (with the command's body, for audits); True when the command is settled
        (accepted or duplicate)."""
        v = slot.version
        at = datetime.now(UTC).isoformat()
        payloads = [
            self.codec.encode(
                EventEnvelope(game_id=slot.game_id, version=v + i + 1, at=at,
                              command_id=command_id, event=e, schema=schema_of(e),
                              rules_version=RULES_VERSION)
            )
            for i, e in enumerate(events)
        ]
        body = self.codec.encode(command) if command is not None else b""
        # Fold first, so the next prompt can travel in the same append script (one round trip
        # per command); if the append does not go through, the cache is refolded from the log.
        for e in events:
            evolve(slot.state, e)
        write = None if slot.state.finished else await self.prompt_write(slot)
        _fault("before_append")
        state = slot.state
        result = await self.store.append(
            slot.game_id, v, command_id, payloads, command=body, prompt=write,
            finished_winner=(-1 if state.winner < 0 else state.winner) if state.finished else None,
        )
        _fault("after_append")
        if result.status != "accepted":
            await self.reload(slot)
            return result.status != "conflict"
        log.debug("accepted", game_id=slot.game_id, command_id=command_id, version=slot.version)
        if sent:  # kept in memory, written once a second: no extra write per command
            self.latencies_us.append(int((time.time() - sent) * 1e6))
        if write is not None:
            slot.prompted = write.member
        elif slot.prompted:  # nobody to prompt (a forfeited seat, the end): drop the deadline
            await self.redis.zrem(deadlines_key(partition(slot.game_id)), slot.prompted)
            slot.prompted = ""
        if slot.state.finished:
            await self.finish(slot)
        else:
            if slot.version // SNAPSHOT_EVERY != v // SNAPSHOT_EVERY:
                await self.store.save_snapshot(slot.game_id, slot.version, snapshot.SCHEMA,
                                               RULES_VERSION, snapshot.dump(slot.state))
        return True

    async def flush_latencies(self) -> int:
        """Write the command→event latencies measured since the last call (`hexlog bench e2e`
        reads them); returns how many."""
        samples, self.latencies_us = self.latencies_us, []
        if samples:
            pipe = self.redis.pipeline(transaction=False)
            pipe.lpush(latency_key(), *samples)
            pipe.ltrim(latency_key(), 0, LATENCY_SAMPLES - 1)
            await pipe.execute()
        return len(samples)

    def credential_ok(self, slot: GameSlot, seat: int, credential: str) -> bool:
        if seat == REFEREE:
            return bool(slot.referee_hash) and secrets.compare_digest(
                slot.referee_hash, credential_hash(credential))
        return 0 <= seat < len(slot.cred_hashes) and secrets.compare_digest(
            slot.cred_hashes[seat], credential_hash(credential)
        )

    async def reject(self, slot: GameSlot, env: CommandEnvelope, rule_id: str, message: str) -> None:
        if await self.store.get_outcome(env.command_id, slot.game_id) is not None:
            return  # a redelivery of a decided command: its original outcome stands
        await self.record_rejection(slot.game_id, env.command_id, slot.version, env.command.seat,
                                    rule_id, message)
        await self.store.append_ruling(
            slot.game_id,
            {"command_id": env.command_id, "seat": env.command.seat, "version": slot.version,
             "rule_id": rule_id, "message": message,
             "command": self.codec.encode(env.command),
             "expected_version": env.expected_version},
        )

    async def record_rejection(
        self, game_id: str, command_id: str, version: int, seat: int | None, rule_id: str, message: str
    ) -> None:
        outcome = {"status": "rejected", "rule_id": rule_id, "message": message,
                   "version": version, "seat": seat}
        await self.store.record_outcome(command_id, game_id, outcome)
        log.info("rejected", game_id=game_id, command_id=command_id, version=version, seat=seat,
                 rule_id=rule_id)

    async def dead_letter(self, stream: str, entry_id: bytes, fields: dict[bytes, bytes], reason: str) -> None:
        p = _stream_partition(stream)
        body: dict[Any, Any] = dict(fields)
        body[b"reason"] = reason
        body[b"entry"] = entry_id
        await self.redis.xadd(dlq_key(p), body, maxlen=10_000, approximate=True)
        log.warning("dead letter", stream=stream, entry=entry_id.decode(), reason=reason)

    # --- games ------------------------------------------------------------------------------

    async def create(self, stream: str, entry_id: bytes, fields: dict[bytes, bytes], data: bytes) -> None:
        try:
            req = msgspec.json.decode(data, type=CreateGame)
        except msgspec.DecodeError as exc:
            await self.dead_letter(stream, entry_id, fields, f"invalid create request: {exc}")
            return
        if await self.store.get_outcome(req.command_id, req.game_id) is not None:
            return
        seed = bytes.fromhex(req.seed) if req.seed else secrets.token_bytes(32)
        controllers = list(req.controllers) or ["human"] * req.seats
        try:
            if len(controllers) != req.seats:
                raise RulesetError(f"{len(controllers)} controllers for {req.seats} seats")
            created = new_game(req.game_id, req.seats, seed, modules=req.modules, names=req.names,
                               ruleset=req.ruleset, beginner=req.beginner, turn_limit=req.turn_limit)
        except (RulesetError, ValueError) as exc:
            await self.record_rejection(req.game_id, req.command_id, 0, None, "service.create.invalid", str(exc))
            return
        creds = [secrets.token_urlsafe(24) for _ in range(req.seats)]
        referee = secrets.token_urlsafe(24)  # the referee's commands and full views
        bot_secrets = [c if ctl.startswith("bot:") else "" for c, ctl in zip(creds, controllers, strict=True)]
        envelope = EventEnvelope(game_id=req.game_id, version=1, at=datetime.now(UTC).isoformat(),
                                 command_id=req.command_id, event=created, schema=schema_of(created),
                                 rules_version=RULES_VERSION)
        meta = {
            "seed": seed.hex(),
            "ruleset": req.ruleset,
            "modules": self.codec.encode(req.modules).decode(),
            "seats": req.seats,
            "status": "live",
            "seed_sha256": created.seed_sha256,
            "cred_hashes": json.dumps([credential_hash(c) for c in creds]),
            "referee_hash": credential_hash(referee),
            "controllers": json.dumps(controllers),
            "bot_secrets": json.dumps(bot_secrets),
            "deadline_ms": req.deadline_ms or self.default_deadline_ms,
            "tournament": req.tournament,
            "tournament_index": req.tournament_index,
        }
        try:
            await self.store.create_game(req.game_id, self.codec.encode(envelope),
                                         cast(dict[str, str | bytes | int | float], meta))
        except GameExistsError as exc:
            await self.record_rejection(req.game_id, req.command_id, 0, None, "service.create.exists", str(exc))
            return
        # The creator gets the credentials in the outcome (only it knows the command id).
        await self.store.record_outcome(req.command_id, req.game_id,
                                        {"status": "created", "credentials": creds,
                                         "referee": referee, "version": 1})
        slot = await self.slot(req.game_id)
        assert slot is not None
        async with slot.lock:
            await self.prompt(slot)
        log.info("game created", game_id=req.game_id, seats=req.seats, ruleset=req.ruleset)

    async def forfeit(self, stream: str, entry_id: bytes, fields: dict[bytes, bytes], data: bytes) -> None:
        """An organiser says a seat's controller is gone: record it, then play its defaults."""
        try:
            req = msgspec.json.decode(data, type=ForfeitSeat)
        except msgspec.DecodeError as exc:
            await self.dead_letter(stream, entry_id, fields, f"invalid forfeit request: {exc}")
            return
        slot = await self.slot(req.game_id)
        if slot is None:
            await self.record_rejection(req.game_id, req.command_id, -1, req.seat,
                                        "service.game.unknown", f"no game {req.game_id!r}")
            return
        async with slot.lock:
            if await self.store.get_outcome(req.command_id, req.game_id) is not None:
                return
            if not 0 <= req.seat < slot.state.n or slot.state.finished:
                await self.record_rejection(req.game_id, req.command_id, slot.version, req.seat,
                                            "service.forfeit.invalid", "no such seat, or the game is over")
                return
            # `controllers` says who plays each seat from now on; `seated` keeps who was
            # seated at creation (for game summaries and tournament results).
            await self.redis.hsetnx(game_keys(req.game_id).meta, "seated", json.dumps(slot.controllers))
            slot.controllers[req.seat] = FORFEIT
            await self.redis.hset(game_keys(req.game_id).meta, "controllers", json.dumps(slot.controllers))
            event = SeatForfeited(seat=req.seat, reason=req.reason)
            if await self.commit(slot, req.command_id, [event], 0.0):
                while (move := self.forfeited_move(slot)) is not None:
                    await self._apply(slot, move, 0.0)

    async def slot(self, game_id: str) -> GameSlot | None:
        slot = self.slots.get(game_id)
        if slot is None:
            slot = await load_slot(self.store, game_id)
            if slot is not None:
                self.slots[game_id] = slot
        return slot

    async def reload(self, slot: GameSlot) -> GameSlot:
        fresh = await load_slot(self.store, slot.game_id)
        assert fresh is not None
        slot.state = fresh.state
        return slot

    async def finish(self, slot: GameSlot) -> None:
        """Forget a finished game. Its meta says "finished" already (written with the final
        event by the append script); writing it again heals a log from before that."""
        state = slot.state
        if slot.prompted:
            await self.redis.zrem(deadlines_key(partition(slot.game_id)), slot.prompted)
        await self.redis.hset(
            game_keys(slot.game_id).meta,
            mapping={"status": "finished", "winner": -1 if state.winner < 0 else state.winner},
        )
        self.slots.pop(slot.game_id, None)
        log.info("game finished", game_id=slot.game_id, version=state.version, winner=state.winner)

    # --- prompts and deadlines --------------------------------------------------------------

    async def prompt(self, slot: GameSlot) -> None:
        """Ask the one seat that must act next, outside a commit (after creation, on a
        restart, after a crash): the same entry and deadline a commit would write."""
        write = await self.prompt_write(slot)
        key = deadlines_key(partition(slot.game_id))
        pipe = self.redis.pipeline(transaction=False)
        if slot.prompted:
            pipe.zrem(key, slot.prompted)
        slot.prompted = ""
        if write is not None:
            pipe.xadd(write.stream, cast(Any, write.fields), maxlen=10_000, approximate=True)
            pipe.zadd(key, {write.member: write.deadline_ms})
            slot.prompted = write.member
        await pipe.execute()

    async def prompt_write(self, slot: GameSlot) -> PromptWrite | None:
        """The prompt for the one seat that must act next (the same order as an in-process
        game), or None when nobody is to be asked (the game is over, or the seat forfeited:
        its move is played at once, see `apply`)."""
        state = slot.state
        prompts = pending(state)
        if not prompts:
            return None
        p = next_prompt(state, prompts)
        controller = slot.controllers[p.seat]
        if controller == FORFEIT:
            return None
        deadline = int(time.time() * 1000) + slot.deadline_ms
        body: dict[str, bytes | str | int] = {
            "game": slot.game_id,
            "seat": p.seat,
            "version": state.version,
            "deadline": deadline,
            "credential": slot.secrets[p.seat] if p.seat < len(slot.secrets) else "",
            "prompt": self.codec.encode(p),
            "seed_sha256": slot.created.seed_sha256,  # public; seeds deterministic bots
        }
        if await self.wants_view(controller):
            body["view"] = self.codec.encode(view(state, p.seat))
        p_index = partition(slot.game_id)
        return PromptWrite(
            stream=prompts_key(p_index, controller),
            fields=body,
            deadlines=deadlines_key(p_index),
            member=f"{slot.game_id}|{state.version}|{p.seat}",
            deadline_ms=deadline,
            previous=slot.prompted,  # that prompt was answered: its deadline is moot
        )

    async def wants_view(self, controller: str) -> bool:
        """Whether the pool answering `controller` reads views (a pool says so in
        `hexlog:pool:<controller>`; unknown pools get views). Cached for a few seconds."""
        now = time.monotonic()
        cached = self.view_wanted.get(controller)
        if cached is not None and cached[1] > now:
            return cached[0]
        raw = await self.redis.hget(pool_key(controller), "needs_view")
        wanted = raw != b"0"
        self.view_wanted[controller] = (wanted, now + 5.0)
        return wanted

    async def enforce_deadlines(self) -> int:
        """Play the default move for every prompt past its deadline; returns how many."""
        now = int(time.time() * 1000)
        played = 0
        for p in self.partitions:
            key = deadlines_key(p)
            due = cast(list[bytes], await self.redis.zrangebyscore(key, 0, now, start=0, num=100))
            for member in due:
                if not await self.redis.zrem(key, member):
                    continue  # another replica took it
                game_id, version, seat = member.decode().rsplit("|", 2)
                played += await self.play_default(game_id, int(version), int(seat))
        return played

    async def play_default(self, game_id: str, version: int, seat: int) -> int:
        slot = await self.slot(game_id)
        if slot is None:
            return 0
        async with slot.lock:
            if slot.version != version:
                slot = await self.reload(slot)
            if slot.version != version or slot.state.finished:
                return 0  # the seat answered in time
            prompt = next((p for p in pending(slot.state) if p.seat == seat), None)
            if prompt is None:
                return 0
            env = CommandEnvelope(command_id=f"deadline:{game_id}:{version}:{seat}", game_id=game_id,
                                  credential="", expected_version=version, command=prompt.default,
                                  default=True)
            log.info("deadline: default move", game_id=game_id, version=version, seat=seat,
                     command=type(prompt.default).__name__)
            await self.apply(slot, env, 0.0)
            return 1

    # --- recovery ---------------------------------------------------------------------------

    async def claim_pending(self) -> int:
        """Take over commands left pending by dead consumers (XAUTOCLAIM); dead-letter those
        delivered too often. Returns how many entries were handled."""
        handled = 0
        for p in self.partitions:
            stream = commands_key(p)
            start = "0-0"
            while True:
                reply = await self.redis.xautoclaim(stream, RULES_GROUP, self.consumer,
                                                    self.claim_idle_ms, start_id=start, count=100)
                start, entries = reply[0], reply[1]
                for entry_id, fields in entries:
                    if fields is None:
                        await self.redis.xack(stream, RULES_GROUP, entry_id)
                        continue
                    info = await self.redis.xpending_range(stream, RULES_GROUP, entry_id, entry_id, 1)
                    deliveries = int(info[0]["times_delivered"]) if info else 1
                    ids = _lenient_ids(fields.get(DATA.encode(), b""))
                    if deliveries > self.max_deliveries:
                        await self.dead_letter(stream, entry_id, fields, f"delivered {deliveries} times")
                        if ids is not None:
                            await self.record_rejection(ids[1], ids[0], -1, None, "service.dead_letter",
                                                        "the command could not be processed")
                    else:
                        await self.handle_entry(stream, entry_id, fields)
                        if ids is not None:
                            await self.resume(ids[1])
                    await self.redis.xack(stream, RULES_GROUP, entry_id)
                    handled += 1
                if start in (b"0-0", "0-0"):
                    break
        return handled


    async def resume(self, game_id: str) -> None:
        """After a claimed command: the worker that had it may have died between the append and
        the prompt (or the finish), and then nobody would ever be asked to act. Make sure the
        seat that must act now has been prompted, with its deadline armed. Idempotent."""
        slot = await self.slot(game_id)
        if slot is None:
            return
        async with slot.lock:
            if await self.store.version(game_id) != slot.version:
                slot = await self.reload(slot)
            if slot.state.finished:
                await self.finish(slot)
                return
            prompts = pending(slot.state)
            if not prompts:
                return
            member = f"{game_id}|{slot.version}|{next_prompt(slot.state, prompts).seat}"
            if await self.redis.zscore(deadlines_key(partition(game_id)), member) is None:
                await self.prompt(slot)


def _float(raw: bytes | None) -> float:
    try:
        return float(raw) if raw else 0.0
    except ValueError:
        return 0.0


def _stream_partition(stream: str) -> int:
    # hexlog:{017}:cmds
    return int(stream.split("{", 1)[1].split("}", 1)[0])


_ID_FIELD = re.compile(rb'"(command_id|game_id)"\s*:\s*"([^"\\]{1,200})"')


def _lenient_ids(data: bytes) -> tuple[str, str] | None:
    """(command_id, game_id) from a body that failed validation, if they can be read. An
    oversized body is not parsed whole (a hostile one may be hundreds of megabytes): the ids
    are looked for in its first kilobytes only."""
    try:
        if len(data) > MAX_COMMAND_BYTES:
            found = {m[1].decode(): m[2].decode() for m in _ID_FIELD.finditer(data[:4096])}
            raw: Any = found
        else:
            raw = json.loads(data)
        cid, gid = raw["command_id"], raw["game_id"]
        if isinstance(cid, str) and isinstance(gid, str) and cid and gid:
            check_id("command id", cid)
            check_id("game id", gid)
            return cid, gid
    except (ValueError, KeyError, TypeError):  # unreadable: only the DLQ gets it
        pass
    return None

