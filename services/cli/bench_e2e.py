"""`hexlog bench e2e`: games with random bots through the real service (Redis, rules service
and bot workers as separate processes), and the rates a user feels: accepted commands per
second, games per minute, and command→event latency (from the bot's XADD to the commit of the
events, measured by the rules service).

Benchmark games never mix with the user's: without REDIS_URL the benchmark runs its own
embedded Valkey in a folder of its own (a temporary one under the data dir, removed after);
with REDIS_URL it deletes every key of the games it made (`bench-*`, and the `ceiling-*`
games of the raw append measurement) when it ends.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from redis.asyncio import Redis

from events.requests import CreateGame
from services.cli import interrupt
from services.cli.errors import CliError, UsageError
from services.cli.options import data_dir, modules_from
from services.cli.progress import CountProgress
from services.cli.server import redis_problem, say
from services.client import Client, new_id
from services.projections.projector import BENCH_STATUS, game_key
from services.protocol import latency_key
from services.runtime import processes
from services.runtime.shared import open_server
from services.runtime.users import pools_url, role_url
from services.store import EventStore
from services.store.connect import connect
from services.store.keys import GAMES_INDEX, PARTITIONS, feed_key, game_keys


def run(args: argparse.Namespace) -> int:
    if args.metrics_cost:
        return metrics_cost(args)
    result = measure(args)
    print(json.dumps(result) if args.json else format_result(result))
    return 0


def measure(args: argparse.Namespace, metrics_on: bool = True) -> dict[str, Any]:
    """One run: the services started with metrics counted (the default) or not
    (HEXLOG_METRICS=0 in their environment)."""
    made: list[str] = []
    before = os.environ.get("HEXLOG_METRICS")
    os.environ["HEXLOG_METRICS"] = "1" if metrics_on else "0"  # the children inherit it
    try:
        with bench_server(args) as url:
            procs = [processes.spawn(processes.hexlog_command("serve", "rules"),
                                     role_url(url, "rules")) for _ in range(args.rules_workers)]
            procs.append(processes.spawn(processes.hexlog_command(
                "serve", "bots", "--bots", "random"), pools_url(url, ["random"])))
            try:
                return interrupt.run(bench(url, args, made))
            finally:
                processes.stop(procs)
                if made:
                    asyncio.run(forget_games(url, made))
    finally:
        if before is None:
            os.environ.pop("HEXLOG_METRICS", None)
        else:
            os.environ["HEXLOG_METRICS"] = before


def metrics_cost(args: argparse.Namespace) -> int:
    """What counting metrics costs: rounds of the same run with and without, alternated (a
    machine's drift falls on both), each side's median commands/s and the difference."""
    rates: dict[bool, list[float]] = {True: [], False: []}
    for i in range(args.metrics_cost):
        for metrics_on in (True, False) if i % 2 == 0 else (False, True):
            say(f"round {i + 1} of {args.metrics_cost}, metrics {'on' if metrics_on else 'off'}")
            rates[metrics_on].append(measure(args, metrics_on)["commands_per_s"])
    on, off = statistics.median(rates[True]), statistics.median(rates[False])
    result = {"rounds": args.metrics_cost, "commands_per_s_with_metrics": rates[True],
              "commands_per_s_without": rates[False], "median_with": on, "median_without": off,
              "cost": (off - on) / off if off else 0.0}
    print(json.dumps(result) if args.json else
          f"metrics cost: {on:.0f} commands/s with, {off:.0f} without (medians of "
          f"{args.metrics_cost} rounds each, alternated): {result['cost'] * 100:+.1f}%")
    return 0


@contextlib.contextmanager
def bench_server(args: argparse.Namespace) -> Iterator[str]:
    """REDIS_URL, or an embedded Valkey (or with --cluster, a cluster) of the benchmark's own
    (never the user's games)."""
    if getattr(args, "cluster", None):
        with bench_cluster(args.cluster) as url:
            yield url
        return
    own = args.data_dir is None
    root = data_dir(argparse.Namespace())
    if own:
        root.mkdir(parents=True, exist_ok=True)
        folder = Path(tempfile.mkdtemp(prefix="bench-", dir=root))
    else:
        folder = Path(args.data_dir).expanduser().resolve()
    processes.use_log_dir(folder / "logs" if not own else root / "logs")
    try:
        with open_server(folder, "bench", say=say) as server:
            if server.how == "attached":
                raise UsageError(f"--data-dir {folder} is in use by another server; the "
                                 "benchmark needs a folder of its own")
            if server.how == "env" and (problem := redis_problem(server.url)):
                raise CliError(f"cannot reach Redis (REDIS_URL): {problem}")
            where = ("REDIS_URL (its games are deleted after)" if server.how == "env"
                     else f"a Valkey of its own in {folder}" + (" (removed after)" if own else ""))
            say(f"bench e2e: on {where}")
            yield server.url
    finally:
        if own:
            shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def bench_cluster(masters: int) -> Iterator[str]:
    from services.runtime.cluster import EmbeddedCluster

    root = data_dir(argparse.Namespace())
    root.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="bench-cluster-", dir=root))
    processes.use_log_dir(root / "logs")
    try:
        with EmbeddedCluster(folder, masters) as cluster:
            say(f"bench e2e: on an embedded {masters}-master cluster in {folder} (removed after)")
            yield cluster.url
    finally:
        shutil.rmtree(folder, ignore_errors=True)


async def forget_games(url: str, games: list[str]) -> None:
    """Delete every key of the benchmark's games from a server the user shares with it."""
    redis = connect(url)
    try:
        for game in games:
            k = game_keys(game)
            await redis.delete(k.ev, k.meta, k.secret, k.outcomes, k.snap, k.rulings, k.prompts,
                               game_key(game))
            await redis.zrem(GAMES_INDEX, game)
    finally:
        await redis.aclose()


async def feed_total(redis: Redis) -> int:
    pipe = redis.pipeline(transaction=False)
    for p in range(PARTITIONS):
        pipe.xlen(feed_key(p))
    return sum(await pipe.execute())


TYPICAL_EVENTS = 1150  # a random base game's events (measured: 1,164 over 8 games), until the run's first game says better


async def bench(url: str, args: argparse.Namespace, made: list[str]) -> dict[str, Any]:
    redis = connect(url)
    client = Client(redis)
    await client.wait_for_rules()
    await redis.delete(latency_key())
    feed_before = await feed_total(redis)
    sem = asyncio.Semaphore(args.concurrency)
    done = 0
    versions: list[int] = []
    start = time.perf_counter()

    running: list[str] = []

    async def one(i: int, shown: CountProgress) -> None:
        nonlocal done
        async with sem:
            game_id = new_id("bench")
            made.append(game_id)
            running.append(game_id)
            await client.create_game(CreateGame(
                command_id=new_id("create"), game_id=game_id, seats=4,
                modules=modules_from(args), controllers=("bot:random",) * 4,
                seed=hashlib.sha256(f"e2e:{args.seed}:{i}".encode()).hexdigest(), turn_limit=1000,
                deadline_ms=10_000,
            ))
            meta_key = game_keys(game_id).meta
            while (await redis.hget(meta_key, "status")) != b"finished":
                await asyncio.sleep(0.05)
            versions.append(int(await redis.hget(meta_key, "version") or 0))
            running.remove(game_id)
            done += 1
            shown.update(done)

    async def ticker(shown: CountProgress) -> None:
        """Every second: the events so far and what is left, at this run's pace (the games
        run together, so the first one ends only near the end)."""
        while True:
            await asyncio.sleep(1.0)
            pipe = redis.pipeline(transaction=False)
            for game_id in running:
                pipe.hget(game_keys(game_id).meta, "version")
            now = sum(versions) + sum(int(v or 0) for v in await pipe.execute())
            per_game = statistics.mean(versions) if versions else TYPICAL_EVENTS
            elapsed = time.perf_counter() - start
            left = max(0.0, args.games * per_game - now) * elapsed / now if now else 0.0
            shown.update(done, extra=f"{now} events ({now / elapsed:.0f}/s), about "
                                     f"{left:.0f} s left")

    with CountProgress(args.games, lines=not sys.stderr.isatty()) as shown:
        tick = asyncio.create_task(ticker(shown))
        try:
            await asyncio.gather(*(one(i, shown) for i in range(args.games)))
        finally:
            tick.cancel()
    elapsed = time.perf_counter() - start
    commands = await feed_total(redis) - feed_before - args.games  # minus the creations
    await asyncio.sleep(1.2)  # the rules service writes its latency samples once a second
    lat = sorted(int(x) / 1000 for x in await redis.lrange(latency_key(), 0, -1))
    ceiling = await lua_append_rate(redis, clients=args.concurrency, made=made)
    await redis.aclose()
    return {
        "games": args.games,
        "concurrency": args.concurrency,
        "rules_workers": args.rules_workers,
        "cluster_masters": getattr(args, "cluster", None) or 0,
        "commands": commands,
        "events": sum(versions),
        "seconds": elapsed,
        "commands_per_s": commands / elapsed,
        "games_per_min": args.games / elapsed * 60,
        "latency_p50_ms": statistics.median(lat) if lat else 0.0,
        "latency_p99_ms": lat[min(len(lat) - 1, int(len(lat) * 0.99))] if lat else 0.0,
        "latency_samples": len(lat),
        "lua_append_per_s": ceiling,
    }


async def lua_append_rate(redis: Redis, clients: int, made: list[str],
                          seconds: float = 3.0) -> float:
    """The ceiling: the same append script with no rules, no bots — `clients` concurrent
    writers, each appending one small event at a time to its own game."""
    store = EventStore(redis)
    payload = b'{"event":{"type":"Ceiling"}}'
    count = 0
    stop = time.perf_counter() + seconds
    run = new_id("ceiling")

    async def writer(i: int) -> None:
        nonlocal count
        game = f"{run}-{i}"
        made.append(game)
        await store.create_game(game, payload, {"status": BENCH_STATUS})
        version = 1
        while time.perf_counter() < stop:
            result = await store.append(game, version, f"c{version}", [payload], scope="svc")
            version = result.version
            count += 1

    start = time.perf_counter()
    await asyncio.gather(*(writer(i) for i in range(clients)))
    return count / (time.perf_counter() - start)


def format_result(r: dict[str, Any]) -> str:
    return "\n".join([
        f"e2e benchmark: {r['games']} games, {r['concurrency']} at once, random bots, "
        f"{r['rules_workers']} rules worker(s), through Redis"
        + (f" (a {r['cluster_masters']}-master cluster)" if r.get("cluster_masters") else ""),
        f"  accepted commands/s   {r['commands_per_s']:10.0f}",
        f"  games/min             {r['games_per_min']:10.1f}",
        f"  command→event p50     {r['latency_p50_ms']:10.2f} ms",
        f"  command→event p99     {r['latency_p99_ms']:10.2f} ms",
        f"  commands, events      {r['commands']:>10} {r['events']:>10}",
        f"  ceiling: Lua appends/s {r['lua_append_per_s']:9.0f}  ({r['concurrency']} writers, "
        f"same server, no rules)",
    ])
