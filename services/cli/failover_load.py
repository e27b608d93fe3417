"""Load that knows what it was told, and a checker in Jepsen's spirit (`hexlog bench failover`).

Players play every seat of their games through the real service: each move is a signed command
on the organisers' stream, and a player waits for its outcome as any client does (`Client.
outcome`: an outcome counts once the store publishes it, services/store/replicated.py). Every
outcome a player is given is written down (`Ack`): the command, the versions it says the
command's events hold, when the command was sent and when its answer came. A command left
unanswered (the primary died under it) is sent again under the same id, as the docs tell any
client to do. Moves are a random bot's, decided from the player's own fold of the game (the
same seed as the service), so a player also knows which events each move must cause.

After the run, `check` compares what was acknowledged with the logs: an acknowledged command
whose events are not in its game's log at the versions it was told (lost), a command whose
events are in a log twice (doubled), a log with a gap, a game that fails `hexlog audit`, a game
that did not finish.
"""

from __future__ import annotations

import asyncio
import hashlib
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any

from redis.asyncio import Redis

from bots.registry import make_bot
from bots.sdk import reseed
from events.envelope import CommandEnvelope
from events.requests import CreateGame
from events.sealed import new_reply_key
from services.audit.audit import audit
from services.client import Client, ServiceError
from services.rules.engine import decide, evolve, initial_state, new_game, next_prompt, pending
from services.rules.engine.chance import SeededDealer
from services.rules.record import load_record
from services.store import CorruptLogError, EventStore
from services.store.keys import ORGANISER, partition, seat_scope

NO_DEADLINE_MS = 24 * 3600 * 1000  # the players answer every move: no default moves
TURN_LIMIT = 200
ANSWER_WAIT_S = 5.0  # a command unanswered this long is sent again (same id)


@dataclass(frozen=True)
class Ack:
    """An outcome a player was given: `first`..`last` are the versions it said the command's
    events hold (1..1 for a creation)."""

    game: str
    command_id: str
    first: int
    last: int
    sent: float  # monotonic
    acked: float


@dataclass
class Journal:
    acks: list[Ack] = field(default_factory=list)
    games: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # outcomes a player did not expect
    resent: int = 0

    def commands_between(self, start: float, end: float) -> int:
        return sum(1 for a in self.acks if start <= a.acked < end)


class Players:
    """Keeps `concurrency` games in flight, each played to its end by one task."""

    def __init__(self, client: Client, journal: Journal, run: str, concurrency: int) -> None:
        self.client = client
        self.journal = journal
        self.run = run
        self.concurrency = concurrency
        self.started = 0
        self.stop = asyncio.Event()

    async def keep_playing(self) -> None:
        """Start a new game whenever one ends, until `stop`; then wait for those in flight."""
        running: set[asyncio.Task[None]] = set()
        while not self.stop.is_set():
            while len(running) < self.concurrency:
                game = f"{self.run}-{self.started}"
                self.started += 1
                running.add(asyncio.create_task(self.play(game)))
            stop = asyncio.create_task(self.stop.wait())
            await asyncio.wait([*running, stop], return_when=asyncio.FIRST_COMPLETED)
            stop.cancel()
            for task in [t for t in running if t.done()]:
                running.discard(task)
                task.result()
        if running:
            await asyncio.gather(*running)

    async def play(self, game_id: str) -> None:
        seed = hashlib.sha256(f"failover:{game_id}".encode()).digest()
        request = CreateGame(command_id=f"create:{game_id}", game_id=game_id, seats=4,
                             controllers=("human",) * 4, seed=seed.hex(), turn_limit=TURN_LIMIT,
                             deadline_ms=NO_DEADLINE_MS, reply_key=new_reply_key())
        self.journal.games.append(game_id)
        sent = time.monotonic()
        while True:
            try:
                credentials = await self.client.create_game(request, timeout=ANSWER_WAIT_S)
                break
            except ServiceError:
                if await self.client.store.get_outcome(request.command_id, game_id,
                                                       scope=ORGANISER) is not None:
                    raise
                self.journal.resent += 1
        self.journal.acks.append(Ack(game_id, request.command_id, 1, 1, sent, time.monotonic()))
        created = new_game(game_id, 4, seed, turn_limit=TURN_LIMIT)
        state, dealer, bot = initial_state(created), SeededDealer(seed), make_bot("random", 0)
        while not state.finished:
            prompt = next_prompt(state, pending(state))
            reseed(bot, created.seed_sha256, prompt.seat, state.version)
            command = bot.choose(None, prompt)
            envelope = CommandEnvelope(command_id=f"{game_id}:{state.version}", game_id=game_id,
                                       expected_version=state.version, command=command)
            events = decide(state, command, dealer)
            outcome, sent = await self.answer(envelope, credentials.seats[prompt.seat])
            first, last = int(outcome.get("from", 0)), int(outcome.get("to", 0))
            if (outcome.get("status") != "accepted"
                    or (first, last) != (state.version + 1, state.version + len(events))):
                self.journal.refused.append(f"{envelope.command_id}: {outcome}")
                return
            self.journal.acks.append(Ack(game_id, envelope.command_id, first, last, sent,
                                         time.monotonic()))
            for event in events:
                evolve(state, event)

    async def answer(self, envelope: CommandEnvelope, credential: str) -> tuple[dict[str, Any], float]:
        """Send the command (again, same id, while it goes unanswered); its outcome and when
        it was first sent."""
        sent = time.monotonic()
        scope = seat_scope(envelope.command.seat)
        while True:
            try:
                await self.client.send(envelope, credential)
                return await self.client.outcome(envelope.command_id, envelope.game_id,
                                                 ANSWER_WAIT_S, scope=scope), sent
            except ServiceError:
                self.journal.resent += 1


@dataclass
class Verdict:
    acked: int = 0
    acked_lost: list[str] = field(default_factory=list)
    doubled: list[str] = field(default_factory=list)
    gaps: list[str] = field(default_factory=list)
    audit_failures: list[str] = field(default_factory=list)
    unfinished: list[str] = field(default_factory=list)


async def check(redis: Redis, journal: Journal) -> Verdict:
    """What was acknowledged against what the logs hold."""
    store = EventStore(redis)
    verdict = Verdict(acked=len(journal.acks))
    by_game: dict[str, list[Ack]] = {}
    for ack in journal.acks:
        by_game.setdefault(ack.game, []).append(ack)
    for game in journal.games:
        try:
            entries = await store.read_entries(game)
        except CorruptLogError as exc:
            verdict.gaps.append(f"{game}: {exc}")
            continue
        batches: list[tuple[str, int, int]] = []
        for command_id, group in groupby(entries, key=lambda e: e.command_id):
            versions = [e.version for e in group]
            batches.append((command_id, versions[0], versions[-1]))
        counts = Counter(command_id for command_id, _, _ in batches)
        verdict.doubled += [f"{game}: {c}" for c, n in counts.items() if n > 1]
        where = {command_id: (first, last) for command_id, first, last in batches}
        for ack in by_game.get(game, []):
            if where.get(ack.command_id) != (ack.first, ack.last):
                verdict.acked_lost.append(f"{game}: {ack.command_id} acknowledged at "
                                          f"{ack.first}..{ack.last}, in the log at "
                                          f"{where.get(ack.command_id)}")
        meta = await store.meta(game) or {}
        if meta.get("status") != "finished":
            verdict.unfinished.append(game)
            continue
        report = audit(await load_record(store, game))
        if report.exit_code != 0:
            verdict.audit_failures.append(game)
    return verdict


def unavailability(journal: Journal, killed_at: float, partitions: set[int]) -> float | None:
    """From a kill to the first acknowledged command sent after it in the partitions the
    killed primary served (None: no command there since)."""
    answered = [a.acked for a in journal.acks
                if a.sent > killed_at and partition(a.game) in partitions]
    return min(answered) - killed_at if answered else None


def summary(unavailable: list[float], journal: Journal) -> dict[str, float]:
    """The kills' unavailability, and the longest any one command waited for its answer (a
    command whose entry died with the primary waits until its player sends it again)."""
    return {"max_unavailable_s": max(unavailable, default=0.0),
            "p50_unavailable_s": statistics.median(unavailable) if unavailable else 0.0,
            "max_command_wait_s": max((a.acked - a.sent for a in journal.acks), default=0.0)}
