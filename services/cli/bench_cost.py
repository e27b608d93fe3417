"""What a game costs, as `hexlog bench e2e` reports it: CPU seconds per 1,000 commands and
resident memory for each kind of process (rules, bot workers, projections, Valkey, the
benchmark's own driver), and the Valkey memory a live and a finished game hold.

CPU is read from the kernel's per-process accounting (psutil reads /proc/<pid>/stat: user and
system time, with the time of children that were waited for), for the service processes and
every process below them; Valkey's from its own `INFO cpu` (main and forked children), which
also holds for a server on another machine. Memory per game comes from `MEMORY USAGE` of a
game's keys, split into what stays for good (no expiry) and what expires (secrets, outcomes);
the shared streams (commands, prompts, feeds) are trimmed by retention (services/rules/
retention.py) and counted apart.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import statistics
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import psutil
from redis.asyncio import Redis

from services.cli.bench import quantile
from services.projections.projector import game_key
from services.protocol import prompts_key
from services.runtime import allocator
from services.store.connect import is_cluster
from services.store.keys import PARTITIONS, commands_key, feed_key, game_keys
from services.tasks import cancel_and_wait

KINDS = ("rules", "bots", "projections", "valkey", "driver")
MB = 1024 * 1024


@dataclass(frozen=True)
class Usage:
    cpu_s: float  # user + system, children included
    rss: int  # bytes, the process and every process below it


def _tree(pid: int) -> list[psutil.Process]:
    try:
        top = psutil.Process(pid)
        return [top, *top.children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def process_usage(pids: Iterable[int], children: bool = True) -> Usage:
    """CPU and RSS of these processes and every process below them (a process that has gone
    counts nothing; its waited-for children are in its parent's children times); with
    `children=False`, of these processes alone."""
    cpu, rss = 0.0, 0
    for pid in pids:
        for i, proc in enumerate(_tree(pid) if children else _tree(pid)[:1]):
            with contextlib.suppress(psutil.NoSuchProcess, psutil.AccessDenied):
                t = proc.cpu_times()
                cpu += t.user + t.system
                if i == 0 and children:  # a live child's time is counted below: only the
                    # top's waited-for ones
                    cpu += t.children_user + t.children_system
                rss += proc.memory_info().rss
    return Usage(cpu, rss)


async def valkey_usage(redis: Redis) -> tuple[Usage, int]:
    """Valkey's CPU (main and children) and RSS, and its `used_memory` (what its data holds,
    without the allocator's slack)."""
    cpu = await redis.info("cpu")
    mem = await redis.info("memory")
    seconds = sum(float(cpu.get(k, 0.0)) for k in (
        "used_cpu_sys", "used_cpu_user", "used_cpu_sys_children", "used_cpu_user_children"))
    return Usage(seconds, int(mem.get("used_memory_rss", 0))), int(mem.get("used_memory", 0))


async def valkey_allocator(redis: Redis) -> str:
    """The allocator the server uses (services/runtime/allocator.py): 'jemalloc' or 'libc' for
    one on this machine, 'unknown' for another's or a Cluster (whose INFO answers per node)."""
    server = await redis.info("server")
    pid = server.get("process_id") if isinstance(server, dict) else None
    return allocator.in_use(int(pid)) if isinstance(pid, int) else "unknown"


@dataclass(frozen=True)
class LoopReading:
    """Valkey's event loop so far (`INFO stats`): its cycles, the µs it was busy (a cycle's
    commands, its socket calls, its AOF write and, under `appendfsync always`, the fsync every
    cycle that wrote anything waits for) and the µs in commands; and when it was read."""

    cycles: int
    busy_us: int
    commands_us: int
    at: float


async def loop_reading(redis: Redis) -> LoopReading | None:
    """None where the reply is not one server's (a Cluster client answers for every node)."""
    stats = await redis.info("stats")
    try:
        return LoopReading(int(stats["eventloop_cycles"]), int(stats["eventloop_duration_sum"]),
                           int(stats["eventloop_duration_cmd_sum"]), time.monotonic())
    except (KeyError, TypeError, ValueError):
        return None


def loop_between(a: LoopReading | None, b: LoopReading | None,
                 done: float) -> dict[str, float] | None:
    """Valkey's loop between two readings, for `done` commands (or appends) in between: its
    cycles a second, what each carried, and the share of the time it was busy. One fsync per
    cycle that wrote: the more a cycle carries, the fewer fsyncs per command."""
    if a is None or b is None or b.cycles <= a.cycles or b.at <= a.at:
        return None
    cycles, busy = b.cycles - a.cycles, b.busy_us - a.busy_us
    return {"cycles_per_s": cycles / (b.at - a.at), "per_cycle": done / cycles,
            "busy": busy / 1e6 / (b.at - a.at),
            "in_commands": (b.commands_us - a.commands_us) / busy if busy else 0.0}


class RoundTrips:
    """A PING every `every_s` while the games run: how long one visit to Valkey takes a service
    under the run's load. A reply leaves only once the cycle that read the request has written
    the AOF (and fsynced it, under `appendfsync always`), so each of a move's two writes (the
    bot's command, the rules service's append) waits about this long; the same PINGs before
    the games say what the visit costs with the server idle. Not on a Cluster (a PING there
    goes to every node)."""

    def __init__(self, redis: Redis, every_s: float = 0.01) -> None:
        self.redis = redis
        self.every_s = every_s
        self.before: list[float] = []
        self.during: list[float] = []
        self.task: asyncio.Task[None] | None = None

    async def ping(self, into: list[float]) -> None:
        began = time.perf_counter()
        await self.redis.ping()
        into.append((time.perf_counter() - began) * 1000)

    async def begin(self, idle_pings: int = 50) -> None:
        if is_cluster(self.redis):
            return
        for _ in range(idle_pings):
            await self.ping(self.before)
        self.task = asyncio.create_task(self.probe())

    async def probe(self) -> None:
        while True:
            try:
                await self.ping(self.during)
            except Exception:  # (a measurement, not the run: a lost connection ends it)
                return
            await asyncio.sleep(self.every_s)

    async def finish(self) -> None:
        if self.task is not None:
            await cancel_and_wait([self.task])

    def report(self) -> dict[str, Any]:
        if not self.before or not self.during:
            return {}
        return {"round_trip_ms": {
            "idle_p50": statistics.median(self.before),
            "p50": statistics.median(self.during),
            "p99": quantile(self.during, 0.99),
            "samples": len(self.during)}}


class Meter:
    """Readings at the start and the end of the games: CPU spent in between per kind, and
    each kind's RSS at the end; a round trip's time throughout."""

    def __init__(self, redis: Redis, pids: Mapping[str, Sequence[int]]) -> None:
        self.redis = redis
        self.pids = {**pids, "driver": [os.getpid()]}
        self.start: dict[str, Usage] = {}
        self.end: dict[str, Usage] = {}
        self.calls_start: dict[str, tuple[int, int]] = {}
        self.calls_end: dict[str, tuple[int, int]] = {}
        self.loop_start: LoopReading | None = None
        self.loop_end: LoopReading | None = None
        self.trips = RoundTrips(redis)

    async def calls(self) -> dict[str, tuple[int, int]]:
        """Valkey's calls so far and the µs spent in them, per command (`INFO commandstats`)."""
        stats = await self.redis.info("commandstats")
        return {name.removeprefix("cmdstat_"): (int(v.get("calls", 0)), int(v.get("usec", 0)))
                for name, v in stats.items() if isinstance(v, dict)}

    async def read(self) -> dict[str, Usage]:
        # The driver (this process) started the services and the embedded Valkey: they are
        # its children, counted apart.
        now = {kind: process_usage(pids, children=kind != "driver")
               for kind, pids in self.pids.items()}
        now["valkey"], _ = await valkey_usage(self.redis)
        return now

    async def begin(self) -> None:
        await self.trips.begin()
        self.calls_start = await self.calls()
        self.start = await self.read()
        self.loop_start = await loop_reading(self.redis)

    async def finish(self) -> None:
        await self.trips.finish()
        self.loop_end = await loop_reading(self.redis)
        self.end = await self.read()
        self.calls_end = await self.calls()

    def report(self, commands: int) -> dict[str, Any]:
        per = 1000 / commands if commands else 0.0
        cpu = {k: (self.end[k].cpu_s - self.start[k].cpu_s) * per for k in self.end}
        return {
            "cpu_s_per_1000_commands": cpu,
            "cpu_s_per_1000_commands_rules_and_bots": cpu.get("rules", 0.0) + cpu.get("bots", 0.0),
            "rss_mb": {k: u.rss / MB for k, u in self.end.items()},
            "processes": {k: len(v) for k, v in self.pids.items()},
            # Valkey calls per command, the most frequent first (every client: the driver's
            # polling of game status is among them, `hget`)
            "valkey_calls_per_command": self._spent(0, per / 1000),
            # µs Valkey spent inside each kind of call, per command, the costliest first (a
            # script's time includes the commands it runs, which count again on their own)
            "valkey_us_per_command": self._spent(1, per / 1000),
            # Valkey's event loop over the games (absent on a Cluster): its cycles a second,
            # the commands each carried, its busy share and the commands' share of that
            **({"valkey_loop": loop} if (loop := loop_between(
                self.loop_start, self.loop_end, commands)) else {}),
            # a PING's round trip during the games and before them (absent on a Cluster)
            **self.trips.report(),
        }

    def _spent(self, field: int, scale: float) -> dict[str, float]:
        spent = {name: (end[field] - self.calls_start.get(name, (0, 0))[field]) * scale
                 for name, end in self.calls_end.items()}
        return dict(sorted(((name, v) for name, v in spent.items() if v > 0),
                           key=lambda item: -item[1]))


def keys_of(game_id: str) -> list[str]:
    k = game_keys(game_id)
    return [k.ev, k.meta, k.secret, k.outcomes, k.snap, k.rulings, k.prompts, k.refused,
            game_key(game_id)]


async def game_bytes(redis: Redis, games: Sequence[str]) -> tuple[float, float]:
    """The mean bytes of these games' keys: (those that stay for good, all of them now)."""
    if not games:
        return 0.0, 0.0
    pipe = redis.pipeline(transaction=False)
    keys = [key for g in games for key in keys_of(g)]
    for key in keys:
        pipe.memory_usage(key, samples=0)
        pipe.ttl(key)
    replies = await pipe.execute()
    kept = every = 0
    for size, ttl in zip(replies[0::2], replies[1::2], strict=True):
        if size is None:
            continue
        every += int(size)
        if int(ttl) == -1:
            kept += int(size)
    return kept / len(games), every / len(games)


async def stream_bytes(redis: Redis, controllers: Sequence[str]) -> int:
    """The bytes of the shared streams (commands, prompts, feeds): what retention trims."""
    keys = [feed_key(p) for p in range(PARTITIONS)]
    pools = [c for c in controllers if c.startswith("bot:")]
    keys += [commands_key(p, s) for p in range(PARTITIONS) for s in ("", *pools)]
    keys += [prompts_key(p, c) for p in range(PARTITIONS) for c in controllers]
    pipe = redis.pipeline(transaction=False)
    for key in keys:
        pipe.memory_usage(key, samples=0)
    return sum(int(size or 0) for size in await pipe.execute())


def format_cost(r: Mapping[str, Any]) -> list[str]:
    cpu, rss = r["cpu_s_per_1000_commands"], r["rss_mb"]
    lines = ["  CPU s per 1,000 commands, and RSS at the end (children included):"]
    for kind in KINDS:
        if kind in cpu:
            n = r["processes"].get(kind, 1)
            lines.append(f"    {kind:<12} {cpu[kind]:8.3f} s  {rss[kind]:8.1f} MB"
                         + (f"  ({n} processes)" if n > 1 else "")
                         + (f"  (malloc: {r['valkey_allocator']})"
                            if kind == "valkey" and "valkey_allocator" in r else ""))
    lines.append(f"    rules + bots {r['cpu_s_per_1000_commands_rules_and_bots']:8.3f} s")
    if loop := r.get("valkey_loop"):
        ceiling = r.get("ceiling_loop")
        lines.append(f"  Valkey's loop: {loop['cycles_per_s']:,.0f} cycles/s, "
                     f"{loop['per_cycle']:.1f} commands a cycle"
                     + (f" (the ceiling: {ceiling['per_cycle']:.1f} appends a cycle)"
                        if ceiling else "")
                     + f", busy {loop['busy']:.0%} of the time, {loop['in_commands']:.0%} of "
                     "that in commands (an fsync per cycle that wrote)")
    if trip := r.get("round_trip_ms"):
        lines.append(f"  a round trip to Valkey: p50 {trip['p50']:.2f} ms, p99 {trip['p99']:.2f} ms "
                     f"during the games ({trip['idle_p50']:.2f} ms idle); a move waits for two "
                     "(the bot's command, the append)")
    lines.append(f"  Valkey per live game      {r['valkey_kb_per_live_game']:8.1f} KB "
                 "(its keys, mid-game)")
    lines.append(f"  Valkey per finished game  {r['valkey_kb_per_finished_game']:8.1f} KB "
                 f"after retention; {r['valkey_kb_per_finished_game_until_expiry']:.1f} KB until "
                 "its secrets and outcomes expire")
    lines.append(f"  shared streams at the end {r['valkey_stream_kb_per_game']:8.1f} KB per game "
                 "(trimmed by retention)")
    if r.get("idle_games"):
        lines.append(f"  idle live games {r['idle_games']:>9,}: Valkey "
                     f"{r['valkey_kb_per_idle_game']:.1f} KB each, rules service "
                     f"{r['rules_kb_per_idle_game']:.1f} KB each")
    return lines
