"""A ladder bot's one stream: every game it plays, as lines tagged with the game.

| `type` | fields | when |
|---|---|---|
| `welcome` | `bot`, `ready`, `absent`, `games` (ids), `keepalive_s` | first |
| `gameStart` | `game`, `seat`, `version`, `ruleset`, `modules`, `names`, `deadline_ms` | a game of the bot's begins (or is running when the stream opens) |
| `prompt` | `game`, `seat`, `version`, `deadline` (ms since the epoch), `prompt`, `view` | the rules service waits for the bot's seat |
| `missed` | `game`, `seat`, `version` | its deadline passed: the seat's default move was played |
| `event` | `game`, `version`, `at`, `event` | each event (with `?events=true`), redacted for the seat |
| `gameFinish` | `game`, `seat`, `winner`, `scores`, `reason` | the game ended |
| `absent` | `misses` | the bot missed too many deadlines: out of matchmaking until it says ready |
| `revoked` | `reason` | the token was revoked or rotated: the stream ends |

An empty line is a keep-alive (every KEEPALIVE_S of silence). Each game is followed as a seat's
table stream follows it (streams.ViewerStream: the log folded in the gateway, the prompt the one
the rules service waits for, redacted for the seat), so a bot that reconnects gets each running
game's start and its prompt again. A duplicate set's games share a seed, so their
`GameFinished` comes with the seed left out (the replay shows it once the set is over).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import msgspec
import structlog
from redis.asyncio import Redis

from events.envelope import EventEnvelope
from events.events import GameFinished
from services.gateway.streams import KEEPALIVE_S, Line, LogWatch, ViewerStream, Watches, raw
from services.ladder.absence import DEADLINE
from services.ladder.records import BotRecord, LadderGame
from services.rules.engine import evolve, redact, view
from services.rules.engine.state import State
from services.tasks import cancel_and_wait

log = structlog.get_logger("hexlog.gateway")

END: list[Line] = [{"type": "end"}]  # the queue's last batch: the stream ends
START_WAIT_S = 10.0


class SeatLines(ViewerStream):
    """A ladder seat's lines: each event with the command that made it, a prompt with the
    seat's view, and `GameFinished` without the seed of a duplicate set."""

    def __init__(self, redis: Redis, watches: Watches, game: LadderGame, seat: int | None,
                 after: int | None = None, prompt_views: bool = True) -> None:
        super().__init__(redis, watches, game.id, seat, after, game.deadline_ms)
        self.prompt_views = prompt_views
        self.shared_seed = bool(game.set_id)
        self.state: State | None = None

    def fold(self, state: State, envelopes: list[EventEnvelope]) -> list[Line]:
        self.state = state
        out = []
        for env in envelopes:
            seen = redact(state, env.event, self.seat)
            evolve(state, env.event)
            if isinstance(seen, GameFinished) and self.shared_seed:
                seen = msgspec.structs.replace(seen, seed="")
            out.append({"type": "event", "version": env.version, "at": env.at,
                        "event": raw(seen), "command_id": env.command_id, "_event": seen})
        return out

    async def prompt_line(self, state: State, watch: LogWatch) -> Line | None:
        line = await super().prompt_line(state, watch)
        if line is not None and self.prompt_views:
            line["view"] = raw(view(state, self.seat))
        return line


def public(line: Line) -> Line:
    """A line as a client gets it: without what only the gateway uses."""
    return {k: v for k, v in line.items() if not k.startswith("_") and k != "command_id"}


def shaped(game: LadderGame, seat: int, batch: list[Line], events: bool) -> list[Line]:
    """A seat's lines as the bot's stream carries them: tagged with the game."""
    out: list[Line] = []
    missed: set[str] = set()
    for line in batch:
        kind = line["type"]
        if kind == "gameFull":
            out.append({"type": "gameStart", "game": game.id, "seat": seat,
                        "version": line["version"], "ruleset": game.ruleset,
                        "modules": [msgspec.to_builtins(m) for m in game.modules],
                        "names": list(game.names), "deadline_ms": game.deadline_ms})
        elif kind == "prompt":
            out.append({**line, "game": game.id, "seat": seat})
        elif kind == "event":
            seen = line.get("_event")
            command_id = str(line.get("command_id", ""))
            default = DEADLINE.fullmatch(command_id)
            if default is not None and int(default["seat"]) == seat and command_id not in missed:
                missed.add(command_id)
                out.append({"type": "missed", "game": game.id, "seat": seat,
                            "version": int(default["version"])})
            if events:
                out.append({**public(line), "game": game.id})
            if isinstance(seen, GameFinished):
                out.append({"type": "gameFinish", "game": game.id, "seat": seat,
                            "winner": seen.winner, "scores": list(seen.scores),
                            "reason": seen.reason})
    return out


class BotStream:
    """One open stream of one bot: its games' lines, merged in one queue."""

    def __init__(self, redis: Redis, watches: Watches, bot: BotRecord, *, views: bool,
                 events: bool) -> None:
        self.redis = redis
        self.watches = watches
        self.bot = bot
        self.views = views
        self.events = events
        self.queue: asyncio.Queue[list[Line]] = asyncio.Queue()
        self.followers: dict[str, asyncio.Task[None]] = {}

    def follow(self, game: LadderGame) -> None:
        """Stream this game's lines too (once: a game already followed is left as it is)."""
        seat = game.seat_of(self.bot.id)
        if seat is None or game.id in self.followers or game.status != "live":
            return
        task = asyncio.create_task(self._follow(game, seat))
        self.followers[game.id] = task
        task.add_done_callback(lambda _: self.followers.pop(game.id, None))

    async def _follow(self, game: LadderGame, seat: int) -> None:
        try:
            lines = SeatLines(self.redis, self.watches, game, seat, prompt_views=self.views)
            for _ in range(int(START_WAIT_S / 0.05)):  # its first event follows the start
                if await lines.store.version(game.id):
                    break
                await asyncio.sleep(0.05)
            meta = await lines.store.meta(game.id) or {}
            if meta.get("status") == "finished":  # over before we looked: nothing to play
                return
            async for batch in lines.lines():
                out = shaped(game, seat, batch, self.events)
                if out:
                    await self.queue.put(out)
        except asyncio.CancelledError:
            raise
        except Exception:  # one game's stream broken: the others go on; a reconnect retries
            log.exception("ladder game stream failed", game_id=game.id, bot=self.bot.id)

    def say(self, line: Line) -> None:
        self.queue.put_nowait([line])

    def end(self, line: Line) -> None:
        self.queue.put_nowait([line])
        self.queue.put_nowait(END)

    async def lines(self, first: Line) -> AsyncIterator[list[Line]]:
        """`first`, then the games' lines as they come; an empty batch is a keep-alive."""
        yield [first]
        try:
            while True:
                try:
                    batch = await asyncio.wait_for(self.queue.get(), KEEPALIVE_S)
                except TimeoutError:
                    batch = []
                if batch is END:
                    return
                yield batch
        finally:
            await self.close()

    async def close(self) -> None:
        await cancel_and_wait(list(self.followers.values()))
        self.followers.clear()
