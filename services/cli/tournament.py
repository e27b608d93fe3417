"""`hexlog tournament`: a fair bot tournament through the real service, with ratings."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

from redis.asyncio import Redis

from services.cli.registry import COMMANDS


def cmd_tournament(args: argparse.Namespace) -> int:
    from bots.registry import SHIPPED
    from services.cli.main import modules_from
    from services.cli.play import services_running
    from services.client import ServiceError
    from services.rules.engine.modules import MODULES, RulesetError, check_combination
    from services.runtime.logging import configure
    from services.runtime.valkey import redis_url_from_env_or_embedded
    from services.tournament.runner import Spec, TournamentError

    configure(args.log_level)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    modules = modules_from(args)
    seats = args.seats or min([4, *(max(MODULES[m.name].seats) for m in modules if m.name in MODULES)])
    try:
        check_combination(modules, seats)
    except RulesetError as exc:
        print(f"hexlog: {exc}", file=sys.stderr)
        return 2
    spec = Spec(bots=bots, games=args.games, seats=seats, ruleset=args.ruleset,
                modules=[{"name": m.name, "params": dict(m.params)} for m in modules],
                seed=args.seed, deadline_ms=args.deadline_ms, turn_limit=args.turn_limit,
                forfeit_after_s=args.forfeit_after)
    shipped = sorted({b for b in bots if b in SHIPPED})
    try:
        with redis_url_from_env_or_embedded(args.data_dir) as url, \
                services_running(url, shipped, projections=True):
            result, games = asyncio.run(run(url, spec, bots, shipped, args))
    except (ServiceError, TournamentError) as exc:
        print(f"hexlog: {exc}", file=sys.stderr)
        return 1
    from services.tournament.report import json_result, table, write_out

    if args.out:
        for path in write_out(Path(args.out), result, games):
            print(f"wrote {path}", file=sys.stderr)
    print(json.dumps(json_result(result)) if args.json else table(result))
    return 0


async def run(url: str, spec: Any, bots: list[str], shipped: list[str],
              args: argparse.Namespace) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    from services.client import Client
    from services.projections.projector import results_key
    from services.tournament.runner import TournamentError, TournamentRunner, bot_registered

    redis = Redis.from_url(url)
    try:
        await Client(redis).wait_for_rules()
        for bot in sorted(set(bots) - set(shipped)):
            if not await bot_registered(redis, bot):
                raise TournamentError(
                    f"unknown bot {bot!r}: not shipped, and no worker registered it on Redis "
                    f"(start one with `hexlog serve bots --bots {bot}` or your own worker)")
        runner = TournamentRunner(redis, spec, concurrency=args.concurrency)
        tid = await runner.start(resume=args.resume)
        show = sys.stderr.isatty() and not args.json
        print(f"tournament {tid}: {len(runner.games)} games "
              f"({len(runner.games) // spec.seats} sets x {spec.seats} seat rotations), "
              f"bots {', '.join(bots)}", file=sys.stderr)
        result = await runner.run(progress_bar if show else None)
        if show:
            print(file=sys.stderr)
        raw = await redis.hgetall(results_key(tid))
        games = sorted((json.loads(v) for v in raw.values()), key=lambda g: g["index"])
        return result, games
    finally:
        await redis.aclose()


def progress_bar(p: Any) -> None:
    elapsed = time.monotonic() - p.started
    rate = p.done / elapsed if elapsed else 0.0
    eta = (p.total - p.done) / rate if rate else 0.0
    filled = int(30 * p.done / p.total)
    leader = f" · leader {p.leader['bot']} (mu {p.leader['mu']:.1f})" if p.leader else ""
    print(f"\r  [{'#' * filled}{'.' * (30 - filled)}] {p.done}/{p.total} games · "
          f"{rate * 60:.0f} games/min · ETA {int(eta) // 60}:{int(eta) % 60:02d}{leader}   ",
          end="", file=sys.stderr, flush=True)


def register(sub: Any) -> None:
    from services.cli.main import add_rules_options

    p = sub.add_parser("tournament", help="a fair bot tournament (duplicate seeds, ratings)",
                       description="Play every pod of bots in all seat rotations on the same "
                                   "seed, through the real service, and rate them (openskill).")
    p.add_argument("--bots", required=True,
                   help="comma-separated bot names: shipped (random, heuristic) or registered "
                        "by an external worker")
    p.add_argument("--games", type=int, required=True, help="games to play (rounded up to whole sets)")
    p.add_argument("--seats", type=int, default=0, help="seats per game (default 4; 2 for catan-for-two)")
    p.add_argument("--seed", default="hexlog", help="the tournament seed (same seed, same games)")
    p.add_argument("--concurrency", type=int, default=8, help="games played at once")
    p.add_argument("--resume", action="store_true",
                   help="continue the latest interrupted run of this same tournament")
    p.add_argument("--out", default="", help="directory for standings.json, games.csv, ratings.svg")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--deadline-ms", type=int, default=10_000, help="per-decision deadline")
    p.add_argument("--turn-limit", type=int, default=1000, help="end undecided after N turns")
    p.add_argument("--forfeit-after", type=float, default=30.0,
                   help="seconds without a live worker before a bot forfeits its games")
    p.add_argument("--data-dir", type=Path, default=Path(".hexlog"),
                   help="embedded Valkey data (ignored with REDIS_URL)")
    p.add_argument("--log-level", default=None)
    add_rules_options(p)
    p.set_defaults(func=cmd_tournament)


COMMANDS.append(register)
