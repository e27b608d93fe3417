"""The move pipeline: an authenticated command in, events appended (or a ruling) out.

For one command on one game (the caller holds the game's lock): check the version, `decide`
(or, for what needs the game's record — undo targets, contests — `disputes.judge`), append by
compare-and-set with the next prompt in the same script, and settle the command's outcome in
the sender's scope. A refusal is the command's outcome and an entry on the game's rulings
stream. Then the default moves owed by forfeited seats, a few at a time: a game whose seats
have all left cannot hold the service (the rest is scheduled like a deadline that has passed,
so other games' commands and deadlines run in between), and its turn limit ends it.
"""

from __future__ import annotations

import os
import signal
import time
from dataclasses import dataclass
from datetime import UTC, datetime

import structlog
from redis.asyncio import Redis

from events.codec import Codec
from events.commands import Command
from events.envelope import CommandEnvelope, EventEnvelope, schema_of
from events.events import Event
from services import metrics
from services.protocol import deadlines_key
from services.rules import disputes
from services.rules.config import ServiceConfig
from services.rules.engine import RULES_VERSION, Rejected, decide, evolve, next_prompt, pending
from services.rules.prompting import FORFEIT, Prompter, deadline_member
from services.rules.record import load_record
from services.rules.refusals import Refusals
from services.rules.repository import GameRepository, GameSlot
from services.store import EventStore
from services.store.keys import OUTCOMES_TTL_SECONDS, SERVICE, game_keys, partition
from services.store.results import AppendResult, PromptWrite
from services.store.store import AppendCall, append_call

log = structlog.get_logger("hexlog.rules")

MAX_CONFLICT_RETRIES = 3


class MovePipeline:
    def __init__(self, redis: Redis, store: EventStore, repo: GameRepository, prompter: Prompter,
                 codec: Codec, config: ServiceConfig) -> None:
        self.redis = redis
        self.store = store
        self.repo = repo
        self.prompter = prompter
        self.codec = codec
        self.config = config
        self.refusals = Refusals(redis)
        self.latencies_us: list[int] = []

    async def apply(self, slot: GameSlot, env: CommandEnvelope, scope: str, sent: float) -> None:
        """Decide and append one authenticated command, then what forfeited seats owe."""
        await self.decide_and_append(slot, env, scope, sent)
        if FORFEIT in slot.controllers:  # (no coroutine made for the games without one)
            await self.play_forfeited(slot)

    async def play_forfeited(self, slot: GameSlot) -> None:
        """Play up to `forfeit_burst` default moves of forfeited seats; if more are owed,
        leave them to the deadline keeper (a deadline that is already due)."""
        for _ in range(self.config.forfeit_burst):
            move = forfeited_move(slot)
            if move is None:
                return
            await self.decide_and_append(slot, move, SERVICE, 0.0)
        move = forfeited_move(slot)
        if move is not None:
            member = deadline_member(slot.game_id, slot.version, move.command.seat)
            await self.redis.zadd(deadlines_key(partition(slot.game_id)), {member: 0})
            slot.prompted = member

    async def decide_and_append(self, slot: GameSlot, env: CommandEnvelope, scope: str,
                                sent: float) -> None:
        """A redelivered command needs no lookup on the hot path: if it was accepted, the
        append script answers "duplicate"; if it is refused now, `reject` finds the original
        outcome and records the replay. (One coroutine for the whole path, the engine called
        directly when no record is needed: every layer is resumed again after the append.)"""
        began = time.perf_counter()
        try:
            for _ in range(MAX_CONFLICT_RETRIES):
                # Another replica may have moved the game on: reload only if the log says so
                # (a client spamming stale commands must not cost a fold each).
                if env.expected_version != slot.version:
                    slot = await self.repo.refresh(slot)
                if env.expected_version != slot.version:
                    await self.reject(slot, env, scope, "service.stale", f"the game is at "
                                      f"version {slot.version}, not {env.expected_version}")
                    return
                command = env.command
                try:
                    events = (await self.judge(slot, command) if disputes.needs_record(command)
                              else decide(slot.state, command, slot.dealer))
                except Rejected as r:
                    await self.reject(slot, env, scope, r.rule_id, r.message)
                    return
                if await self.commit(slot, env.command_id, scope, events, sent, command):
                    return
                # A conflict: another replica moved the game on, so this cache is stale.
                # Refold; the next round then decides on the real version (or refuses a stale
                # command).
                slot = await self.repo.reload(slot)
            log.warning("gave up after conflicts", game_id=slot.game_id, command_id=env.command_id)
            await self.reject(slot, env, scope, "service.stale",
                              f"the game kept moving (now at version {slot.version}); send it again")
        finally:
            metrics.JUDGE_SECONDS.observe(time.perf_counter() - began)

    async def judge(self, slot: GameSlot, command: Command) -> list[Event]:
        """The events a command causes, or Rejected: the engine's `decide`, except for what
        needs the game's record (undo targets, contests, the referee): `disputes`."""
        if not disputes.needs_record(command):
            return decide(slot.state, command, slot.dealer)
        record = await load_record(self.store, slot.game_id)
        return disputes.judge(slot.state, command, slot.dealer, record)

    async def commit(self, slot: GameSlot, command_id: str, scope: str, events: list[Event],
                     sent: float, command: Command | None = None) -> bool:
        """Append (with the command's body, for audits); True when the command is settled
        (accepted, or a duplicate of one that was)."""
        commit = self.fold(slot, command_id, scope, events, sent, command)
        # The next prompt travels in the same append script (one round trip per command).
        if not slot.state.finished:
            commit.write = await self.prompter.write_for(slot)
        fault("before_append")
        try:
            result = await self.store.append(
                slot.game_id, commit.before, command_id, commit.payloads, scope=scope,
                command=commit.body, prompt=commit.write, finished_winner=commit.finished_winner)
        except BaseException:
            self.repo.forget(slot.game_id)  # folded past the log: loaded again when next asked
            raise
        fault("after_append")
        return await self.settle(commit, result)

    def fold(self, slot: GameSlot, command_id: str, scope: str, events: list[Event],
             sent: float, command: Command | None, at: str = "") -> Commit:
        """Encode a command's events and fold them into the cache, before they are appended:
        the next prompt is made from the folded state. If the append does not go through, the
        cache is refolded from the log (`settle`). `at`: the events' time (ISO 8601; now if
        not given: one read's commands share it)."""
        v = slot.version
        at = at or now_iso()
        payloads = [
            self.codec.encode(
                EventEnvelope(game_id=slot.game_id, version=v + i + 1, at=at,
                              command_id=command_id, event=e, schema=schema_of(e),
                              rules_version=RULES_VERSION)
            )
            for i, e in enumerate(events)
        ]
        body = self.codec.encode(command) if command is not None else b""
        for e in events:
            evolve(slot.state, e)
        return Commit(slot, command_id, scope, v, payloads, body, sent, command)

    async def settle(self, commit: Commit, result: AppendResult) -> bool:
        """What follows an append: on acceptance, the metrics, the open prompt's deadline, a
        snapshot when due, the end of a finished game; otherwise the cache refolded, and a
        duplicate's ruling. True when the command is settled, False on a conflict."""
        slot, command_id, scope = commit.slot, commit.command_id, commit.scope
        if result.status != "accepted":
            await self.repo.reload(slot)
            if result.status == "duplicate":
                metrics.COMMANDS.labels("duplicate", slot.state.rules.name).inc()
                await self.ruling(slot, command_id, scope, commit.command,
                                  "service.command.duplicate",
                                  "this command id was already answered; its first outcome stands")
            return result.status != "conflict"
        state = slot.state
        log.debug("accepted", game_id=slot.game_id, command_id=command_id, version=state.version)
        metrics.COMMANDS.labels("accepted", state.rules.name).inc()
        if scope == SERVICE and command_id.startswith("forfeit:"):
            metrics.DEFAULT_MOVES.labels("forfeit").inc()
        if commit.sent:  # kept in memory, written once a second: no extra write per command
            self.latencies_us.append(int((time.time() - commit.sent) * 1e6))
        if commit.write is not None:
            slot.prompted = commit.write.member
        else:  # nobody to prompt (a forfeited seat, the end): drop the deadline
            await self.prompter.clear(slot)
        if state.finished:
            await self.finish(slot)
        elif self.repo.snapshot_due(slot, commit.before):
            await self.repo.save_snapshot(slot)
        return True

    async def finish(self, slot: GameSlot) -> None:
        """Forget a finished game. Its meta says "finished" already (written with the final
        event by the append script; writing it again heals a log from before that). Its
        snapshot is dropped (nobody loads a finished game to judge it) and its secrets expire:
        the seed is public in GameFinished now."""
        state = slot.state
        metrics.GAMES_FINISHED.labels(state.rules.name).inc()
        await self.prompter.clear(slot)
        k = game_keys(slot.game_id)
        pipe = self.redis.pipeline(transaction=False)
        pipe.hset(k.meta, mapping={"status": "finished",
                                   "winner": -1 if state.winner < 0 else state.winner})
        pipe.delete(k.snap)
        pipe.expire(k.secret, self.config.finished_secret_ttl_s)
        pipe.expire(k.outcomes, OUTCOMES_TTL_SECONDS)
        await pipe.execute()
        self.repo.forget(slot.game_id)
        log.info("game finished", game_id=slot.game_id, version=state.version, winner=state.winner)

    async def reject(self, slot: GameSlot, env: CommandEnvelope, scope: str, rule_id: str,
                     message: str) -> None:
        # (settle: one left waiting for a replica by a writer that died is published now)
        stood = await self.store.get_outcome(env.command_id, slot.game_id, scope=scope,
                                             settle=True)
        metrics.COMMANDS.labels("duplicate" if stood is not None else "rejected",
                                slot.state.rules.name).inc()
        if stood is not None:  # a replay of a decided command: its original outcome stands
            await self.ruling(slot, env.command_id, scope, env.command, "service.command.duplicate",
                              "this command id was already answered; its first outcome stands")
            return
        await self.record_rejection(slot.game_id, env.command_id, scope, slot.version,
                                    env.command.seat, rule_id, message)
        await self.ruling(slot, env.command_id, scope, env.command, rule_id, message,
                          expected_version=env.expected_version)
        seat = env.command.seat
        controller = slot.controllers[seat] if 0 <= seat < len(slot.controllers) else ""
        metrics.REFUSED.labels(controller if controller.startswith("bot:") else "").inc()
        await self.refusals.note(slot.game_id, seat,
                                 controller if controller.startswith("bot:") else "",
                                 env.command_id, rule_id, message)

    async def record_rejection(self, game_id: str, command_id: str, scope: str, version: int,
                               seat: int | None, rule_id: str, message: str) -> None:
        outcome = {"status": "rejected", "rule_id": rule_id, "message": message,
                   "version": version, "seat": seat}
        await self.store.record_outcome(command_id, game_id, outcome, scope=scope)
        log.info("rejected", game_id=game_id, command_id=command_id, version=version, seat=seat,
                 rule_id=rule_id)

    async def ruling(self, slot: GameSlot, command_id: str, scope: str, command: Command | None,
                     rule_id: str, message: str, expected_version: int | None = None) -> None:
        """An entry on the game's rulings stream (capped): what an auditor and a contest see."""
        fields: dict[str, str | int | bytes] = {
            "command_id": command_id, "scope": scope, "version": slot.version,
            "rule_id": rule_id, "message": message,
        }
        if command is not None:
            fields["seat"] = command.seat
            fields["command"] = self.codec.encode(command)
        if expected_version is not None:
            fields["expected_version"] = expected_version
        await self.store.append_ruling(slot.game_id, fields)

    async def flush_latencies(self, key: str, keep: int) -> int:
        """Write the command→event latencies measured since the last call (`hexlog bench
        e2e` reads them); returns how many."""
        samples, self.latencies_us = self.latencies_us, []
        if samples:
            pipe = self.redis.pipeline(transaction=False)
            pipe.lpush(key, *samples)
            pipe.ltrim(key, 0, keep - 1)
            await pipe.execute()
        return len(samples)


def now_iso() -> str:
    return datetime.now(UTC).isoformat()


@dataclass(slots=True)
class Commit:
    """A command's events encoded and folded into its game's cache (`MovePipeline.fold`), to
    be appended with the next prompt (`write`) and settled from the append's result."""

    slot: GameSlot
    command_id: str
    scope: str
    before: int  # the version the command was decided on
    payloads: list[bytes]
    body: bytes  # the command, kept with its first event for audits
    sent: float  # the sender's clock, for the latency statistics (0: unknown)
    command: Command | None = None
    write: PromptWrite | None = None

    @property
    def finished_winner(self) -> int | None:
        state = self.slot.state
        return (-1 if state.winner < 0 else state.winner) if state.finished else None

    def call(self) -> AppendCall:
        """The append script's call (for `EventStore.append_many`)."""
        return append_call(self.slot.game_id, self.before, self.command_id, self.payloads,
                           scope=self.scope, command=self.body, prompt=self.write,
                           finished_winner=self.finished_winner)


def forfeited_move(slot: GameSlot) -> CommandEnvelope | None:
    """The default move of a forfeited seat, if one must act now."""
    state = slot.state
    if state.finished or FORFEIT not in slot.controllers:
        return None  # (asked after every command: most games have no forfeited seat)
    prompts = pending(state)
    if not prompts:
        return None
    p = next_prompt(state, prompts)
    if slot.controllers[p.seat] != FORFEIT:
        return None
    return CommandEnvelope(
        command_id=f"forfeit:{slot.game_id}:{state.version}:{p.seat}", game_id=slot.game_id,
        expected_version=state.version, command=p.default, default=True,
    )


FAULT = os.environ.get("HEXLOG_FAULT", "")


# Test hook, for the crash-recovery tests only (tests/service/test_crash_recovery.py):
# HEXLOG_FAULT=before_append or after_append makes this process SIGKILL itself at that point of
# the first move it commits, as a crash would. Read once at start; unset, it does nothing.
def fault(point: str) -> None:
    if point == FAULT:
        os.kill(os.getpid(), signal.SIGKILL)

