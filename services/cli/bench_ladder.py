"""`hexlog bench ladder --bots N --games G`: a ladder of its own (`hexlog up --ladder` on a
server of its own, in a temporary folder) and N bots of known strengths (search, heuristic,
random, in turn), each a process of its own playing over HTTP (`python -m
services.ladder.player`); it runs until G games are rated, then reports:

* `games`, `games_per_hour` (rated games over the time from the first registration to the last
  rating), `first_game_s` (from the first registration to the first move of the first game);
* `ranking`: the overall board, best first (bot, kind, rating, interval, games);
* `kendall_tau`: Kendall's τ-b between the ranking and the known order of the kinds (search
  above heuristic above random; bots of one kind tie), and `kendall_tau_max`, what it is when
  the ladder finds the known order exactly (below 1 when kinds repeat: ties in one list only).
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import math
import os
import signal
import socket
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from services.cli.errors import UsageError
from services.cli.options import data_dir
from services.runtime.die_with_parent import DIE_WITH
from services.runtime.scratch import scratch_folder

KINDS = ("search", "heuristic", "random")
STRENGTH = {"search": 3, "heuristic": 2, "random": 1}
START_TIMEOUT_S = 600


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def kendall_tau(x: list[float], y: list[float]) -> float:
    """Kendall's τ-b of two paired lists (ties in either counted as neither concordant nor
    discordant, and corrected for)."""
    concordant = discordant = ties_x = ties_y = 0
    for i in range(len(x)):
        for j in range(i + 1, len(x)):
            dx, dy = x[i] - x[j], y[i] - y[j]
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                ties_x += 1
            elif dy == 0:
                ties_y += 1
            elif dx * dy > 0:
                concordant += 1
            else:
                discordant += 1
    denominator = math.sqrt((concordant + discordant + ties_x) *
                            (concordant + discordant + ties_y))
    return (concordant - discordant) / denominator if denominator else 0.0


class Http:
    def __init__(self, port: int) -> None:
        self.port = port

    def get(self, path: str) -> tuple[int, Any]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            conn.request("GET", path)
            resp = conn.getresponse()
            body = resp.read()
            return resp.status, (json.loads(body) if body and resp.getheader(
                "content-type", "").startswith("application/json") else body)
        finally:
            conn.close()

    def lines(self, path: str) -> list[dict[str, Any]]:
        status, body = self.get(path)
        if status != 200:
            return []
        return [json.loads(line) for line in body.splitlines() if line.strip()]


def say(text: str, quiet: bool) -> None:
    if not quiet:
        print(f"hexlog: bench ladder: {text}", file=sys.stderr, flush=True)


def first_move_at(api: Http, game_id: str) -> float | None:
    """When the game's first move after its creation was logged (s since the epoch)."""
    for line in api.lines(f"/v1/ladder/games/{game_id}/stream?after=1"):
        if line.get("type") == "event" and int(line.get("version", 0)) >= 2:
            return datetime.fromisoformat(str(line["at"]).replace("Z", "+00:00")).timestamp()
    return None


def run_ladder(bots: int, games: int, data_dir: Path, deadline_ms: int,
               quiet: bool) -> dict[str, Any]:
    port = free_port()
    api = Http(port)
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env["HEXLOG_DATA_DIR"] = str(data_dir)
    # `hexlog up` and the bots run in sessions of their own (a Ctrl-C reaches the benchmark
    # alone, which stops them in order); if the benchmark is killed, they stop with it.
    env[DIE_WITH] = str(os.getpid())
    up = subprocess.Popen(
        [sys.executable, "-m", "services.cli.main", "up", "--ladder", "--gateway-port",
         str(port), "--trust", "127.0.0.1", "--stop-after", str(games), "--deadline-ms",
         str(deadline_ms)], env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True, start_new_session=True)
    players: list[subprocess.Popen[str]] = []
    try:
        assert up.stderr is not None
        until = time.monotonic() + START_TIMEOUT_S
        while "gateway listening on" not in (line := up.stderr.readline()):
            if not line and up.poll() is not None:
                raise UsageError("bench ladder: hexlog up stopped before its gateway listened")
            if time.monotonic() > until:
                raise UsageError("bench ladder: the gateway did not listen in time")
        while api.get("/v1/ladder")[0] != 200:
            if time.monotonic() > until:
                raise UsageError("bench ladder: no matchmaker started")
            time.sleep(0.25)
        say(f"a ladder on 127.0.0.1:{port}; {bots} bots join", quiet)
        started = time.time()
        kinds: dict[str, str] = {}
        for i in range(bots):
            kind = KINDS[i % len(KINDS)]
            name = f"{kind}-{i + 1}"
            proc = subprocess.Popen(
                [sys.executable, "-m", "services.ladder.player", "--gateway",
                 f"http://127.0.0.1:{port}", "--bot", kind, "--name", name,
                 "--owner", f"bench-{i + 1}", "--seed", str(i)],
                env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, text=True, start_new_session=True)
            players.append(proc)
            kinds[name] = kind
        for proc in players:
            assert proc.stdout is not None
            if not proc.stdout.readline():
                raise UsageError("bench ladder: a bot could not register")
        first_game = ""
        rated = 0
        shown = 0.0
        while True:
            data = api.get("/v1/ladder")[1]
            if not first_game and data["live"]:
                first_game = min(data["live"], key=lambda g: g["created_at"])["id"]
            rated = int(data["boards"].get("overall", {}).get("games", 0))
            made = int(data["ladder"]["games"])
            if rated >= games and made == rated and not data["live"]:
                break
            if any(p.poll() is not None for p in players) or up.poll() is not None:
                raise UsageError("bench ladder: a bot or a service stopped")
            if time.monotonic() - shown > 30:
                shown = time.monotonic()
                say(f"{rated} of {games} games rated", quiet)
            time.sleep(0.5)
        ended = time.time()
        if not first_game:
            first_game = min(data["recent"], key=lambda g: g["created_at"])["id"]
        moved = first_move_at(api, first_game)
        rows = data["boards"]["overall"]["rows"]
        ranking = [{"bot": r["bot"], "kind": kinds.get(r["bot"], "?"), "rating": r["rating"],
                    "interval": r["interval"], "games": r["games"]} for r in rows]
        known = [float(STRENGTH[r["kind"]]) for r in ranking]
        places = [float(-i) for i in range(len(ranking))]
        tau = kendall_tau(known, places)
        best = kendall_tau(sorted(known, reverse=True), places)  # the known order found
        return {
            "bots": bots, "games": rated, "deadline_ms": deadline_ms,
            "seconds": ended - started,
            "games_per_hour": rated / (ended - started) * 3600,
            "first_game_s": None if moved is None else moved - started,
            "ranking": ranking, "kendall_tau": tau, "kendall_tau_max": best,
        }
    finally:
        for proc in players:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
        if up.poll() is None:
            os.killpg(up.pid, signal.SIGTERM)
            try:
                up.wait(120)
            except subprocess.TimeoutExpired:
                os.killpg(up.pid, signal.SIGKILL)
                up.wait(10)


def format_ladder(out: dict[str, Any]) -> str:
    lines = [f"{out['games']} games of {out['bots']} bots in {out['seconds']:.0f} s: "
             f"{out['games_per_hour']:.0f} games/hour; first move of the first game "
             f"{out['first_game_s']:.1f} s after the first registration"
             if out["first_game_s"] is not None else "",
             f"Kendall's tau against the known order: {out['kendall_tau']:.2f} (the known order "
             f"found exactly: {out['kendall_tau_max']:.2f})",
             f"{'#':>2}  {'bot':<14} {'kind':<10} {'rating':>7}  interval",]
    for i, row in enumerate(out["ranking"], 1):
        lo, hi = row["interval"]
        lines.append(f"{i:>2}  {row['bot']:<14} {row['kind']:<10} {row['rating']:7.1f}  "
                     f"[{lo:.1f}, {hi:.1f}]  {row['games']} games")
    return "\n".join(line for line in lines if line)


def run(args: Any) -> int:
    if args.bots < 4:
        raise UsageError("--bots: at least 4 (the ladder plays the base game: 4 seats)")
    quiet = bool(args.json)
    if args.data_dir:
        out = run_ladder(args.bots, args.games, Path(args.data_dir), args.deadline_ms, quiet)
    else:  # a folder of its own under the data dir, removed after (scratch.py)
        with scratch_folder(data_dir(argparse.Namespace()), "bench-ladder-") as tmp:
            out = run_ladder(args.bots, args.games, tmp, args.deadline_ms, quiet)
    print(json.dumps(out) if args.json else format_ladder(out))
    return 0
