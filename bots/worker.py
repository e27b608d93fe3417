"""A bot worker: serves every seat of one or more bot pools over Redis (the bot protocol,
docs/protocol.md: what a bot in any language does, with the keys and fields by name).

In short: read the pool's prompt streams `hexlog:{p}:prompts:bot:<pool>` (p = 000..015) with
XREADGROUP (group `workers`); answer each prompt by XADD to `hexlog:{p}:cmds:bot:<pool>` of
`__data__` (a JSON `CommandEnvelope` whose `expected_version` is the prompt's version) and `mac`
(hex HMAC-SHA256 of `__data__` by the prompt's turn `key`), then XACK the prompt.

A prompt this worker cannot read, or a bot that raises, is logged and acked: the rules service
plays the seat's default move at the deadline, so a broken bot slows its games but never
stops them.

With a pace (`serve bots --pace-ms N`), every answer is held after its prompt was read, as a
player who thinks: N ms on average, each prompt's time drawn between N/2 and 3N/2 (games
started together would otherwise answer in the same instant, move after move, a wave no
players make). Load tests and `hexlog bench e2e --pace-ms` measure many games at a player's
pace, not only games at the bots' full speed. The prompts held stay unacked, so a
worker that dies while holding them leaves them to be claimed by another.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
import math
import random
import time
import uuid
from collections.abc import Sequence
from typing import Any, cast

import structlog
from redis.asyncio import Redis
from redis.exceptions import ResponseError

from bots.pace import HOLD_SPREAD, MAX_PACE_MS, ORPHAN_IDLE_MS
from bots.registry import make_bot, parse_bot_spec
from bots.sdk import Bot, reseed
from events.auth import sign
from events.codec import codec
from events.envelope import CommandEnvelope
from services import metrics
from services.protocol import (
    DATA,
    MAC,
    PROMPT_GROUP,
    SENT,
    beat,
    leave,
    pool_key,
    prompts_key,
    stop_on_sigterm,
)
from services.runtime import loop
from services.store.connect import connect, is_cluster
from services.store.keys import PARTITIONS, commands_key, partition
from services.store.lean import lean_pipeline
from services.store.streams import Entry, GroupReader

log = structlog.get_logger("hexlog.bots")
CLAIM_EVERY_S = 2.0
READ_BLOCK_MS = 100


async def ensure_groups(redis: Redis, pools: Sequence[str]) -> None:
    """Register each pool; `pools` are bot specs (`random`, `name=package.module:Factory`)."""
    for spec in pools:
        pool, _ = parse_bot_spec(spec)
        # Tell the rules service whether prompts for this pool need a view (a random bot
        # does not; leaving it out saves building and encoding a view per prompt).
        needs = getattr(make_bot(spec, 0), "needs_view", True)
        await redis.hset(pool_key(f"bot:{pool}"), mapping={"needs_view": int(needs)})
        for p in range(PARTITIONS):
            try:
                await redis.xgroup_create(prompts_key(p, f"bot:{pool}"), PROMPT_GROUP, id="0",
                                          mkstream=True)
            except ResponseError as exc:
                if "BUSYGROUP" not in str(exc):
                    raise


class BotWorker:
    def __init__(self, redis: Redis, pools: Sequence[str], consumer: str | None = None,
                 pace_ms: int = 0) -> None:
        if not 0 <= pace_ms <= MAX_PACE_MS:
            raise ValueError(f"pace_ms: from 0 to {MAX_PACE_MS}, not {pace_ms}")
        self.redis = redis
        self.pace_s = pace_ms / 1000
        # What was read and is held for the pace: (when it is due, a tie-breaker, the stream,
        # the prompt), a heap.
        self.held: list[tuple[float, int, str, Entry]] = []
        self.thinking = random.Random()  # how long each answer is held (not the bots' dice)
        self.read_count = 0
        # `pools` are bot specs (bots.registry.parse_bot_spec): a shipped name, or
        # `name=package.module:Factory` for a bot given by import path (pool `name`).
        self.specs = list(pools)
        self.pools = [parse_bot_spec(spec)[0] for spec in self.specs]
        self.consumer = consumer or f"bots-{uuid.uuid4().hex[:8]}"
        self.bots: dict[str, Bot] = {
            pool: make_bot(spec, 0) for pool, spec in zip(self.pools, self.specs, strict=True)
        }
        self.keys = {
            prompts_key(p, f"bot:{pool}"): pool for pool in self.pools for p in range(PARTITIONS)
        }
        self.codec = codec()
        self.answered = 0
        self.debug = False  # whether answers are logged (debug level), set per read
        # Each pool's metric children, made once (a label lookup per prompt costs more).
        self.decision_seconds = {p: metrics.BOT_DECISION_SECONDS.labels(p) for p in self.pools}
        self.answers = {p: metrics.BOT_ANSWERS.labels(p) for p in self.pools}
        self.failures = {p: metrics.BOT_FAILURES.labels(p) for p in self.pools}

    async def run(self, stop: asyncio.Event | None = None) -> None:
        await ensure_groups(self.redis, self.specs)
        streams = {key: ">" for key in self.keys}
        reader = GroupReader(self.redis, PROMPT_GROUP, self.consumer)
        together = not is_cluster(self.redis)
        read: list[tuple[str, list[Entry]]] = []
        try:
            last_beat = 0.0
            claimed = 0.0
            while stop is None or not stop.is_set():
                try:
                    if time.monotonic() - last_beat > 1.0:
                        last_beat = time.monotonic()
                        for pool in self.pools:
                            await beat(self.redis, f"bots:{pool}", self.consumer)
                    if time.monotonic() - claimed > CLAIM_EVERY_S:
                        claimed = time.monotonic()
                        await self.claim_orphans()
                    # (what was read is answered once: if this fails, it stays pending and
                    # is claimed again)
                    answering, read = self.due(read), []
                    block = self.block_ms()
                    if together:
                        read = await self.answer_and_read(answering, streams, block)
                    else:  # a Cluster: the reads of each slot are in flight apart
                        if answering:
                            await self.answer_all(answering)
                        read = await reader.read(streams, count=64, block=block)
                except Exception as exc:
                    # A dropped connection (or groups lost with the server's data) must not end
                    # the worker: what it read and did not ack stays pending and is claimed again.
                    log.exception("bot worker loop failed; retrying")
                    if "NOGROUP" in str(exc):
                        with contextlib.suppress(Exception):
                            await ensure_groups(self.redis, self.specs)
                    await asyncio.sleep(0.5)
            read = [(key, [entry]) for _, _, key, entry in self.held] + read
            if read:  # read and not answered when told to stop
                with contextlib.suppress(Exception):
                    await self.answer_all(read)
        finally:
            await reader.close()

    def due(self, read: list[tuple[str, list[Entry]]]) -> list[tuple[str, list[Entry]]]:
        """What to answer now: without a pace, what was just read; with one, the prompts held
        for the pace that are due (what was just read is held)."""
        if not self.pace_s:
            return read
        now = time.monotonic()
        for key, entries in read:
            for entry in entries:
                self.read_count += 1
                think = self.pace_s * self.thinking.uniform(*HOLD_SPREAD)
                heapq.heappush(self.held, (now + think, self.read_count, key, entry))
        answering: dict[str, list[Entry]] = {}
        while self.held and self.held[0][0] <= now:
            _, _, key, entry = heapq.heappop(self.held)
            answering.setdefault(key, []).append(entry)
        return list(answering.items())

    def block_ms(self) -> int:
        """How long the next read may wait: until the first held prompt is due, at most
        READ_BLOCK_MS."""
        if not self.held:
            return READ_BLOCK_MS
        wait_ms = math.ceil((self.held[0][0] - time.monotonic()) * 1000)
        return max(1, min(READ_BLOCK_MS, wait_ms))

    async def claim_orphans(self) -> None:
        """Answer prompts a dead worker of our pools had read but not answered (XAUTOCLAIM):
        without this they would wait for their deadline and get the default move. Every
        stream's claim in one round trip (each key alone on a Cluster)."""
        keys = list(self.keys)
        if is_cluster(self.redis):
            replies = [await self.redis.xautoclaim(key, PROMPT_GROUP, self.consumer,
                                                   ORPHAN_IDLE_MS, start_id="0-0", count=100)
                       for key in keys]
        else:
            pipe = self.redis.pipeline(transaction=False)
            for key in keys:
                pipe.xautoclaim(key, PROMPT_GROUP, self.consumer, ORPHAN_IDLE_MS,
                                start_id="0-0", count=100)
            replies = await pipe.execute()
        claimed = [(key, entries) for key, reply in zip(keys, replies, strict=True)
                   if (entries := [(i, f) for i, f in reply[1] if f is not None])]
        if claimed:
            await self.answer_all(claimed)

    def queue_answers(self, pipe: Any, read: list[tuple[str, list[Entry]]]) -> None:
        """Each prompt's answer and the acks of every prompt read, into `pipe`."""
        # (asked once per read: a filtered debug call still cost about 1 µs per answer)
        self.debug = log.is_enabled_for(logging.DEBUG)
        for key, entries in read:
            pool = self.keys[key]
            answered = 0
            for _, fields in entries:
                out = self.answer(pool, fields)
                if out is not None:
                    answered += 1
                    stream, body = out
                    # (XADD as redis-py's `xadd` sends it, without its argument checks: one
                    # per answer)
                    pipe.execute_command("XADD", stream, "*",
                                         *[x for pair in body.items() for x in pair])
            pipe.xack(key, PROMPT_GROUP, *[entry_id for entry_id, _ in entries])
            self.answers[pool].inc(answered)  # (once per stream read, not per answer)

    async def answer_all(self, read: list[tuple[str, list[Entry]]]) -> None:
        """Answer every prompt read (from any number of streams) and ack them: one pipeline,
        so one round trip (and one AOF fsync) however many partitions had prompts."""
        pipe = lean_pipeline(self.redis)
        self.queue_answers(pipe, read)
        await pipe.execute()

    async def answer_and_read(self, read: list[tuple[str, list[Entry]]], streams: dict[str, str],
                              block: int = READ_BLOCK_MS) -> list[tuple[str, list[Entry]]]:
        """Answer what was read and read the next prompts, in one round trip: the answers and
        acks, then the blocking XREADGROUP, in one pipeline (the server runs them in order, so
        the answers are in before the read waits). One server only: a Cluster's reads go by
        slot."""
        pipe = lean_pipeline(self.redis)
        self.queue_answers(pipe, read)
        pipe.xreadgroup(PROMPT_GROUP, self.consumer, cast(Any, streams), count=64, block=block)
        replies = await pipe.execute(raise_on_error=False)
        for reply in replies:
            if isinstance(reply, Exception):
                raise reply
        return [(stream.decode() if isinstance(stream, bytes) else str(stream),
                 cast(list[Entry], entries)) for stream, entries in replies[-1] or []]

    def answer(self, pool: str, fields: dict[bytes, bytes]) -> tuple[str, dict[str, str | bytes]] | None:
        try:
            game_id = fields[b"game"].decode()
            seat = int(fields[b"seat"])
            version = int(fields[b"version"])
            prompt = self.codec.decode_prompt(fields[b"prompt"])
            bot = self.bots[pool]
            seen = self.codec.decode_view(fields[b"view"]) if b"view" in fields else None
            if bot.needs_view and seen is None:
                raise ValueError("this bot needs a view and the prompt has none")
            reseed(bot, fields.get(b"seed_sha256", game_id.encode()).decode(), seat, version)
            began = time.perf_counter()
            command = bot.choose(seen, prompt)
            self.decision_seconds[pool].observe(time.perf_counter() - began)
            env = CommandEnvelope(
                command_id=f"{pool}:{game_id}:{version}:{seat}",
                game_id=game_id,
                expected_version=version,
                command=command,
            )
            key = bytes.fromhex(fields.get(b"key", b"").decode())
            # Whatever the bot chose goes to the rules service, which judges it (a command for
            # another seat, or no command at all, is refused there and the deadline plays the
            # default); only what cannot even be encoded is dropped here.
            data = self.codec.encode(env)
        except Exception:
            log.exception("bot could not answer a prompt", pool=pool)
            self.failures[pool].inc()
            return None
        self.answered += 1
        if self.debug:
            log.debug("answered", pool=pool, game_id=game_id, command_id=env.command_id,
                      version=version, seat=seat, command=type(command).__name__)
        body: dict[str, str | bytes] = {DATA: data, MAC: sign(key, data), SENT: repr(time.time())}
        return commands_key(partition(game_id), f"bot:{pool}"), body


def run(url: str, pools: Sequence[str], consumer: str | None = None, pace_ms: int = 0) -> None:
    async def main() -> None:
        redis = connect(url)
        worker = BotWorker(redis, pools, consumer, pace_ms)
        try:
            await worker.run(stop_on_sigterm())
        finally:
            for pool in worker.pools:
                await leave(redis, f"bots:{pool}", worker.consumer)
            await redis.aclose()

    loop.run(main())
