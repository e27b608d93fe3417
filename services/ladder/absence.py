"""Missed deadlines, counted from the partition feeds (one entry per committed batch, with the
command id that made it).

A batch made by a deadline (`deadline:<game>:<version>:<seat>`, the rules service's default
move) is a miss of the bot in that seat; a batch made by the bot's own answer (the gateway
sends a ladder seat's commands as `s<seat>:<id>`) ends its run of misses. A bot that misses
`absent_after` in a row, in any of its games, is marked absent (registry.mark_absent): out of
matchmaking until it says ready again. Its games go on meanwhile, its seats played by their
defaults until it answers again: a bot that comes back mid-game has its seats back.

The feeds are read without a consumer group (XRANGE after a cursor kept in Redis): the
projections' group is theirs; a restarted matchmaker goes on from its cursor.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from redis.asyncio import Redis

from services.ladder.keys import CURSORS, MISSES
from services.ladder.records import LadderGame
from services.store.keys import PARTITIONS, feed_key

DEADLINE = re.compile(r"deadline:(?P<game>.+):(?P<version>\d+):(?P<seat>\d+)")
ANSWER = re.compile(r"s(?P<seat>\d{1,2}):.+")
READ_COUNT = 1000


def ladder_command_id(seat: int, given: str) -> str:
    """The id the gateway sends a ladder seat's command under: the seat can be read from the
    feed, and the bot's own id (its retries) stays one command."""
    return f"s{seat}:{given}"


@dataclass
class Tally:
    """One read of the feeds: per bot, whether it answered and the misses after its last
    answer (or all of them)."""

    answered: set[str] = field(default_factory=set)
    misses: dict[str, int] = field(default_factory=dict)

    def add(self, game: LadderGame, command_id: str) -> None:
        missed = DEADLINE.fullmatch(command_id)
        if missed is not None:
            seat = int(missed["seat"])
            if missed["game"] == game.id and seat < len(game.bots):
                bot = game.bots[seat]
                self.misses[bot] = self.misses.get(bot, 0) + 1
            return
        answer = ANSWER.fullmatch(command_id)
        if answer is not None and int(answer["seat"]) < len(game.bots):
            bot = game.bots[int(answer["seat"])]
            self.answered.add(bot)
            self.misses.pop(bot, None)


class MissCounter:
    """Follows the feeds for the games the matchmaker runs; returns who missed how many."""

    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self.cursors: dict[int, str] = {}

    async def start(self) -> None:
        """Go on from the cursors in Redis; a partition without one starts at its end (what
        happened before the ladder ran is not the ladder's)."""
        raw = cast(dict[Any, Any], await self.redis.hgetall(CURSORS))
        stored = {int(k): (v.decode() if isinstance(v, bytes) else str(v))
                  for k, v in raw.items()}
        pipe = self.redis.pipeline(transaction=False)
        for p in range(PARTITIONS):
            pipe.xrevrange(feed_key(p), "+", "-", count=1)
        for p, last in enumerate(await pipe.execute()):
            self.cursors[p] = stored.get(p) or (last[0][0].decode() if last else "0-0")

    async def poll(self, games: Mapping[str, LadderGame]) -> dict[str, int]:
        """Read what the feeds got since the last poll; each bot's misses in a row now, for
        the bots whose count changed."""
        pipe = self.redis.pipeline(transaction=False)
        for p in range(PARTITIONS):
            pipe.xrange(feed_key(p), f"({self.cursors[p]}", "+", count=READ_COUNT)
        tally = Tally()
        moved: dict[int, str] = {}
        for p, entries in enumerate(await pipe.execute()):
            for entry_id, fields in entries:
                moved[p] = entry_id.decode()
                game = games.get(fields.get(b"game", b"").decode())
                if game is not None:
                    tally.add(game, fields.get(b"cmd", b"").decode())
        counts = await self.record(tally)
        if moved:
            self.cursors.update(moved)
            await self.redis.hset(CURSORS, mapping={str(p): c for p, c in moved.items()})
        return counts

    async def record(self, tally: Tally) -> dict[str, int]:
        bots = sorted(tally.answered | set(tally.misses))
        if not bots:
            return {}
        pipe = self.redis.pipeline(transaction=False)
        for bot in bots:
            after = tally.misses.get(bot, 0)
            if bot in tally.answered:
                pipe.hset(MISSES, bot, after)
            else:
                pipe.hincrby(MISSES, bot, after)
        return {bot: int(n) for bot, n in zip(bots, await pipe.execute(), strict=True)} | {
            bot: tally.misses.get(bot, 0) for bot in tally.answered}
