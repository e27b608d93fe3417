"""A game as one viewer follows it: the lines of a seat's (or a spectator's) stream.

The shape is the Lichess Bot API's: the first line is the whole picture (`gameFull`: the
viewer's view and, for a seat that must act, its prompt), then one line per event and a
`prompt` line each time the seat must act again; the stream ends after `GameFinished`. A
client that reconnects with `after=V` gets the full line and then every event after version V
it missed, so nothing is lost and nothing needs to be remembered by the client.

Every event is redacted for the viewer (`redact`, on the state before the event) and every
view is `view(state, seat)`: a spectator (seat None) sees what the engine shows a spectator and
nothing else. Each stream folds the log itself (the engine's `evolve`, pure); one `LogWatch` per
game and process waits on the log (XREAD BLOCK) and wakes the streams of that game.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import msgspec
from redis.asyncio import Redis

from events.codec import codec
from events.envelope import EventEnvelope
from events.events import GameCreated
from events.prompts import Prompt
from services.protocol import deadlines_key
from services.rules.engine import evolve, initial_state, next_prompt, pending, redact, view
from services.rules.engine.state import State
from services.rules.prompting import deadline_member
from services.store import EventStore
from services.store.keys import game_keys, partition
from services.store.streams import read

KEEPALIVE_S = 7.0  # an empty line this often, as Lichess does: proxies keep the stream open
READ_COUNT = 1000
RECENT = 4000  # events a watch keeps decoded for the streams of its game

Line = dict[str, Any]


class LogWatch:
    """Wakes the streams of one game when its log grows: one XREAD BLOCK per game and
    process, however many streams follow it."""

    def __init__(self, redis: Redis, game_id: str) -> None:
        self.redis = redis
        self.game_id = game_id
        self.key = game_keys(game_id).ev
        self.top = 0
        self.users = 0
        self.changed = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        # The prompt the rules service waits for at a version: the same for every stream of
        # the game, so it is worked out once (the legal moves are the costly part of a fold).
        self.prompt_at: tuple[int, Prompt | None] = (-1, None)
        self.recent: list[EventEnvelope] = []  # the latest events, decoded

    def next_prompt(self, state: State) -> Prompt | None:
        if self.prompt_at[0] != state.version:
            prompts = pending(state)
            self.prompt_at = (state.version, next_prompt(state, prompts) if prompts else None)
        return self.prompt_at[1]

    def start(self) -> None:
        if self.task is None:
            self.task = asyncio.create_task(self.run())

    async def run(self) -> None:
        last = "0-0"
        while True:
            try:
                found = await read(self.redis, {self.key: last}, count=READ_COUNT, block=5000)
            except asyncio.CancelledError:
                raise
            except Exception:  # a dropped connection: the streams keep polling the store
                await asyncio.sleep(0.5)
                continue
            for _, entries in found:
                if not entries:
                    continue
                for entry_id, fields in entries:
                    version = int(entry_id.split(b"-", 1)[0])
                    if version != self.top + 1:  # not the next one: let readers use the store
                        self.recent.clear()
                    self.recent.append(codec().decode_event_envelope(fields[b"__data__"]))
                    self.top = version
                del self.recent[:-RECENT]
                last = entries[-1][0].decode()
                self.changed.set()
                self.changed = asyncio.Event()

    def since(self, version: int) -> list[EventEnvelope] | None:
        """The events after `version` this watch holds (one decode per game, not per
        stream), or None when it does not hold them all (the reader asks the store)."""
        if not self.recent or self.recent[0].version > version + 1:
            return None
        return self.recent[version + 1 - self.recent[0].version:]

    async def wait_beyond(self, version: int, timeout: float) -> None:
        if self.top > version:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.changed.wait(), timeout)


@dataclass
class Watches:
    """The LogWatch of each followed game; a watch ends with its last stream."""

    redis: Redis
    games: dict[str, LogWatch] = field(default_factory=dict)

    def enter(self, game_id: str) -> LogWatch:
        watch = self.games.get(game_id)
        if watch is None:
            watch = self.games[game_id] = LogWatch(self.redis, game_id)
            watch.start()
        watch.users += 1
        return watch

    def leave(self, watch: LogWatch) -> None:
        watch.users -= 1
        if watch.users <= 0 and watch.task is not None:
            watch.task.cancel()
            self.games.pop(watch.game_id, None)

    async def close(self) -> None:
        for watch in list(self.games.values()):
            if watch.task is not None:
                watch.task.cancel()
        self.games.clear()


def raw(obj: Any) -> msgspec.Raw:
    return msgspec.Raw(codec().encode(obj))


class ViewerStream:
    """The lines one viewer (`seat`, or None for a spectator) reads of one game."""

    def __init__(self, redis: Redis, watches: Watches, game_id: str, seat: int | None,
                 after: int | None = None, deadline_ms: int = 0, views: bool = False) -> None:
        self.redis = redis
        self.store = EventStore(redis)
        self.watches = watches
        self.game_id = game_id
        self.seat = seat
        self.after = after
        self.deadline_ms = deadline_ms
        self.prompted = -1
        self.views = views  # a `view` line after each batch (chat adapters show hands)

    async def lines(self) -> AsyncIterator[list[Line]]:
        """The stream's lines, a batch at a time (what one read of the log gives: written
        to the client at once); an empty batch is a keep-alive (an empty line)."""
        watch = self.watches.enter(self.game_id)
        try:
            state, catch_up = await self.start()
            batch = [self.full(state), *catch_up]
            prompt = await self.prompt_line(state, watch)
            yield batch if prompt is None else [*batch, prompt]
            while not state.finished:
                held = watch.since(state.version)
                entries = held if held is not None else [
                    codec().decode_event_envelope(e.data) for e in
                    await self.store.read_entries(self.game_id, state.version, READ_COUNT)]
                if not entries:
                    before = state.version
                    await watch.wait_beyond(before, KEEPALIVE_S)
                    if watch.top <= before:
                        yield []
                    continue
                batch = self.fold(state, entries)
                if held is not None or len(entries) < READ_COUNT:  # whole batches: ask now
                    if self.views:
                        batch.append({"type": "view", "version": state.version,
                                      "view": raw(view(state, self.seat))})
                    prompt = await self.prompt_line(state, watch)
                    if prompt is not None:
                        batch.append(prompt)
                yield batch
        finally:
            self.watches.leave(watch)

    async def start(self) -> tuple[State, list[Line]]:
        entries = await self.store.read_entries(self.game_id, 0)
        if not entries:
            raise LookupError(f"game {self.game_id!r} has no log yet")
        first = codec().decode_event_envelope(entries[0].data).event
        if not isinstance(first, GameCreated):
            raise LookupError(f"game {self.game_id!r}: the log does not start with GameCreated")
        state = initial_state(first)
        after = len(entries) if self.after is None else max(1, min(self.after, len(entries)))
        for e in entries[1:after]:
            evolve(state, codec().decode_event_envelope(e.data).event)
        tail = [codec().decode_event_envelope(e.data) for e in entries[after:]]
        return state, self.fold(state, tail)

    def fold(self, state: State, envelopes: list[EventEnvelope]) -> list[Line]:
        out = []
        for env in envelopes:
            seen = redact(state, env.event, self.seat)
            evolve(state, env.event)
            out.append({"type": "event", "version": env.version, "at": env.at,
                        "event": raw(seen)})
        return out

    def full(self, state: State) -> Line:
        return {"type": "gameFull", "game": self.game_id, "seat": self.seat,
                "version": state.version, "deadline_ms": self.deadline_ms,
                "view": raw(view(state, self.seat))}

    async def prompt_line(self, state: State, watch: LogWatch) -> Line | None:
        """The seat's prompt when it is the one the rules service waits for now (the order
        `next_prompt` gives), once per version."""
        if self.seat is None or state.finished or self.prompted == state.version:
            return None
        p = watch.next_prompt(state)
        if p is None or p.seat != self.seat:
            return None
        self.prompted = state.version
        member = deadline_member(self.game_id, state.version, self.seat)
        score = await self.redis.zscore(deadlines_key(partition(self.game_id)), member)
        return {"type": "prompt", "version": state.version,
                "deadline": None if score is None else int(score), "prompt": raw(p)}
