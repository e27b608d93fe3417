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
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from redis.asyncio import Redis

from events.requests import CreateGame
from services.cli import bench_cost, interrupt
from services.cli.bench import quantile
from services.cli.errors import CliError, UsageError
from services.cli.options import data_dir, modules_from
from services.cli.progress import CountProgress
from services.cli.server import redis_problem, say
from services.client import Client, new_id
from services.projections.projector import BENCH_STATUS, game_key
from services.protocol import latency_key
from services.rules.lifecycle import MAX_DEADLINE_MS
from services.runtime import processes
from services.runtime.scratch import scratch_folder
from services.runtime.shared import open_server
from services.runtime.users import pools_url, role_url
from services.store import EventStore
from services.store.connect import connect
from services.store.keys import GAMES_INDEX, PARTITIONS, feed_key, game_keys
from services.tasks import cancel_and_wait


def run(args: argparse.Namespace) -> int:
    if args.metrics_cost:
        return metrics_cost(args)
    levels = getattr(args, "concurrency_levels", None) or [args.concurrency]
    if len(levels) > 1 or getattr(args, "plot", None):
        return curve(args, levels)
    result = measure(args)
    print(json.dumps(result) if args.json else format_result(result))
    return 0


def curve(args: argparse.Namespace, levels: list[int]) -> int:
    """One run per level of `--concurrency` (each on a server of its own, at least as many
    games as games at once, started together and topped up as they end), a table of them, and
    with `--plot FILE` a picture."""
    if args.plot:
        plot_module()  # refused before anything runs
    points: list[dict[str, Any]] = []
    for c in levels:
        say(f"bench e2e: curve point {len(points) + 1} of {len(levels)}: {c} games at once")
        point = argparse.Namespace(**{**vars(args), "concurrency": c,
                                      "games": max(args.games, c)})
        points.append(measure(point))
    print(json.dumps({"curve": points}) if args.json else format_curve(points))
    if args.plot:
        draw(points, args.plot)
        say(f"bench e2e: the curve drawn in {args.plot}")
    return 0


CURVE_COLUMNS = (
    ("games at once", "concurrency", "{:.0f}"),
    ("games", "games", "{:.0f}"),
    ("commands/s", "commands_per_s", "{:.0f}"),
    ("p50 ms", "latency_p50_ms", "{:.1f}"),
    ("p99 ms", "latency_p99_ms", "{:.1f}"),
    ("÷ ceiling", "of_ceiling", "{:.2f}"),
    ("rules CPU", "cpu_rules", "{:.3f}"),
    ("bots CPU", "cpu_bots", "{:.3f}"),
    ("valkey CPU", "cpu_valkey", "{:.3f}"),
    ("proj. CPU", "cpu_projections", "{:.3f}"),
    ("rules MB", "rss_rules", "{:.0f}"),
    ("valkey MB", "rss_valkey", "{:.0f}"),
    ("KB/live game", "valkey_kb_per_live_game", "{:.1f}"),
    ("KB/finished", "valkey_kb_per_finished_game", "{:.1f}"),
)


def curve_row(r: dict[str, Any]) -> dict[str, float]:
    row = {k: float(v) for k, v in r.items() if isinstance(v, int | float)}
    for kind, value in r["cpu_s_per_1000_commands"].items():
        row[f"cpu_{kind}"] = value
    for kind, value in r["rss_mb"].items():
        row[f"rss_{kind}"] = value
    return row


def format_curve(points: list[dict[str, Any]]) -> str:
    """The curve as a table: a row per level; CPU in seconds per 1,000 commands."""
    rows = [curve_row(r) for r in points]
    cells = [[fmt.format(row.get(key, 0.0)) for _, key, fmt in CURVE_COLUMNS] for row in rows]
    widths = [max(len(title), *(len(c[i]) for c in cells))
              for i, (title, _, _) in enumerate(CURVE_COLUMNS)]
    line = "  ".join(title.rjust(w) for (title, _, _), w in zip(CURVE_COLUMNS, widths, strict=True))
    out = ["e2e curve: random bots through Redis; CPU in seconds per 1,000 commands", line]
    out += ["  ".join(c.rjust(w) for c, w in zip(cell, widths, strict=True)) for cell in cells]
    return "\n".join(out)


def plot_module() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise UsageError("--plot: needs matplotlib (pip install 'hexlog[plot]')") from None
    return plt


def draw(points: list[dict[str, Any]], path: str) -> None:
    """Rate, p99 and CPU per 1,000 commands against games at once (a log scale)."""
    plt = plot_module()
    rows = [curve_row(r) for r in points]
    xs = [row["concurrency"] for row in rows]
    fig, (rate, latency, cpu) = plt.subplots(3, 1, figsize=(7, 9), sharex=True)
    rate.plot(xs, [row["commands_per_s"] for row in rows], marker="o")
    rate.set_ylabel("commands/s")
    latency.plot(xs, [row["latency_p50_ms"] for row in rows], marker="o", label="p50")
    latency.plot(xs, [row["latency_p99_ms"] for row in rows], marker="o", label="p99")
    latency.set_ylabel("command→event ms")
    latency.legend()
    for kind in ("rules", "bots", "valkey", "projections"):
        cpu.plot(xs, [row.get(f"cpu_{kind}", 0.0) for row in rows], marker="o", label=kind)
    cpu.set_ylabel("CPU s per 1,000 commands")
    cpu.set_xlabel("games at once")
    cpu.set_xscale("log")
    cpu.legend()
    rate.set_title("hexlog bench e2e: the cost as games at once grow")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def measure(args: argparse.Namespace, metrics_on: bool = True) -> dict[str, Any]:
    """One run: the services started with metrics counted (the default) or not
    (HEXLOG_METRICS=0 in their environment)."""
    made: list[str] = []
    before = os.environ.get("HEXLOG_METRICS")
    os.environ["HEXLOG_METRICS"] = "1" if metrics_on else "0"  # the children inherit it
    try:
        with bench_server(args) as url:
            kinds = {
                "rules": [processes.spawn(processes.hexlog_command("serve", "rules"),
                                          role_url(url, "rules"))
                          for _ in range(args.rules_workers)],
                "bots": [processes.spawn(processes.hexlog_command(
                    "serve", "bots", "--bots", "random",
                    *(["--pace-ms", str(args.pace_ms)] if args.pace_ms else [])),
                    pools_url(url, ["random"]))],
                "projections": [processes.spawn(processes.hexlog_command(
                    "serve", "projections"), role_url(url, "projections"))],
            }
            procs = [p for group in kinds.values() for p in group]
            try:
                pids = {kind: [p.pid for p in group] for kind, group in kinds.items()}
                return interrupt.run(bench(url, args, made, pids))
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
    cpu: dict[bool, list[float]] = {True: [], False: []}  # rules + bots, s per 1,000 commands
    for i in range(args.metrics_cost):
        for metrics_on in (True, False) if i % 2 == 0 else (False, True):
            say(f"round {i + 1} of {args.metrics_cost}, metrics {'on' if metrics_on else 'off'}")
            r = measure(args, metrics_on)
            rates[metrics_on].append(r["commands_per_s"])
            cpu[metrics_on].append(r["cpu_s_per_1000_commands_rules_and_bots"])
    on, off = statistics.median(rates[True]), statistics.median(rates[False])
    cpu_on, cpu_off = statistics.median(cpu[True]), statistics.median(cpu[False])
    result = {"rounds": args.metrics_cost, "commands_per_s_with_metrics": rates[True],
              "commands_per_s_without": rates[False], "median_with": on, "median_without": off,
              "cost": (off - on) / off if off else 0.0,
              "cpu_s_per_1000_commands_with": cpu[True], "cpu_s_per_1000_commands_without":
              cpu[False], "cpu_cost": (cpu_on - cpu_off) / cpu_off if cpu_off else 0.0}
    print(json.dumps(result) if args.json else
          f"metrics cost: {on:.0f} commands/s with, {off:.0f} without (medians of "
          f"{args.metrics_cost} rounds each, alternated): {result['cost'] * 100:+.1f}%; "
          f"rules and bots CPU {cpu_on:.3f} s per 1,000 commands with, {cpu_off:.3f} "
          f"without: {result['cpu_cost'] * 100:+.1f}%")
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
    with contextlib.ExitStack() as stack:
        if own:  # removed after (and by the next benchmark if this one is killed)
            folder = stack.enter_context(scratch_folder(root, "bench-"))
        else:
            folder = Path(args.data_dir).expanduser().resolve()
        processes.use_log_dir(folder / "logs" if not own else root / "logs")
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


@contextlib.contextmanager
def bench_cluster(masters: int) -> Iterator[str]:
    from services.runtime.cluster import EmbeddedCluster

    root = data_dir(argparse.Namespace())
    with scratch_folder(root, "bench-cluster-") as folder:
        processes.use_log_dir(root / "logs")
        with EmbeddedCluster(folder, masters) as cluster:
            say(f"bench e2e: on an embedded {masters}-master cluster in {folder} (removed after)")
            yield cluster.url


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


async def bench(url: str, args: argparse.Namespace, made: list[str],
                pids: dict[str, list[int]] | None = None) -> dict[str, Any]:
    redis = connect(url)
    client = Client(redis)
    await client.wait_for_rules()
    await redis.delete(latency_key())
    idle = await idle_games(redis, client, args, made, pids or {})
    allocator_name = await bench_cost.valkey_allocator(redis)
    # The ceiling is measured before the games and again after them: one short measurement
    # moved by a fifth from one to the next on a 2-core machine; the two together, by less.
    ceiling_s = getattr(args, "ceiling_s", CEILING_S)
    loop_before, began = await bench_cost.loop_reading(redis), time.perf_counter()
    before = await lua_append_rate(redis, clients=args.concurrency, made=made, seconds=ceiling_s)
    ceiling_loop = bench_cost.loop_between(  # (the rate is over the same span: its count)
        loop_before, await bench_cost.loop_reading(redis), before * (time.perf_counter() - began))
    feed_before = await feed_total(redis)
    sem = asyncio.Semaphore(args.concurrency)
    done = 0
    versions: list[int] = []
    finished: list[str] = []
    live_bytes: list[float] = []
    meter = bench_cost.Meter(redis, pids or {})
    await meter.begin()
    start = time.perf_counter()

    running: list[str] = []
    watch = FinishWatch(redis, getattr(args, "stall_s", None) or STALL_S)

    pace_s = args.pace_ms / 1000

    async def one(i: int, shown: CountProgress) -> None:
        nonlocal done
        if pace_s and i < args.concurrency:
            # At a pace, the first games start spread over one pace, as players arrive (all
            # in the same instant, their first moves would come in one burst for a while).
            await asyncio.sleep(pace_s * i / args.concurrency)
        async with sem:
            game_id = new_id("bench")
            made.append(game_id)
            running.append(game_id)
            await client.create_game(CreateGame(
                command_id=new_id("create"), game_id=game_id, seats=4,
                modules=modules_from(args), controllers=("bot:random",) * 4,
                seed=hashlib.sha256(f"e2e:{args.seed}:{i}".encode()).hexdigest(), turn_limit=args.turn_limit,
                deadline_ms=10_000,
            ))
            versions.append(await watch.wait(game_id))
            running.remove(game_id)
            finished.append(game_id)
            done += 1
            shown.update(done)

    async def ticker(shown: CountProgress) -> None:
        """Every second: the events so far and what is left, at this run's pace (the games
        run together, so the first one ends only near the end); every few seconds, the keys of
        a few live games weighed."""
        ticks = 0
        while True:
            await asyncio.sleep(1.0)
            ticks += 1
            pipe = redis.pipeline(transaction=False)
            for game_id in running:
                pipe.hget(game_keys(game_id).meta, "version")
            now = sum(versions) + sum(int(v or 0) for v in await pipe.execute())
            per_game = statistics.mean(versions) if versions else TYPICAL_EVENTS
            elapsed = time.perf_counter() - start
            left = max(0.0, args.games * per_game - now) * elapsed / now if now else 0.0
            shown.update(done, extra=f"{now} events ({now / elapsed:.0f}/s), about "
                                     f"{left:.0f} s left")
            if ticks % 3 == 0 and running:
                live_bytes.append((await bench_cost.game_bytes(redis, running[:8]))[1])

    with CountProgress(args.games, lines=not sys.stderr.isatty()) as shown:
        tick = asyncio.create_task(ticker(shown))
        try:
            await asyncio.gather(*(one(i, shown) for i in range(args.games)))
        finally:
            await cancel_and_wait([tick])
    elapsed = time.perf_counter() - start
    await meter.finish()
    commands = await feed_total(redis) - feed_before - args.games  # minus the creations
    await asyncio.sleep(1.2)  # the rules service writes its latency samples once a second
    lat = sorted(int(x) / 1000 for x in await redis.lrange(latency_key(), 0, -1))
    if not live_bytes:  # games too short for a reading while they ran: their end, halved
        live_bytes.append((await bench_cost.game_bytes(redis, finished[:8]))[1] / 2)
    # (a sample spread over the run: the first games to end are the shortest)
    kept, until_expiry = await bench_cost.game_bytes(
        redis, finished[::max(1, len(finished) // 64)])
    streams = await bench_cost.stream_bytes(redis, ["bot:random", *(["human:bench"] if idle["idle_games"] else [])])
    after = await lua_append_rate(redis, clients=args.concurrency, made=made, seconds=ceiling_s)
    ceiling = (before + after) / 2
    await redis.aclose()
    return {
        "games": args.games,
        "concurrency": args.concurrency,
        "pace_ms": args.pace_ms,
        "turn_limit": args.turn_limit,
        "rules_workers": args.rules_workers,
        "cluster_masters": getattr(args, "cluster", None) or 0,
        "commands": commands,
        "events": sum(versions),
        "seconds": elapsed,
        "commands_per_s": commands / elapsed,
        "games_per_min": args.games / elapsed * 60,
        "latency_p50_ms": statistics.median(lat) if lat else 0.0,
        "latency_p99_ms": quantile(lat, 0.99),
        "latency_samples": len(lat),
        "lua_append_per_s": ceiling,
        "lua_append_before_per_s": before,
        "lua_append_after_per_s": after,
        "of_ceiling": commands / elapsed / ceiling if ceiling else 0.0,
        **meter.report(commands),
        "valkey_allocator": allocator_name,
        # the same for the ceiling measured before the games (its appends a cycle)
        **({"ceiling_loop": ceiling_loop} if ceiling_loop else {}),
        "valkey_kb_per_live_game": statistics.mean(live_bytes) / 1024,
        "valkey_kb_per_finished_game": kept / 1024,
        "valkey_kb_per_finished_game_until_expiry": until_expiry / 1024,
        "valkey_stream_kb_per_game": streams / 1024 / (args.games + idle["idle_games"]),
        **idle,
    }


STALL_S = 120.0  # a game with no new event for this long is stuck (a bot's deadline is 10 s)


# The driver asks after its games' ends in one pipeline per tick, at most this many games a
# second: polled one by one every 50 ms, 1,000 games at once cost the driver more CPU than the
# rules service (0.36 s per 1,000 commands) and Valkey 20,000 reads a second, on the same cores.
MAX_POLLS_PER_S = 1_000


class FinishWatch:
    """Waits for games to finish, every game of a run polled together (HMGET of status and
    version in one pipeline per tick; the tick grows with the games waited for). A game whose
    version stays the same for `stall_s` (no command and no deadline's default move: a service
    down or wedged) ends its wait with an error that says so, instead of a wait for ever."""

    def __init__(self, redis: Redis, stall_s: float = STALL_S, poll_s: float = 0.05) -> None:
        self.redis = redis
        self.stall_s = stall_s
        self.poll_s = poll_s
        # game -> (its waiter, the version last seen, when it was first seen)
        self.waiting: dict[str, tuple[asyncio.Future[int], int, float]] = {}
        self.poller: asyncio.Task[None] | None = None

    async def wait(self, game_id: str) -> int:
        """The game's last version once it has finished."""
        done: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.waiting[game_id] = (done, -1, time.monotonic())
        if self.poller is None or self.poller.done():
            self.poller = asyncio.create_task(self.poll())
        try:
            return await done
        finally:
            self.waiting.pop(game_id, None)

    async def poll(self) -> None:
        while self.waiting:
            await asyncio.sleep(max(self.poll_s, len(self.waiting) / MAX_POLLS_PER_S))
            games = list(self.waiting)
            pipe = self.redis.pipeline(transaction=False)
            for game_id in games:
                pipe.hmget(game_keys(game_id).meta, ["status", "version"])
            try:
                replies = await pipe.execute()
            except Exception as exc:  # Redis away: every wait ends with it, none hangs
                for done, _, _ in self.waiting.values():
                    if not done.done():
                        done.set_exception(exc)
                return
            now = time.monotonic()
            for game_id, (status, raw) in zip(games, replies, strict=True):
                if game_id not in self.waiting:
                    continue
                done, seen, since = self.waiting[game_id]
                version = int(raw or 0)
                if status == b"finished":
                    if not done.done():
                        done.set_result(version)
                elif version != seen:
                    self.waiting[game_id] = (done, version, now)
                elif now - since > self.stall_s and not done.done():
                    state = (status.decode(errors="replace") if isinstance(status, bytes)
                             else str(status or "no meta"))
                    done.set_exception(CliError(
                        f"bench e2e: game {game_id} is stuck: no new event for "
                        f"{self.stall_s:.0f} s (at version {version}, {state}); the services' "
                        f"logs say why ({processes.log_dir()})"))


async def wait_finished(redis: Redis, game_id: str, stall_s: float = STALL_S,
                        poll_s: float = 0.05) -> int:
    """One game's last version once it has finished (FinishWatch, for one game)."""
    return await FinishWatch(redis, stall_s, poll_s).wait(game_id)


async def idle_games(redis: Redis, client: Client, args: argparse.Namespace, made: list[str],
                     pids: dict[str, list[int]]) -> dict[str, Any]:
    """`--idle N`: N games that stay live while the others play (every seat a person who
    does not answer, the longest deadline), created before them; the Valkey and rules service
    memory they hold, per game."""
    n = getattr(args, "idle", 0) or 0
    if not n:
        return {"idle_games": 0}
    _, used_before = await bench_cost.valkey_usage(redis)
    rules_before = bench_cost.process_usage(pids.get("rules", [])).rss
    sem = asyncio.Semaphore(64)
    created = 0

    async def one(i: int, shown: CountProgress) -> None:
        nonlocal created
        async with sem:
            game_id = new_id("bench-idle")
            made.append(game_id)
            await client.create_game(CreateGame(
                command_id=new_id("create"), game_id=game_id, seats=4,
                modules=modules_from(args), controllers=("human:bench",) * 4,
                seed=hashlib.sha256(f"idle:{args.seed}:{i}".encode()).hexdigest(),
                deadline_ms=MAX_DEADLINE_MS), timeout=60.0)
            created += 1
            shown.update(created)

    say(f"bench e2e: {n:,} idle games first (they stay live while the others play)")
    with CountProgress(n, lines=not sys.stderr.isatty()) as shown:
        await asyncio.gather(*(one(i, shown) for i in range(n)))
    await asyncio.sleep(1.0)
    _, used_after = await bench_cost.valkey_usage(redis)
    rules_after = bench_cost.process_usage(pids.get("rules", [])).rss
    return {"idle_games": n, "valkey_kb_per_idle_game": (used_after - used_before) / n / 1024,
            "rules_kb_per_idle_game": max(0, rules_after - rules_before) / n / 1024}


CEILING_S = 5.0  # each of the two ceiling measurements (--ceiling-s)


async def lua_append_rate(redis: Redis, clients: int, made: list[str],
                          seconds: float = CEILING_S) -> float:
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
        f"e2e benchmark: {r['games']} games, {r['concurrency']} at once, random bots"
        + (f" answering {r['pace_ms']} ms after each prompt" if r.get("pace_ms") else "")
        + (f", games ended after {r['turn_limit']} turns" if r.get("turn_limit", 1000) < 1000
           else "") + ", "
        f"{r['rules_workers']} rules worker(s), through Redis"
        + (f" (a {r['cluster_masters']}-master cluster)" if r.get("cluster_masters") else ""),
        f"  accepted commands/s   {r['commands_per_s']:10.0f}",
        f"  games/min             {r['games_per_min']:10.1f}",
        f"  command→event p50     {r['latency_p50_ms']:10.2f} ms",
        f"  command→event p99     {r['latency_p99_ms']:10.2f} ms",
        f"  commands, events      {r['commands']:>10} {r['events']:>10}",
        f"  ceiling: Lua appends/s {r['lua_append_per_s']:9.0f}  ({r['concurrency']} writers, "
        f"same server, no rules; {r['lua_append_before_per_s']:.0f} before the games, "
        f"{r['lua_append_after_per_s']:.0f} after)",
        f"  commands/s ÷ ceiling  {r['of_ceiling']:10.2f}",
        *bench_cost.format_cost(r),
    ])
