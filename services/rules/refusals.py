"""What a bot's author and a game's results learn about refused answers.

A bot whose answers are all refused (a wrong signature, a move the rules forbid) used to play
on by its default moves with nothing but the rules service's log saying why. Now every refusal
of an answer is noted twice:

* per game and seat, `hexlog:{p}:g:<game>:refused` (hash: `s<seat>` the count, `s<seat>:first`
  the first reason): what `hexlog play` and tournament results show beside each seat. A
  dead-lettered entry counts for a seat only when it came from the stream of the seat's own
  controller (a pool cannot run up another pool's count);
* per bot pool, `hexlog:{p}:refused:bot:<pool>` (a capped stream the pool's own Redis user may
  read: docs/protocol.md §7): game, seat, command id, rule id and message of each refusal of
  an answer from that pool's stream or for a seat it plays.
"""

from __future__ import annotations

import time

from redis.asyncio import Redis

from services.protocol import refused_key
from services.store.keys import game_keys, partition

REFUSED_MAXLEN = 1_000  # per pool and partition: the recent ones are what an author reads
REFUSED_TTL_S = 7 * 24 * 3600


class Refusals:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis

    async def note(self, game_id: str, seat: int | None, pool: str, command_id: str,
                   rule_id: str, message: str, *, count: bool = True) -> None:
        """A refused answer: counted for `seat` of the game (when `count`), and told to `pool`
        (`bot:<name>`; "" for a requester, which learns it from the outcome)."""
        pipe = self.redis.pipeline(transaction=False)
        if count and seat is not None and seat >= 0:
            key = game_keys(game_id).refused
            pipe.hincrby(key, f"s{seat}", 1)
            pipe.hsetnx(key, f"s{seat}:first", f"{rule_id}: {message}"[:300])
            pipe.expire(key, REFUSED_TTL_S)
        if pool:
            pipe.xadd(refused_key(partition(game_id), pool), {
                "game": game_id, "seat": "" if seat is None else seat, "command_id": command_id,
                "rule_id": rule_id, "message": message[:300], "at": repr(time.time()),
            }, maxlen=REFUSED_MAXLEN, approximate=True)
        if len(pipe):
            await pipe.execute()


async def refused_by_seat(redis: Redis, game_id: str, seats: int) -> list[tuple[int, str]]:
    """(how many answers were refused, the first reason) for each seat of a game."""
    raw = await redis.hgetall(game_keys(game_id).refused)
    fields = {(k.decode() if isinstance(k, bytes) else str(k)):
              (v.decode() if isinstance(v, bytes) else str(v)) for k, v in raw.items()}
    return [(int(fields.get(f"s{s}", 0)), fields.get(f"s{s}:first", "")) for s in range(seats)]
