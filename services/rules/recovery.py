"""Recovery after crashes: commands a dead consumer left pending, games whose prompt was lost.

The claimer takes over entries left pending by a consumer that is gone and handles them again
(idempotent: the append script refuses a command id that has an outcome). A consumer whose
heartbeat has lapsed (killed, crashed: its key lives SERVICE_TTL_S) is known dead, so its
entries are taken at once (once idle DEAD_IDLE_MS, so that a replica that has just started and
not yet beaten keeps what it is handling); any other entry idle longer than `claim_idle_ms`
(a consumer alive but stuck) is taken too. An entry delivered more than `max_deliveries` times
is set aside. After a claimed command, and at start, every live game of our partitions is made
sure to have its acting seat prompted. A stream that cannot be claimed from (another type: see
stream_guard.py) is passed over; the others are claimed as usual.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

import structlog
from redis.asyncio import Redis
from redis.exceptions import ResponseError

from services.protocol import DATA, deadlines_key, heartbeat_key
from services.rules.config import ServiceConfig
from services.rules.engine import next_prompt, pending
from services.rules.intake import Intake, claimed_ids
from services.rules.moves import MovePipeline
from services.rules.prompting import Prompter, deadline_member
from services.rules.repository import GameRepository
from services.store import EventStore
from services.store.keys import RULES_GROUP, partition

log = structlog.get_logger("hexlog.rules")

DEAD_IDLE_MS = 1_000  # a dead consumer's entry is taken once idle this long


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class Recovery:
    def __init__(self, redis: Redis, store: EventStore, repo: GameRepository, prompter: Prompter,
                 pipeline: MovePipeline, intake: Intake, config: ServiceConfig, consumer: str,
                 partitions: range, streams: Callable[[], Sequence[str]]) -> None:
        self.redis = redis
        self.store = store
        self.repo = repo
        self.prompter = prompter
        self.pipeline = pipeline
        self.intake = intake
        self.config = config
        self.consumer = consumer
        self.partitions = partitions
        self.streams = streams  # the command streams this replica reads

    async def claim_pending(self) -> int:
        """Take over commands left pending by dead consumers; dead-letter those delivered too
        often. Returns how many entries were handled."""
        streams = list(self.streams())
        pipe = self.redis.pipeline(transaction=False)
        for stream in streams:
            pipe.xpending(stream, RULES_GROUP)
        summaries = await pipe.execute(raise_on_error=False)
        handled = 0
        for stream, summary in zip(streams, summaries, strict=True):
            if isinstance(summary, Exception) or not int(summary.get("pending") or 0):
                continue  # nothing pending, or a bad key (stream_guard.py deals with it)
            try:
                handled += await self._claim_dead(stream, summary.get("consumers") or [])
                handled += await self._claim_idle(stream)
            except ResponseError:
                log.warning("claiming failed", stream=stream, exc_info=True)
        return handled

    async def _claim_dead(self, stream: str, consumers: list[dict[str, object]]) -> int:
        """Entries of consumers whose heartbeat has lapsed, taken without waiting for
        `claim_idle_ms`; the consumer is then removed from the group."""
        handled = 0
        for consumer in consumers:
            name = _text(consumer.get("name"))
            if name == self.consumer or await self.redis.exists(heartbeat_key("rules", name)):
                continue
            while True:
                pending = await self.redis.xpending_range(stream, RULES_GROUP, "-", "+", 100,
                                                          consumername=name, idle=DEAD_IDLE_MS)
                if not pending:
                    break
                ids = [cast(bytes, p["message_id"]) for p in pending]
                claimed = await self.redis.xclaim(stream, RULES_GROUP, self.consumer,
                                                  DEAD_IDLE_MS, list[Any](ids))
                handled += await self._handle_claimed(stream, ids, cast(list[Any], claimed))
            left = await self.redis.xpending_range(stream, RULES_GROUP, "-", "+", 1,
                                                   consumername=name)
            if not left:
                await self.redis.xgroup_delconsumer(stream, RULES_GROUP, name)
                log.info("took over a dead consumer's commands", stream=stream, consumer=name,
                         handled=handled)
        return handled

    async def _claim_idle(self, stream: str) -> int:
        handled = 0
        start: str | bytes = "0-0"
        while True:
            reply = await self.redis.xautoclaim(stream, RULES_GROUP, self.consumer,
                                                self.config.claim_idle_ms, start_id=start,
                                                count=100)
            start, entries = reply[0], reply[1]
            handled += await self._handle_claimed(stream, [e[0] for e in entries], entries)
            if start in (b"0-0", "0-0"):
                return handled

    async def _handle_claimed(self, stream: str, ids: list[bytes],
                              entries: list[tuple[bytes, dict[bytes, bytes] | None]]) -> int:
        handled = 0
        got = {entry_id for entry_id, _ in entries}
        for entry_id, fields in entries:
            if fields is None:  # trimmed or deleted while pending
                await self.redis.xack(stream, RULES_GROUP, entry_id)
                continue
            handled += await self.claimed(stream, entry_id, fields)
        gone = [i for i in ids if i not in got]  # XCLAIM leaves out deleted entries
        if gone:
            await self.redis.xack(stream, RULES_GROUP, *gone)
        return handled

    async def claimed(self, stream: str, entry_id: bytes, fields: dict[bytes, bytes]) -> int:
        info = await self.redis.xpending_range(stream, RULES_GROUP, entry_id, entry_id, 1)
        deliveries = int(info[0]["times_delivered"]) if info else 1
        claimed = claimed_ids(fields.get(DATA.encode(), b""))
        if deliveries > self.config.max_deliveries:
            reason = f"delivered {deliveries} times"
            await self.intake.answer_signed(stream, fields, "service.dead_letter",
                                            "the command could not be processed")
            await self.intake.dead_letter(stream, entry_id, fields, f"service.dead_letter: {reason}")
        else:
            await self.intake.handle(stream, entry_id, fields)
            if claimed is not None:
                await self.resume(claimed.game_id)
        await self.redis.xack(stream, RULES_GROUP, entry_id)
        return 1

    async def resume(self, game_id: str) -> None:
        """After a claimed command: the worker that had it may have died between the append and
        the prompt (or the finish), and then nobody would ever be asked to act. Make sure the
        seat that must act now has been prompted, with its deadline armed. Idempotent."""
        slot = await self.repo.slot(game_id)
        if slot is None:
            return
        async with slot.lock:
            slot = await self.repo.refresh(slot)
            if slot.state.finished:
                await self.pipeline.finish(slot)
                return
            prompts = pending(slot.state)
            if not prompts:
                return
            member = deadline_member(game_id, slot.version, next_prompt(slot.state, prompts).seat)
            if await self.redis.zscore(deadlines_key(partition(game_id)), member) is None:
                await self.prompter.send(slot)
                await self.pipeline.play_forfeited(slot)

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
            slot = await self.repo.slot(game_id)
            if slot is None:
                continue
            async with slot.lock:
                await self.prompter.send(slot)
                await self.pipeline.play_forfeited(slot)
            count += 1
        return count
