"""One read of the command streams, judged in one pass.

A read brings the next command of many games at once (every partition's streams in one
XREADGROUP). Judged one entry at a time (intake.py), every command costs a task, a lock, a
future for its append, and a resumption of each layer when the shared pipeline answers: more
of a command's cost than any function of the rules (benchmarks/cost.md, "Third pass"; the
"Fourth pass" there measures this). Here the common case goes without waiting. For each
game's first entry of the read, `Intake.quick` checks it, the engine decides, the events are
folded and the append call is made; every game's append goes in one pipeline; each outcome is
settled from its reply.

Everything else takes the per-entry path after that, in its stream's order: requests,
anything refused, a stale version, a game not in memory or busy, a dispute, a game with a
forfeited seat, a game's second entry in the same read, a command the rules refuse
(`Rejected`: its ruling is recorded as there) and a conflict (another replica moved the game
on: it is decided again on the log). Only on one server without replica durability
(`EventStore.batches_appends`); elsewhere every entry takes the per-entry path.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from typing import Any

import msgspec
import structlog
from redis.asyncio.client import Pipeline

from services import metrics
from services.protocol import DATA
from services.rules.engine import Rejected, decide
from services.rules.intake import MAX_REQUEST_BYTES, Intake, Quick
from services.rules.moves import Commit, MovePipeline, fault, now_iso
from services.rules.prompting import Prompter
from services.rules.repository import GameRepository
from services.runtime.logging import command_context
from services.store import EventStore
from services.store.keys import partition

log = structlog.get_logger("hexlog.rules")

Entry = tuple[bytes, dict[bytes, bytes]]


class _GameNamed(msgspec.Struct):
    """The one field every entry's body names (a move's envelope, a create, a forfeit)."""

    game_id: str = ""


_game_named = msgspec.json.Decoder(_GameNamed)
_DATA = DATA.encode()


def game_of(fields: dict[bytes, bytes]) -> str:
    """The game an entry is about, read without trusting it (only to keep each game's entries
    in order; intake checks everything); "" when it cannot be read. A body over the largest
    request intake takes is not read here either: intake sets it aside unread."""
    data = fields.get(_DATA)
    if not data or len(data) > MAX_REQUEST_BYTES:
        return ""
    try:
        return _game_named.decode(data).game_id
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):  # deep nesting: hostile
        return ""


def by_game(entries: Sequence[Entry]) -> dict[str, list[Entry]]:
    """A stream's entries grouped by the game they name, each game's in stream order."""
    games: dict[str, list[Entry]] = {}
    for entry in entries:
        games.setdefault(game_of(entry[1]), []).append(entry)
    return games


class ReadJudge:
    def __init__(self, store: EventStore, repo: GameRepository, intake: Intake,
                 pipeline: MovePipeline, prompter: Prompter) -> None:
        self.store = store
        self.repo = repo
        self.intake = intake
        self.pipeline = pipeline
        self.prompter = prompter

    async def handle(self, reads: Sequence[tuple[str, Sequence[Entry]]],
                     after: Callable[[Pipeline], object] | None = None) -> list[Any] | None:
        """Judge one read: the common case together, then the rest entry by entry (different
        games' concurrently, each game's in stream order).

        `after` queues commands to send with the appends, in their round trip (the reader's
        acks and next read); their replies are returned, or None if there were no appends
        to carry them (the caller sends them itself)."""
        quick: list[Quick] = []
        following: list[list[Entry]] = []  # each quick entry's game's later entries
        rest: list[tuple[str, list[Entry]]] = []
        batching = await self.store.batches_appends()
        seen: set[str] = set()
        for stream, entries in reads:
            for game, game_entries in by_game(entries).items():
                first = (self.intake.quick(stream, *game_entries[0])
                         if batching and game and game not in seen else None)
                seen.add(game)
                if first is None:
                    rest.append((stream, game_entries))
                    continue
                # Free (`quick` checked), so taken at once, unless a task woken by its last
                # holder is due to take it first: then this waits, and the game may move on.
                await first.slot.lock.acquire()
                if not self.intake.still_quick(first):
                    first.slot.lock.release()
                    rest.append((stream, game_entries))
                    continue
                quick.append(first)
                following.append(game_entries[1:])
        carried: list[Any] | None = None
        if quick:
            left, carried = await self.judge(quick, after)
            for q, later in zip(quick, following, strict=True):
                # (one the pass could not settle goes first, before its game's later entries)
                entries = [(q.entry_id, q.fields), *later] if id(q) in left else later
                if entries:
                    rest.append((q.stream, entries))
        if len(rest) == 1:
            await self.in_order(*rest[0])
        elif rest:
            await asyncio.gather(*(self.in_order(stream, entries) for stream, entries in rest))
        return carried

    async def in_order(self, stream: str, entries: Sequence[Entry]) -> None:
        for entry_id, fields in entries:
            await self.intake.handle(stream, entry_id, fields)

    async def judge(self, quick: list[Quick], after: Callable[[Pipeline], object] | None,
                    ) -> tuple[set[int], list[Any] | None]:
        """Decide, fold and append these moves together (their games' locks held), settle
        each; returns those left to the per-entry path (their `id`s: an error this pass does
        not explain, which that path reloads the game for and says what is wrong), and the
        replies of what `after` queued (None: not sent)."""
        began = time.perf_counter()
        carried: list[Any] | None = None
        left: list[Quick] = []
        refused: list[tuple[Quick, Rejected]] = []
        commits: list[tuple[Quick, Commit]] = []
        try:
            unknown = self.prompter.unknown({c for q in quick for c in q.slot.controllers})
            if unknown:
                await self.prompter.learn(unknown)
            at = now_iso()
            for q in quick:
                slot, env = q.slot, q.env
                try:
                    events = decide(slot.state, env.command, slot.dealer)
                    commit = self.pipeline.fold(slot, env.command_id, q.scope, events, q.sent,
                                                env.command, at)
                    if not slot.state.finished:
                        commit.write = self.prompter.write_known(slot)
                except Rejected as rejected:
                    refused.append((q, rejected))
                    continue
                except Exception:
                    log.exception("judging failed; judged again alone", game_id=env.game_id,
                                  command_id=env.command_id)
                    self.repo.forget(slot.game_id)  # perhaps half folded: loaded again
                    left.append(q)
                    continue
                commits.append((q, commit))
            if commits:
                carried = await self.append(commits, left, began, after)
            for q, why in refused:
                with _context(q):
                    await self.pipeline.reject(q.slot, q.env, q.scope, why.rule_id, why.message)
        finally:
            for q in quick:
                q.slot.lock.release()
        return {id(q) for q in left}, carried

    async def append(self, commits: list[tuple[Quick, Commit]], left: list[Quick],
                     began: float, after: Callable[[Pipeline], object] | None) -> list[Any]:
        fault("before_append")
        try:
            results, carried = await self.store.append_many([c.call() for _, c in commits],
                                                            after)
        except BaseException:
            for _, c in commits:  # folded past the log: loaded again when next asked
                self.repo.forget(c.slot.game_id)
            raise
        fault("after_append")
        for (q, commit), result in zip(commits, results, strict=True):
            if isinstance(result, Exception):
                log.warning("append failed; judged again alone", game_id=q.env.game_id,
                            command_id=q.env.command_id, error=str(result))
                self.repo.forget(q.slot.game_id)
                left.append(q)
                continue
            if await self.pipeline.settle(commit, result):
                metrics.JUDGE_SECONDS.observe(time.perf_counter() - began)
                continue
            # A conflict: another replica moved the game on. Decided again on the log.
            with _context(q):
                await self.pipeline.decide_and_append(q.slot, q.env, q.scope, q.sent)
        return carried


def _context(q: Quick) -> command_context:
    return command_context(command_id=q.env.command_id, game_id=q.env.game_id,
                           partition=partition(q.env.game_id), seat=q.env.command.seat)
