"""Load on the HTTP gateway: many concurrent game streams, and the time from a command's POST
to its event on the stream.

    .venv/bin/python benchmarks/gateway_streams.py --tables 50 --spectators 1 --seconds 60

It starts its own stack on a private embedded Valkey (`hexlog serve rules`, `hexlog serve
gateway`, as real processes), makes `--tables` four-seat tables whose every seat this script
joins, opens one NDJSON stream per seat plus `--spectators` spectator streams per table, and
plays: each prompt is answered (a legal option, chosen at random; builds first) by a POST with
`wait=false`. The latency of a command is from just before its POST to the line of its first
event on the seat's own stream. Prints one JSON object (with `--json`) or a short report.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from services.runtime.valkey import EmbeddedValkey  # noqa: E402

PREFER = ("BuildCity", "BuildSettlement", "PlaceSettlement", "PlaceRoad", "BuildRoad")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def spawn(args: list[str], url: str, log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "services.cli.main", *args],
                            env={**os.environ, "REDIS_URL": url, "HEXLOG_LOG_LEVEL": "warning"},
                            stdout=log.open("wb"), stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, start_new_session=True, cwd=ROOT)


def choose(prompt: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    options = prompt["options"]
    if not options:
        return dict(prompt["default"])
    for kind in PREFER:
        found = [o for o in options if o["type"] == kind]
        if found:
            return dict(rng.choice(found))
    return dict(rng.choice(options))


class Bench:
    def __init__(self, base: str, seconds: float) -> None:
        self.base = base
        self.until = 0.0
        self.seconds = seconds
        self.sent: dict[tuple[str, int], float] = {}
        self.latencies: list[float] = []
        self.posts: list[float] = []
        self.open_streams = 0
        self.most_streams = 0
        self.errors = 0
        self.events = 0
        self.rng = random.Random(7)

    async def seat(self, client: httpx.AsyncClient, table: str, token: str) -> None:
        headers = {"Authorization": f"Bearer {token}"}
        async with client.stream("GET", f"/v1/tables/{table}/stream", headers=headers) as resp:
            self.opened()
            try:
                async for text in resp.aiter_lines():
                    if time.monotonic() > self.until:
                        return
                    if not text:
                        continue
                    line = json.loads(text)
                    if line["type"] == "event":
                        self.events += 1
                        t0 = self.sent.pop((table, line["version"]), None)
                        if t0 is not None:
                            self.latencies.append(time.perf_counter() - t0)
                    elif line["type"] == "prompt":
                        await self.answer(client, table, token, line)
            finally:
                self.open_streams -= 1

    async def answer(self, client: httpx.AsyncClient, table: str, token: str,
                     line: dict[str, Any]) -> None:
        body = {"command": choose(line["prompt"], self.rng), "expected_version": line["version"]}
        t0 = self.sent[(table, line["version"] + 1)] = time.perf_counter()
        r = await client.post(f"/v1/tables/{table}/commands", params={"wait": "false"},
                              json=body, headers={"Authorization": f"Bearer {token}"})
        self.posts.append(time.perf_counter() - t0)
        if r.status_code != 202:
            self.errors += 1
            self.sent.pop((table, line["version"] + 1), None)

    async def spectator(self, client: httpx.AsyncClient, table: str) -> None:
        async with client.stream("GET", f"/v1/tables/{table}/stream") as resp:
            self.opened()
            try:
                async for _ in resp.aiter_lines():
                    if time.monotonic() > self.until:
                        return
            finally:
                self.open_streams -= 1

    def opened(self) -> None:
        self.open_streams += 1
        self.most_streams = max(self.most_streams, self.open_streams)

    async def run(self, tables: int, spectators: int) -> dict[str, Any]:
        limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
        async with httpx.AsyncClient(base_url=self.base, timeout=120, limits=limits) as client:
            seats: list[tuple[str, str, str]] = []
            for _ in range(tables):
                made = (await client.post("/v1/tables", json={
                    "seats": 4, "deadline_ms": 120_000, "turn_limit": 1000})).json()
                table = made["table"]["id"]
                for i in range(4):
                    joined = (await client.post(f"/v1/tables/{table}/join",
                                                json={"name": f"p{i}"})).json()
                    seats.append((table, joined["token"], made["owner_token"]))
            self.until = time.monotonic() + self.seconds + 3600  # open everything first
            tasks = [asyncio.create_task(self.seat(client, t, tok)) for t, tok, _ in seats]
            tasks += [asyncio.create_task(self.spectator(client, t))
                      for t in {t for t, _, _ in seats} for _ in range(spectators)]
            want = len(tasks)
            while self.open_streams < want:
                await asyncio.sleep(0.1)
            await asyncio.gather(*(
                client.post(f"/v1/tables/{t}/start", headers={"Authorization": f"Bearer {o}"},
                            json={"fill": "random"})
                for t, o in sorted({(t, o) for t, _, o in seats})))
            await asyncio.sleep(5.0)  # every game under way: measure from now on
            self.latencies.clear()
            self.posts.clear()
            self.events = 0
            self.until = time.monotonic() + self.seconds
            await asyncio.sleep(self.seconds)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        return {"streams": self.most_streams, "latencies": self.latencies, "posts": self.posts,
                "events": self.events, "errors": self.errors}


def one_client(base: str, seconds: float, tables: int, spectators: int) -> dict[str, Any]:
    """One load-generating process (several share the work: one Python process parsing
    hundreds of streams would measure itself, not the gateway)."""
    return asyncio.run(Bench(base, seconds).run(tables, spectators))


def report(parts: list[dict[str, Any]], args: argparse.Namespace) -> dict[str, Any]:
    lat = sorted(x for p in parts for x in p["latencies"])
    posts = sorted(x for p in parts for x in p["posts"])

    def q(values: list[float], p: float) -> float:
        return round(1000 * values[min(len(values) - 1, int(p * len(values)))], 1) if values else 0.0

    return {"streams": sum(p["streams"] for p in parts), "tables": args.tables,
            "seat_streams": args.tables * 4, "spectator_streams": args.tables * args.spectators,
            "client_processes": args.clients, "seconds": args.seconds, "commands": len(lat),
            "commands_per_s": round(len(lat) / args.seconds, 1),
            "events_delivered": sum(p["events"] for p in parts),
            "errors": sum(p["errors"] for p in parts),
            "p50_ms": q(lat, 0.50), "p90_ms": q(lat, 0.90), "p99_ms": q(lat, 0.99),
            "max_ms": round(1000 * lat[-1], 1) if lat else 0.0,
            "post_p50_ms": q(posts, 0.50), "post_p99_ms": q(posts, 0.99),
            "cpus": os.cpu_count(), "load_average": [round(x, 1) for x in os.getloadavg()]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--spectators", type=int, default=1, help="spectator streams per table")
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--clients", type=int, default=4, help="load-generating processes")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="gwbench-"))
    server = EmbeddedValkey(tmp / "valkey").start()
    port = free_port()
    procs = [spawn(["serve", "rules"], server.url, tmp / "rules.log"),
             spawn(["serve", "gateway", "--port", str(port), "--limit", "lobby=1000/1000"], server.url, tmp / "gateway.log")]
    base = f"http://127.0.0.1:{port}"
    try:
        until = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/ready", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > until:
                raise SystemExit("the gateway or the rules service did not start")
            time.sleep(0.2)
        share = [args.tables // args.clients + (i < args.tables % args.clients)
                 for i in range(args.clients)]
        watched = {"gateway": psutil.Process(procs[1].pid), "rules": psutil.Process(procs[0].pid)}
        for proc in watched.values():
            proc.cpu_percent()
        with multiprocessing.get_context("spawn").Pool(args.clients) as pool:
            parts = pool.starmap(one_client, [(base, args.seconds, n, args.spectators)
                                              for n in share if n])
        result = report(parts, args)
        # CPU over the whole run (set-up included): who was busy, next to the load average
        result["cpu_percent"] = {name: round(proc.cpu_percent(), 1)
                                 for name, proc in watched.items()}
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(10)
        server.stop()
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>20}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
