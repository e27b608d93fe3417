"""Helpers for the rules-service integration tests (tests/service): games, commands, stream
inspection, an in-process pump, and real worker processes.

Everything talks to a real (embedded) Valkey; nothing here mocks the store.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from redis.asyncio import Redis

from bots.local import next_prompt
from bots.registry import make_bot
from bots.sdk import reseed
from events.codec import codec
from events.commands import Command
from events.envelope import CommandEnvelope, EventEnvelope
from events.events import Event, GameCreated
from events.requests import CreateGame
from events.sealed import new_reply_key, unseal
from services.client import signed_fields
from services.protocol import DATA, KIND, heartbeat_key
from services.rules.engine import decide, evolve, initial_state, new_game, pending
from services.rules.engine.chance import SeededDealer
from services.rules.engine.state import State
from services.rules.service import RulesService
from services.store import EventStore
from services.store.keys import (
    ORGANISER,
    PARTITIONS,
    RULES_GROUP,
    commands_key,
    dlq_key,
    game_keys,
    partition,
    seat_scope,
)
from services.store.streams import read_group

SEED = b"hexlog-service-tests"
BOTS = ("random", "heuristic", "random", "heuristic")
TIMEOUT = 20.0

# --- games and commands -------------------------------------------------------------------------


def create_request(
    game_id: str,
    *,
    command_id: str | None = None,
    seed: bytes = SEED,
    controllers: Sequence[str] = ("human",) * 4,
    names: Sequence[str] = (),
    deadline_ms: int = 0,
    turn_limit: int = 1000,
    **extra: Any,
) -> CreateGame:
    return CreateGame(
        command_id=command_id or f"create-{game_id}",
        game_id=game_id,
        seats=len(controllers),
        names=tuple(names),
        controllers=tuple(controllers),
        seed=seed.hex(),
        deadline_ms=deadline_ms,
        turn_limit=turn_limit,
        **{"reply_key": new_reply_key(), **extra},
    )


def reference_created(req: CreateGame) -> GameCreated:
    """The GameCreated the service makes for `req` (the same call as RulesService.create)."""
    assert req.seed is not None
    return new_game(req.game_id, req.seats, bytes.fromhex(req.seed), modules=req.modules,
                    names=req.names, ruleset=req.ruleset, beginner=req.beginner,
                    turn_limit=req.turn_limit)


class Signed(CommandEnvelope, frozen=True, kw_only=True):
    """A command as a test holds it: the envelope and the credential that signs it. Only the
    envelope and its signature are sent (`send`), never the credential."""

    credential: str

    def plain(self) -> CommandEnvelope:
        return CommandEnvelope(command_id=self.command_id, game_id=self.game_id,
                               expected_version=self.expected_version, command=self.command,
                               default=self.default)

    @property
    def scope(self) -> str:
        """The outcome scope the service files this command under (its seat's)."""
        return seat_scope(self.command.seat)


def envelope(game_id: str, command_id: str, credential: str, expected_version: int,
             command: Command) -> Signed:
    return Signed(command_id=command_id, game_id=game_id, credential=credential,
                  expected_version=expected_version, command=command)


async def send_create(redis: Redis, req: CreateGame) -> bytes:
    return await redis.xadd(commands_key(partition(req.game_id)),
                            {DATA: codec().encode(req), KIND: "create"})


async def send(redis: Redis, env: Signed, pool: str = "") -> bytes:
    """XADD a signed command to the organisers' stream (or to a bot pool's stream)."""
    fields: Any = signed_fields(env.plain(), env.credential)
    return await redis.xadd(commands_key(partition(env.game_id), pool), fields)


async def outcome_of(store: EventStore, env: Signed) -> dict[str, Any] | None:
    """The outcome the service stored for a signed command (in its seat's scope)."""
    return await store.get_outcome(env.command_id, env.game_id, scope=env.scope)


async def created_outcome(store: EventStore, req: CreateGame) -> dict[str, Any] | None:
    """A creation's outcome as its requester reads it: the credentials and the referee's
    opened from the sealed reply (events/sealed.py) with the request's reply key."""
    outcome = await store.get_outcome(req.command_id, req.game_id, scope=ORGANISER)
    if outcome is None or "sealed" not in outcome:
        return outcome
    return {**outcome, **unseal(req.reply_key, req.game_id, req.command_id, outcome["sealed"])}


async def send_raw(redis: Redis, game_id: str, fields: dict[Any, Any]) -> bytes:
    """XADD arbitrary fields to the command stream of `game_id`'s partition."""
    return await redis.xadd(commands_key(partition(game_id)), fields)


@dataclass
class Script:
    """Legal moves for a game, computed in-process from the seed: what bots would send."""

    created: GameCreated
    state: State
    dealer: SeededDealer
    credentials: list[str]
    events: list[Event] = field(default_factory=list)  # every event the moves so far caused

    @classmethod
    def start(cls, req: CreateGame, credentials: list[str]) -> Script:
        assert req.seed is not None
        created = reference_created(req)
        return cls(created, initial_state(created), SeededDealer(bytes.fromhex(req.seed)),
                   credentials)

    def next(self, tag: str = "cmd") -> tuple[Signed, list[Event]]:
        """The next move (a random bot's, seeded by position) and the events it must cause;
        advances the reference state."""
        prompt = next_prompt(self.state, pending(self.state))
        bot = make_bot("random", 0)
        reseed(bot, self.created.seed_sha256, prompt.seat, self.state.version)
        command = bot.choose(None, prompt)
        env = envelope(self.state.game_id, f"{tag}-{self.state.game_id}-{self.state.version}",
                       self.credentials[prompt.seat], self.state.version, command)
        events = decide(self.state, command, self.dealer)
        for e in events:
            evolve(self.state, e)
        self.events.extend(events)
        return env, events

    def moves(self, n: int, tag: str = "cmd") -> list[tuple[Signed, list[Event]]]:
        return [self.next(tag) for _ in range(n)]

    def current(self) -> tuple[int, str]:
        """(seat, its credential) of the seat that must act now."""
        seat = next_prompt(self.state, pending(self.state)).seat
        return seat, self.credentials[seat]


# --- reading what happened ----------------------------------------------------------------------


async def log(store: EventStore, game_id: str) -> list[EventEnvelope]:
    c = codec()
    return [c.decode_event_envelope(data) for _, data in await store.read(game_id)]


async def assert_gap_free(redis: Redis, game_id: str) -> int:
    """The log's ids are 1-0..n-0, its envelopes say versions 1..n and meta.version == n (read
    in one transaction, so a live game is checked consistently); returns n."""
    k = game_keys(game_id)
    pipe = redis.pipeline(transaction=True)
    pipe.xrange(k.ev)
    pipe.hget(k.meta, "version")
    entries, version = await pipe.execute()
    n = len(entries)
    assert [entry_id for entry_id, _ in entries] == [f"{v}-0".encode() for v in range(1, n + 1)]
    assert int(version or 0) == n
    envelopes = [codec().decode_event_envelope(fields[b"__data__"]) for _, fields in entries]
    assert [e.version for e in envelopes] == list(range(1, n + 1))
    return n


def command_ids(envelopes: Iterable[EventEnvelope]) -> list[str]:
    """The distinct causing command ids in log order (each command's events are contiguous)."""
    out: list[str] = []
    for env in envelopes:
        if not out or out[-1] != env.command_id:
            assert env.command_id not in out, f"{env.command_id} applied twice"
            out.append(env.command_id)
    return out


async def pending_count(redis: Redis, p: int) -> int:
    """Entries delivered to the rules group and not acknowledged, on every command stream of
    partition p (the organisers' and the bot pools')."""
    total = 0
    async for stream in redis.scan_iter(match=f"{commands_key(p)}*"):
        if stream.endswith(b":dlq"):
            continue
        info = await redis.xpending(stream, RULES_GROUP)
        total += int(info["pending"])
    return total


async def total_pending(redis: Redis) -> int:
    return sum([await pending_count(redis, p) for p in range(PARTITIONS)])


async def dead_letters(redis: Redis, p: int) -> list[dict[bytes, bytes]]:
    return [fields for _, fields in await redis.xrange(dlq_key(p))]


async def rulings(redis: Redis, game_id: str) -> list[dict[str, str]]:
    entries = await redis.xrange(game_keys(game_id).rulings)
    return [{k.decode(): v.decode() for k, v in fields.items()} for _, fields in entries]


async def wait_for(check: Callable[[], Awaitable[Any]], timeout: float = TIMEOUT,
                   what: str = "condition") -> Any:
    """Poll `check` until it returns something truthy."""
    deadline = time.monotonic() + timeout
    while True:
        value = await check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}")
        await asyncio.sleep(0.02)


async def wait_outcome(store: EventStore, command_id: str, game_id: str,
                       timeout: float = TIMEOUT, *, scope: str) -> dict[str, Any]:
    async def found() -> dict[str, Any] | None:
        return await store.get_outcome(command_id, game_id, scope=scope)

    outcome: dict[str, Any] = await wait_for(found, timeout, f"the outcome of {command_id}")
    return outcome


async def wait_no_pending(redis: Redis, timeout: float = TIMEOUT) -> None:
    async def empty() -> bool:
        return await total_pending(redis) == 0

    await wait_for(empty, timeout, "an empty PEL")


# --- the rules service in-process ----------------------------------------------------------------


async def pump(service: RulesService, *, rounds: int = 100) -> int:
    """Read every new command of every stream the service reads (the organisers' and the bot
    pools') as `service`'s consumer and handle it as the service's reader does (one read
    handled together, then acked); stop when the streams are drained. Returns the number of
    entries handled."""
    await service.prepare()
    handled = 0
    for _ in range(rounds):
        streams = {stream: ">" for stream in service.command_streams()}
        reply = await read_group(service.redis, RULES_GROUP, service.consumer, streams, count=128)
        if not reply:
            return handled
        await service.handle_read(reply)
        for name, entries in reply:
            await service.redis.xack(name, RULES_GROUP, *[entry_id for entry_id, _ in entries])
            handled += len(entries)
    raise AssertionError("the command streams did not drain")


async def create_game(service: RulesService, req: CreateGame) -> list[str]:
    """Create a game through the command stream and the in-process service; its credentials."""
    await send_create(service.redis, req)
    await pump(service)
    outcome = await created_outcome(service.store, req)
    assert outcome is not None
    assert outcome["status"] == "created", outcome
    creds: list[str] = outcome["credentials"]
    return creds


# --- real processes ----------------------------------------------------------------------------


def rules_consumer(pid: int) -> str:
    """The consumer name `hexlog serve rules` uses (services.rules.app.consumer_name)."""
    return f"rules-{socket.gethostname()}-{pid}"


@dataclass
class Worker:
    proc: subprocess.Popen[bytes]
    log_path: Path
    heartbeat: str

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")[-4000:]

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.kill()


def spawn(args: Sequence[str], url: str, log_path: Path, heartbeat: str = "",
          **env: str) -> Worker:
    """Start `hexlog <args>` as a real process (own session) with REDIS_URL=url."""
    out = log_path.open("ab")
    proc = subprocess.Popen(
        [sys.executable, "-m", "services.cli.main", *args],
        env={**os.environ, "REDIS_URL": url, "HEXLOG_LOG_LEVEL": "info", **env},
        stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    out.close()
    return Worker(proc, log_path, heartbeat or heartbeat_key("rules", rules_consumer(proc.pid)))


def spawn_rules(url: str, log_path: Path, claim_idle_ms: int = 1000, **env: str) -> Worker:
    return spawn(["serve", "rules", "--claim-idle-ms", str(claim_idle_ms)], url, log_path, **env)


async def wait_started(redis: Redis, worker: Worker, timeout: float = 30.0) -> None:
    """Until the worker's heartbeat appears (its groups exist and its loops run)."""

    async def up() -> bool:
        if worker.proc.poll() is not None:
            raise AssertionError(f"worker exited with {worker.proc.returncode}:\n{worker.output()}")
        return bool(await redis.exists(worker.heartbeat))

    await wait_for(up, timeout, f"worker {worker.proc.pid} to start")
