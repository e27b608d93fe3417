"""`hexlog tournament`: a fair bot tournament through the real service, with ratings."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from services.cli.registry import COMMANDS

# The service stack (asyncio, redis, …) is imported where it is used: `hexlog` imports this
# module to register the command whatever command runs (`hexlog bench engine` too).


def cmd_tournament(args: argparse.Namespace) -> int:
    import asyncio

    from redis.exceptions import ConnectionError as RedisConnectionError

    from bots.registry import SHIPPED, parse_bot_spec
    from services.cli.main import modules_from
    from services.cli.play import services_running
    from services.client import ServiceError
    from services.rules.engine.modules import MODULES, RulesetError, check_combination
    from services.runtime.logging import configure
    from services.runtime.valkey import redis_url_from_env_or_embedded
    from services.tournament.runner import Spec, TournamentError

    configure(args.log_level)
    try:
        specs = [parse_bot_spec(b) for b in args.bots.split(",") if b.strip()]
    except ValueError as exc:
        print(f"hexlog: {exc}", file=sys.stderr)
        return 2
    bots = [name for name, _ in specs]
    if len(set(bots)) != len(bots) or not bots:
        print("hexlog: --bots names each bot once (seats are shared out by the schedule)",
              file=sys.stderr)
        return 2
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
    # Shipped bots, and bots given as name=package.module:Factory, get a worker of this command
    # unless one is running; any other name must have registered its own worker on Redis.
    served = sorted(f"{name}={ref}" if ref != name else name for name, ref in specs
                    if ref in SHIPPED or ":" in ref)
    ours = [parse_bot_spec(s)[0] for s in served]
    try:
        with redis_url_from_env_or_embedded(args.data_dir) as url, \
                services_running(url, served, projections=True):
            result, games = asyncio.run(run(url, spec, bots, ours, args))
    except (ServiceError, TournamentError) as exc:
        print(f"hexlog: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\nhexlog: interrupted; the same command with --resume continues this tournament "
              "(finished games are kept)", file=sys.stderr)
        return 130
    except RedisConnectionError as exc:
        # Ctrl-C reaches the embedded Valkey too (it shares the terminal's process group), and
        # it shuts down (its AOF written) before this process unwinds.
        print(f"\nhexlog: lost Redis ({exc}); the same command with --resume continues this "
              "tournament (finished games are kept)", file=sys.stderr)
        return 1
    from services.tournament.report import json_result, table, write_out

    if args.out:
        for path in write_out(Path(args.out), result, games):
            print(f"wrote {path}", file=sys.stderr)
    print(json.dumps(json_result(result)) if args.json else table(result))
    return 0


async def run(url: str, spec: Any, bots: list[str], shipped: list[str],
              args: argparse.Namespace) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    from redis.asyncio import Redis

    from services.client import Client
    from services.projections.projector import results_key
    from services.runtime.users import role_url
    from services.tournament.runner import (
        TournamentError,
        TournamentRunner,
        bot_registered,
        wait_for_bots,
    )

    redis = Redis.from_url(role_url(url, "organiser"))  # an organiser: no game's secrets
    try:
        await Client(redis).wait_for_rules()
        await wait_for_bots(redis, shipped)  # workers of this command (or already running)
        for bot in sorted(set(bots) - set(shipped)):
            if not await bot_registered(redis, bot):
                raise TournamentError(
                    f"unknown bot {bot!r}: not shipped, and no worker registered it on Redis "
                    f"(start one with `hexlog serve bots --bots {bot}` or your own worker)")
        runner = TournamentRunner(redis, spec, concurrency=args.concurrency)
        if not args.resume and (earlier := await runner.unfinished_run()):
            print(f"note: an earlier run of this tournament ({earlier}) did not finish; "
                  "--resume would continue it. Starting a new run.", file=sys.stderr)
        tid = await runner.start(resume=args.resume)
        tty = sys.stderr.isatty()
        print(f"tournament {tid}: {len(runner.games)} games "
              f"({len(runner.games) // spec.seats} sets x {spec.seats} seat rotations), "
              f"bots {', '.join(bots)}", file=sys.stderr)
        result = await runner.run(progress_bar if tty else ProgressLines())
        if tty:
            print(file=sys.stderr)
        raw = await redis.hgetall(results_key(tid))
        games = sorted((json.loads(v) for v in raw.values()), key=lambda g: g["index"])
        return result, games
    finally:
        await redis.aclose()


def progress_text(p: Any) -> str:
    """`[####......] 40/200 games | 31 games/min | ETA 5:10 | leader heuristic (mu 33.2)`:
    rate and ETA from the games this run played (a resumed run's finished games are not)."""
    filled = int(30 * p.done / p.total) if p.total else 30
    eta = "--:--" if p.eta is None else f"{int(p.eta) // 60}:{int(p.eta) % 60:02d}"
    leader = f" | leader {p.leader['bot']} (mu {p.leader['mu']:.1f})" if p.leader else ""
    resumed = f" ({p.resumed} before resuming)" if p.resumed else ""
    return (f"[{'#' * filled}{'.' * (30 - filled)}] {p.done}/{p.total} games{resumed} | "
            f"{p.rate * 60:.1f} games/min | ETA {eta}{leader}")


def progress_bar(p: Any) -> None:
    """One line on a terminal, redrawn in place (cleared to its end: it can get shorter)."""
    print(f"\r  {progress_text(p)}\x1b[K", end="", file=sys.stderr, flush=True)


class ProgressLines:
    """Without a terminal (a log, CI): a plain line at the start, every 10% and at the end."""

    def __init__(self) -> None:
        self.shown = -1

    def __call__(self, p: Any) -> None:
        step = max(1, p.total // 10)
        if p.done // step != self.shown // step or p.done == p.total or self.shown < 0:
            self.shown = p.done
            print(f"  {progress_text(p)}", file=sys.stderr, flush=True)


def register(sub: Any) -> None:
    from services.cli.main import add_rules_options

    p = sub.add_parser("tournament", help="a fair bot tournament (duplicate seeds, ratings)",
                       description="Play every pod of bots in all seat rotations on the same "
                                   "seed, through the real service, and rate them (openskill).")
    p.add_argument("--bots", required=True,
                   help="comma-separated bots: shipped (random, heuristic), "
                        "name=package.module:Factory (a Python bot by import path), or a name "
                        "registered on Redis by an external worker (any language)")
    p.add_argument("--games", type=int, required=True, help="games to play (rounded up to whole sets)")
    p.add_argument("--seats", type=int, default=0, help="seats per game (default 4; 2 for catan-for-two)")
    p.add_argument("--seed", default="",
                   help="a tournament seed, for reproducible games (same seed, same games); "
                        "keep it secret until the games end: anyone who knows it can predict "
                        "every die. Default: a secret seed drawn from the OS, printed at the end")
    p.add_argument("--concurrency", type=int, default=8, help="games played at once")
    p.add_argument("--resume", action="store_true",
                   help="continue the latest interrupted run of this same tournament")
    p.add_argument("--out", default="",
                   help="directory for standings.json, standings.txt, games.csv (every game's "
                        "id and result) and ratings.svg (+ ratings.png with matplotlib)")
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
