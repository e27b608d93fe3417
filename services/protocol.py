"""Redis names and entry fields the rules service shares with bots and tools.

The event-store keys live in `services.store.keys`; these are the service's own: where prompts
go (one stream per controller pool, e.g. `hexlog:prompts:bot:random`), the per-partition
deadline set, and service heartbeats. Entry field names are constants so that a bot written in
another language can follow `docs`/this file exactly.
"""

from __future__ import annotations

import asyncio
import signal

from redis.asyncio import Redis

from events.auth import MAC_FIELD
from services.store.keys import PREFIX, tag

# Fields of a command stream entry.
DATA = "__data__"  # the JSON body (CommandEnvelope, CreateGame or ForfeitSeat)
KIND = "kind"  # "move" (default), "create" or "forfeit"
SENT = "sent"  # sender's wall clock (seconds, float) for command→event latency
MAC = MAC_FIELD  # hex HMAC of DATA by the seat's turn key (events/auth.py)

PROMPT_GROUP = "workers"
SERVICE_TTL_S = 3


def prompts_key(p: int, controller: str) -> str:
    """Prompts of partition p for every seat a controller pool answers (e.g. `bot:random`).
    Partitioned like the game's keys so the append script can write the next prompt in the
    same step as the events; a pool reads the streams of every partition."""
    return f"{tag(p)}:prompts:{controller}"


def refused_key(p: int, controller: str) -> str:
    """Refusals of a pool's answers in partition p (services/rules/refusals.py): the one
    place a bot's author reads why its commands were not taken."""
    return f"{tag(p)}:refused:{controller}"


def pool_key(controller: str) -> str:
    """What a controller pool declares about itself (hash): `needs_view` 0/1."""
    return f"{PREFIX}:pool:{controller}"


def deadlines_key(p: int) -> str:
    """Sorted set of open prompts by deadline (ms since epoch): `game|version|seat`."""
    return f"{tag(p)}:deadlines"


def latency_key() -> str:
    """Recent command→event latencies (µs), for `hexlog bench e2e`."""
    return f"{PREFIX}:stats:latency_us"


def heartbeat_key(service: str, name: str) -> str:
    """One instance's heartbeat (for operators: who is running)."""
    return f"{PREFIX}:svc:{service}:{name}"


def alive_key(service: str) -> str:
    """Set by every instance of a service ("rules", "projections", "bots:<pool>"): whether
    any is alive is one EXISTS, never a scan of the key space."""
    return f"{PREFIX}:alive:{service}"


async def beat(redis: Redis, service: str, name: str, status: str = "ok") -> None:
    """Renew an instance's heartbeat; `status` (`ok`, or `degraded: …` with the reason) is
    what `hexlog health` prints."""
    pipe = redis.pipeline(transaction=False)
    pipe.set(heartbeat_key(service, name), status, ex=SERVICE_TTL_S)
    pipe.set(alive_key(service), name, ex=SERVICE_TTL_S)
    await pipe.execute()


async def leave(redis: Redis, service: str, name: str) -> None:
    """Clear our heartbeat on a clean exit, so the next command does not wait for a TTL to
    learn that nobody serves any more (the alive key only if we were its last writer)."""
    pipe = redis.pipeline(transaction=False)
    pipe.delete(heartbeat_key(service, name))
    pipe.get(alive_key(service))
    _, holder = await pipe.execute()
    if holder is not None and holder.decode() == name:
        await redis.delete(alive_key(service))


def stop_on_sigterm() -> asyncio.Event:
    """An event set by SIGTERM/SIGINT, so a service loop can end and clean up."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    return stop


async def is_alive(redis: Redis, service: str) -> bool:
    return bool(await redis.exists(alive_key(service)))


async def is_serving(redis: Redis, service: str, poll_s: float = 0.05) -> bool:
    """Whether an instance of `service` is alive *now*: its alive key exists and is being
    renewed. A process killed without cleaning up (SIGKILL, a crash) leaves its key for up to
    SERVICE_TTL_S, and a command that trusted it would wait for a service that is gone; one
    renewal (the key's TTL going up) proves a live writer. Immediate when there is no key;
    about a heartbeat (~1 s) with a live service; until the key expires with a dead one."""
    key = alive_key(service)
    last = await redis.pttl(key)
    if last == -2:
        return False
    if last == -1:
        return True  # no TTL: set by hand, not a heartbeat; take it at its word
    loop = asyncio.get_running_loop()
    until = loop.time() + SERVICE_TTL_S + 0.5
    while loop.time() < until:
        await asyncio.sleep(poll_s)
        ttl = await redis.pttl(key)
        if ttl < 0:
            return ttl == -1
        if ttl > last:
            return True
        last = ttl
    return False
