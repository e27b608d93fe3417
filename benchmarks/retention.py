"""What a finished game leaves in Redis, before and after the retention rules have run.

Plays N four-seat random-bot games through the real rules app (in this process) on a fresh
embedded Valkey, with short retentions so the trimming can be watched, then reports
`MEMORY USAGE` summed per kind of key and divided by the number of games:

    .venv/bin/python benchmarks/retention.py --games 20 [--json]

"before" is measured as soon as the games are finished (what the old service kept for ever:
command streams, prompt streams with turn keys, feeds, snapshots, secrets); "after" once the
rules service has trimmed (what stays: the record, and the outcomes until their TTL).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import re
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

from redis.asyncio import Redis

from bots.worker import BotWorker
from events.requests import CreateGame
from services.client import Client
from services.rules.app import build_app
from services.rules.config import ServiceConfig
from services.runtime.logging import configure
from services.runtime.valkey import EmbeddedValkey
from services.store.keys import OUTCOMES_TTL_SECONDS

KINDS = [
    ("log (events)", re.compile(r":g:.*:ev$")),
    ("meta", re.compile(r":g:.*:meta$")),
    ("rulings", re.compile(r":g:.*:rulings$")),
    ("snapshot", re.compile(r":g:.*:snap$")),
    ("secrets", re.compile(r":g:.*:secret$")),
    ("outcomes", re.compile(r":g:.*:outcomes$")),
    ("command streams", re.compile(r":cmds(:bot:.*)?$")),
    ("prompt streams", re.compile(r":prompts:")),
    ("feeds", re.compile(r":feed$")),
    ("deadlines", re.compile(r":deadlines$")),
]


async def usage(redis: Redis) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    async for raw in redis.scan_iter(match="hexlog:*", count=1000):
        key = raw.decode()
        kind = next((name for name, pattern in KINDS if pattern.search(key)), "other")
        out[kind] += int(await redis.memory_usage(key) or 0)
    return dict(out)


async def run(games: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        server = EmbeddedValkey(Path(tmp) / "data", appendfsync="everysec").start()
        redis = Redis.from_url(server.url)
        config = ServiceConfig(command_retention_ms=1000, prompt_retention_ms=1000,
                               feed_retention_ms=1000)
        # Phase 1: no trimming at all (what the service kept before retention rules).
        app = build_app(server.url, consumer="bench", config=config, trim_every_s=10**6)
        await app.start()
        stop = asyncio.Event()
        worker = asyncio.create_task(BotWorker(Redis.from_url(server.url), ["random"]).run(stop))
        try:
            client = Client(redis)
            ids = [f"g-{i:04d}" for i in range(games)]
            for game in ids:
                await client.create_game(CreateGame(command_id=f"c-{game}", game_id=game,
                                                    controllers=("bot:random",) * 4,
                                                    turn_limit=1000))
            while not await finished(client, ids):
                await asyncio.sleep(0.2)
            metas = [await client.meta(g) or {} for g in ids]
            events = sum(int(m.get("version", 0)) for m in metas)
            before = await usage(redis)
        finally:
            stop.set()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(worker, 5)
            await asyncio.wait_for(app.stop(), 15)
        # Phase 2: the rules service with its retention rules (1 s here, trimmed twice a second).
        app = build_app(server.url, consumer="bench", config=config, trim_every_s=0.5)
        await app.start()
        try:
            await asyncio.sleep(3.0)
            after = await usage(redis)
        finally:
            await asyncio.wait_for(app.stop(), 15)
            await redis.aclose()
            server.stop()
    return {"games": games, "events_per_game": events / games,
            "before": {k: v / games for k, v in sorted(before.items())},
            "after": {k: v / games for k, v in sorted(after.items())},
            "outcome_ttl_s": OUTCOMES_TTL_SECONDS}


async def finished(client: Client, ids: list[str]) -> bool:
    for game in ids:
        if (await client.meta(game) or {}).get("status") != "finished":
            return False
    return True


def table(r: dict[str, Any]) -> str:
    kinds = sorted(set(r["before"]) | set(r["after"]))
    lines = [f"{r['games']} finished games, {r['events_per_game']:.0f} events each; "
             "bytes per finished game (MEMORY USAGE)", "",
             f"{'key kind':<18}{'never trimmed':>15}{'after retention':>17}{'+ expiries':>12}"]
    expiring = ("outcomes", "secrets")
    for k in kinds:
        later = 0 if k in expiring else r["after"].get(k, 0)
        lines.append(f"{k:<18}{r['before'].get(k, 0):>15,.0f}{r['after'].get(k, 0):>17,.0f}"
                     f"{later:>12,.0f}")
    kept = sum(v for k, v in r["after"].items() if k not in expiring)
    lines.append(f"{'total':<18}{sum(r['before'].values()):>15,.0f}"
                 f"{sum(r['after'].values()):>17,.0f}{kept:>12,.0f}")
    lines.append(f"(outcomes expire {r['outcome_ttl_s'] // 60} min and secrets 24 h after the "
                 "game ends)")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    configure("warning")
    result = asyncio.run(run(args.games))
    print(json.dumps(result) if args.json else table(result))


if __name__ == "__main__":
    main()
