"""The rules service's side of a failover, and of its own replicas coming and going.

A primary that dies takes with it what it published after its last WAIT: a prompt and its
deadline, a feed entry, a game's end (services/store/replicated.py). The events and outcomes
are on the replica that takes over, so nothing acknowledged is lost, but a game whose prompt was
lost would wait for ever. So every second a replica asks who the primaries are
(services/store/primaries.py); when that changes it makes sure every live game of its
partitions has its acting seat prompted (Recovery.resume: idempotent), tells the projections
where each game is (a feed entry), and reads its own pending commands again: one delivered by
the dead primary whose reply was lost would otherwise wait for the claimer's `claim_idle_ms`.

Starting: the reprompting that protects seats after an outage (a deadline that ran out while
no rules service was up must not cost a seat its move) re-arms every live game's deadline. A
replica that starts while another one serves comes after no outage: it prompts nothing again
and enforces deadlines at once. Replicas started one after another (a crashing replica, the
chaos test) used to push every deadline later at each start, so that a seat whose answer had
been lost was never given its default move while they kept coming: the "replica churn" stall
of docs/operations.md.
"""

from __future__ import annotations

import asyncio
from typing import Any

import structlog
from redis.asyncio import Redis

from services.protocol import SERVICE_TTL_S, heartbeat_key
from services.rules.service import RulesService
from services.store.keys import feed_key, partition
from services.store.primaries import primaries

log = structlog.get_logger("hexlog.rules")


async def others_serving(redis: Redis, me: str, poll_s: float = 0.1) -> bool:
    """Whether another rules replica is alive now: a heartbeat of another instance renewed
    while we watch (a killed one's key lingers up to SERVICE_TTL_S without being renewed)."""
    pattern = heartbeat_key("rules", "*")
    mine = heartbeat_key("rules", me)
    keys = [k for k in [key.decode() if isinstance(key, bytes) else str(key)
                        async for key in redis.scan_iter(match=pattern)] if k != mine]
    if not keys:
        return False
    last = {k: await redis.pttl(k) for k in keys}
    loop = asyncio.get_running_loop()
    until = loop.time() + SERVICE_TTL_S + 0.5
    while loop.time() < until:
        await asyncio.sleep(poll_s)
        for key, before in last.items():
            ttl = await redis.pttl(key)
            if ttl == -1 or ttl > before:
                return True
            last[key] = ttl
    return False


async def prompts_then_deadlines(service: RulesService, outage: bool, tick_s: float,
                                 every: Any, once: Any) -> None:
    """After an outage (`others_serving` said no, before the replica started reading), prompt
    every live game again, re-arming deadlines; then keep the deadlines."""
    if outage:
        await once(service.reprompt_live_games)
    else:
        log.info("another rules replica serves: no outage to make up for")
    await every(tick_s, service.enforce_deadlines)


class PrimaryWatch:
    """Notices that the primaries changed, and puts back what a lost primary took."""

    def __init__(self, service: RulesService, redis: Redis) -> None:
        self.service = service
        self.redis = redis
        self.known: frozenset[str] | None = None
        # One per reader lane: each lane reads its own pending entries once.
        self.rereads: list[asyncio.Event] = []

    def reader_lane(self) -> asyncio.Event:
        """A new reader lane's event, set when the primaries change."""
        self.rereads.append(asyncio.Event())
        return self.rereads[-1]

    async def check(self) -> int:
        now = await primaries(self.redis)
        if self.known is None or now == self.known:
            self.known = now
            return 0
        self.known = now
        log.warning("the primary changed (a failover, or a restart): prompting the live games "
                    "again")
        for reread in self.rereads:
            reread.set()
        return await repair(self.service)


async def repair(service: RulesService) -> int:
    """Every live game of our partitions: its acting seat prompted (or the game finished) and
    a feed entry at its version. Returns how many games."""
    count = 0
    for game_id in await service.store.games():
        if partition(game_id) not in service.partitions:
            continue
        meta = await service.store.meta(game_id)
        if not meta or meta.get("status") != "live":
            continue
        await service.recovery.resume(game_id)
        await service.redis.xadd(feed_key(partition(game_id)),
                                 {"game": game_id, "from": meta.get("version", "0"),
                                  "to": meta.get("version", "0"), "cmd": ""})
        count += 1
    return count


def status(service: RulesService) -> str:
    """The heartbeat's status: `ok`, or `degraded: ` and why (keys set aside, writes waiting
    for a replica)."""
    found = [s.removeprefix("degraded: ")
             for s in (service.guard.status(), service.deadlines.aside.status()) if s != "ok"]
    if waiting := service.store.durability.status():
        found.append(waiting)
    return "degraded: " + "; ".join(found) if found else "ok"
