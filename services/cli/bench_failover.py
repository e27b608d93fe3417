"""`hexlog bench failover [--cluster N] --kills K`: games played through the real service while
the current primary of a shard holding games is killed K times (kill -9), on an embedded set of
the benchmark's own: a primary, a replica and three Sentinels, or with `--cluster N` N masters
with a replica each. The dead node is started again as a replica (as `hexlog up` does) and the
next kill waits until the set is whole again: every kill is survivable, as one lost server is.

Three phases, one rules service at a time: commands/s with `--durability local`, then with
`replica` (no kills: what waiting for the replica costs), then the kills under `replica`, with
every acknowledged command written down (failover_load.py). The checker then compares the
acknowledgements with the logs: `acked_lost`, `doubled`, `gaps`, `audit_failures`,
`unfinished` (all must be 0), and for each kill the unavailability: from the kill to the first
acknowledged command sent after it in the partitions the killed primary served.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

from services.cli import interrupt
from services.cli.failover_load import Journal, Players, check, summary, unavailability
from services.cli.options import data_dir
from services.cli.server import say
from services.client import Client
from services.projections.projector import BENCH_STATUS
from services.runtime import processes
from services.runtime.scratch import scratch_folder
from services.store import EventStore
from services.store.connect import connect
from services.store.durability import ENV, Durability, Mode
from services.store.keys import PARTITIONS, partition, tag

MEASURED: tuple[Mode, ...] = ("local", "replica")
WARM_UP_S = 3.0
HEALTHY_WITHIN_S = 120.0
FINISH_WITHIN_S = 600.0


class Target(Protocol):
    """A replicated set the benchmark can kill primaries of."""

    url: str

    def healthy(self) -> bool: ...
    def revive(self) -> list[str]: ...
    def kill(self, playing: set[int]) -> tuple[int, set[int]]: ...
    def replaced(self, port: int) -> bool: ...


class SentinelTarget:
    def __init__(self, folder: Path) -> None:
        from services.runtime.ha import EmbeddedHA

        self.ha = EmbeddedHA(folder).start()
        self.url = self.ha.url

    def healthy(self) -> bool:
        return self.ha.healthy()

    def revive(self) -> list[str]:
        return self.ha.revive()

    def kill(self, playing: set[int]) -> tuple[int, set[int]]:
        return self.ha.kill_primary(), set(range(PARTITIONS))  # one shard: every partition

    def replaced(self, port: int) -> bool:
        now = self.ha.primary_port()
        return now is not None and now != port

    def stop(self) -> None:
        self.ha.stop()


class ClusterTarget:
    def __init__(self, folder: Path, masters: int) -> None:
        from services.runtime.cluster import EmbeddedCluster

        self.cluster = EmbeddedCluster(folder, masters, replicas=1, appendfsync="always").start()
        self.cluster.secure()
        self.url = self.cluster.url
        self.kills: dict[frozenset[int], int] = {}  # kills so far of each shard (its partitions)

    def healthy(self) -> bool:
        return self.cluster.healthy()

    def revive(self) -> list[str]:
        return self.cluster.revive()

    def stop(self) -> None:
        self.cluster.stop()

    def kill(self, playing: set[int]) -> tuple[int, set[int]]:
        """The master of a shard with games in flight, the shards taken in turn."""
        served = partitions_by_master(self.cluster.view())
        holding = [p for p in served if served[p] & playing] or list(served)
        port = min(holding, key=lambda p: (self.kills.get(frozenset(served[p]), 0), p))
        self.kills[frozenset(served[port])] = self.kills.get(frozenset(served[port]), 0) + 1
        self.cluster.kill_master(port)
        return port, served[port]

    def replaced(self, port: int) -> bool:
        return port not in partitions_by_master(self.cluster.view())


def partitions_by_master(view: list[dict[str, Any]]) -> dict[int, set[int]]:
    from redis.crc import key_slot

    slots = {p: key_slot(f"{tag(p)}:x".encode()) for p in range(PARTITIONS)}
    served: dict[int, set[int]] = {}
    for node in view:
        if "master" not in node["flags"]:
            continue
        for text in node["slots"]:
            if text.startswith("["):  # a slot being migrated
                continue
            low, _, high = text.partition("-")
            served.setdefault(node["port"], set()).update(
                p for p, s in slots.items() if int(low) <= s <= int(high or low))
    return served


def run(args: argparse.Namespace) -> int:
    with target(args) as (where, nodes):
        reviving = threading.Event()
        thread = threading.Thread(target=_keep_reviving, args=(nodes, reviving), daemon=True)
        thread.start()
        try:
            result = interrupt.run(bench(nodes, args))
        finally:
            reviving.set()
            thread.join(5)
    result["topology"] = where
    print(json.dumps(result) if args.json else format_result(result))
    return 0 if result["passed"] else 1


@contextlib.contextmanager
def target(args: argparse.Namespace) -> Iterator[tuple[str, Any]]:
    """The benchmark's own replicated set, in a folder of its own (removed after)."""
    with scratch_folder(data_dir(args), "bench-failover-") as folder:
        processes.use_log_dir(folder / "logs")
        nodes: Any = None
        try:
            if args.cluster:
                where = f"a {args.cluster}-master cluster with a replica each"
                nodes = ClusterTarget(folder / "cluster", args.cluster)
            else:
                where = "a primary, a replica and three Sentinels"
                nodes = SentinelTarget(folder / "ha")
            say(f"bench failover: on {where} of its own in {folder} (removed after)")
            yield where, nodes
        finally:
            if nodes is not None:
                nodes.stop()


def _keep_reviving(nodes: Target, done: threading.Event) -> None:
    """What `hexlog up` does: start a dead node again (as a replica) once it was replaced."""
    while not done.wait(0.1):
        with contextlib.suppress(Exception):  # tried again next time
            for line in nodes.revive():
                say(f"bench failover: {line}")


async def bench(nodes: Target, args: argparse.Namespace) -> dict[str, Any]:
    redis = connect(nodes.url)
    client = Client(redis)
    journal = Journal()
    rates: dict[str, float] = {}
    appends: dict[str, float] = {}
    kills: list[tuple[float, set[int]]] = []
    replacements: list[float] = []  # from a kill to its replica serving as primary
    try:
        for mode in MEASURED:
            appends[mode] = await append_rate(redis, mode, args.concurrency)
            with rules_service(nodes.url, mode):
                await client.wait_for_rules(60)
                rates[mode] = await measure(client, journal, mode, args)
        with rules_service(nodes.url, "replica"):
            await client.wait_for_rules(60)
            players = Players(client, journal, "kills", args.concurrency)
            load = asyncio.create_task(players.keep_playing())
            try:
                for k in range(args.kills):
                    await wait_healthy(nodes)
                    await asyncio.sleep(args.kill_every)
                    playing = {partition(g) for g in journal.games[-args.concurrency:]}
                    port, served = await asyncio.to_thread(nodes.kill, playing)
                    killed = time.monotonic()
                    kills.append((killed, served))
                    replaced = await wait_replaced(nodes, port) - killed
                    whole = await wait_healthy(nodes) - killed
                    replacements.append(replaced)
                    say(f"bench failover: kill {k + 1}/{args.kills}: the primary on port {port}; "
                        f"replaced after {replaced:.1f} s, a replica again after {whole:.1f} s "
                        f"(acknowledged so far: {len(journal.acks)})")
                await wait_healthy(nodes)
            finally:
                players.stop.set()
            await asyncio.wait_for(load, FINISH_WITHIN_S)
        say(f"bench failover: checking {len(journal.games)} games against "
            f"{len(journal.acks)} acknowledged commands")
        verdict = await check(redis, journal)
    finally:
        await redis.aclose()
    unavailable = [u for t, served in kills
                   if (u := unavailability(journal, t, served)) is not None]
    result: dict[str, Any] = {
        "kills": len(kills), "games": len(journal.games), "acked": verdict.acked,
        "acked_lost": len(verdict.acked_lost), "doubled": len(verdict.doubled),
        "gaps": len(verdict.gaps), "audit_failures": len(verdict.audit_failures),
        "unfinished": len(verdict.unfinished), "refused": len(journal.refused),
        "resent": journal.resent, **summary(unavailable, journal),
        "unavailable_s": [round(u, 3) for u in unavailable],
        "replaced_s": [round(r, 3) for r in replacements],
        "commands_per_s_local": rates["local"], "commands_per_s_replica": rates["replica"],
        "appends_per_s_local": appends["local"], "appends_per_s_replica": appends["replica"],
        "concurrency": args.concurrency,
        "problems": (verdict.acked_lost + verdict.doubled + verdict.gaps
                     + verdict.audit_failures + verdict.unfinished + journal.refused)[:20],
    }
    result["passed"] = not result["problems"] and len(unavailable) == len(kills)
    return result


async def measure(client: Client, journal: Journal, mode: str,
                  args: argparse.Namespace) -> float:
    """Acknowledged commands/s over `--phase-s` seconds of `--concurrency` games at once
    (after a warm-up); the games in flight then finish."""
    players = Players(client, journal, mode, args.concurrency)
    load = asyncio.create_task(players.keep_playing())
    await asyncio.sleep(WARM_UP_S)
    start = time.monotonic()
    await asyncio.sleep(args.phase_s)
    rate = journal.commands_between(start, time.monotonic()) / float(args.phase_s)
    say(f"bench failover: durability {mode}: {rate:.0f} acknowledged commands/s")
    players.stop.set()
    await asyncio.wait_for(load, FINISH_WITHIN_S)
    return rate


async def append_rate(redis: Any, mode: Mode, writers: int, seconds: float = 3.0) -> float:
    """The store alone, as the rules service drives it (appends of one loop turn pipelined
    together, and under `replica` one WAIT after them): `writers` games appended to at once,
    one small event per append. What waiting for the replica costs the server, without the
    players' own cost."""
    store = EventStore(redis, coalesce_appends=True, durability=Durability(mode))
    payload = b'{"event":{"type":"Ceiling"}}'
    count = 0
    stop = time.monotonic() + seconds
    run = f"ceiling-{mode}-{time.time_ns()}"

    async def writer(i: int) -> None:
        nonlocal count
        game = f"{run}-{i}"
        await store.create_game(game, payload, {"status": BENCH_STATUS})
        version = 1
        while time.monotonic() < stop:
            version = (await store.append(game, version, f"c{version}", [payload],
                                          scope="svc")).version
            count += 1

    start = time.monotonic()
    await asyncio.gather(*(writer(i) for i in range(writers)))
    rate = count / (time.monotonic() - start)
    say(f"bench failover: durability {mode}: {rate:.0f} appends/s by the store alone")
    return rate


@contextlib.contextmanager
def rules_service(url: str, mode: str) -> Iterator[None]:
    """A `hexlog serve rules` of its own with HEXLOG_DURABILITY=`mode`."""
    before = os.environ.get(ENV)
    os.environ[ENV] = mode
    try:
        proc = processes.spawn(processes.hexlog_command("serve", "rules"), url)
    finally:
        if before is None:
            os.environ.pop(ENV, None)
        else:
            os.environ[ENV] = before
    try:
        yield
    finally:
        processes.stop([proc])


async def wait_healthy(nodes: Target) -> float:
    """Until the set is whole again (a primary, its replicas in sync), or fail the run; when."""
    deadline = time.monotonic() + HEALTHY_WITHIN_S
    while not await asyncio.to_thread(nodes.healthy):
        if time.monotonic() > deadline:
            raise RuntimeError(f"the set was not whole again within {HEALTHY_WITHIN_S:.0f} s")
        await asyncio.sleep(0.1)
    return time.monotonic()


async def wait_replaced(nodes: Target, port: int) -> float:
    """Until another node serves as primary in place of the one on `port`; when."""
    deadline = time.monotonic() + HEALTHY_WITHIN_S
    while not await asyncio.to_thread(nodes.replaced, port):
        if time.monotonic() > deadline:
            raise RuntimeError(f"no replica took over from port {port} within "
                               f"{HEALTHY_WITHIN_S:.0f} s")
        await asyncio.sleep(0.05)
    return time.monotonic()


def format_result(r: dict[str, Any]) -> str:
    unavailable = ", ".join(f"{u:.1f}" for u in r["unavailable_s"])
    lines = [
        f"failover benchmark: {r['kills']} primaries killed on {r['topology']}; {r['games']} "
        f"games, {r['concurrency']} at once",
        f"  acknowledged commands   {r['acked']:>8}",
        f"  acknowledged, lost      {r['acked_lost']:>8}",
        f"  doubled                 {r['doubled']:>8}",
        f"  logs with a gap         {r['gaps']:>8}",
        f"  games failing the audit {r['audit_failures']:>8}",
        f"  games not finished      {r['unfinished']:>8}",
        f"  unavailable after a kill: max {r['max_unavailable_s']:.1f} s, p50 "
        f"{r['p50_unavailable_s']:.1f} s ({unavailable})",
        f"  primary replaced after: {', '.join(f'{x:.1f}' for x in r['replaced_s'])} s",
        f"  longest wait of one command: {r['max_command_wait_s']:.1f} s ({r['resent']} sent "
        "again, unanswered)",
        f"  commands/s: {r['commands_per_s_local']:.0f} acknowledged by the primary, "
        f"{r['commands_per_s_replica']:.0f} by a replica too",
        f"  appends/s (the store alone): {r['appends_per_s_local']:.0f} acknowledged by the "
        f"primary, {r['appends_per_s_replica']:.0f} by a replica too",
    ]
    lines += [f"  problem: {p}" for p in r["problems"]]
    return "\n".join(lines) + ("" if r["passed"] else "\nFAILED")
