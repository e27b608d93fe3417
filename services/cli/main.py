"""The `hexlog` command. Each subcommand lives in its own module; this file only wires them,
and runs every command through the one error path (services/cli/errors.py)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from bots.pace import MAX_PACE_MS
from services.cli.errors import EXIT_CODES, USAGE, UsageError, run_guarded
from services.cli.options import (  # noqa: F401  (re-exported: other modules import them here)
    MAX_CONCURRENCY,
    MAX_IDLE,
    add_failover_options,
    add_rules_options,
    at_least,
    check_modules,
    levels,
    modules_from,
    parse_variant,
    seat_count,
)
from services.rules.engine.modules import MODULES
from services.runtime.die_with_parent import die_with_parent


class Parser(argparse.ArgumentParser):
    """argparse, with its errors as one line (exit 2) like every other error of hexlog."""

    def error(self, message: str) -> NoReturn:
        self.exit(USAGE, f"{self.prog}: {message} (`{self.prog} --help` lists the options)\n")


def version_text() -> str:
    from importlib.metadata import PackageNotFoundError, version

    from services.rules.engine import RULES_VERSION

    try:
        package = version("hexlog")
    except PackageNotFoundError:  # run from a checkout that was never installed
        package = "unknown"
    return f"hexlog {package} (rules {RULES_VERSION})"


def cmd_rulesets(args: argparse.Namespace) -> int:
    """Scenarios and variants, each with its description, seats, what it combines with and
    what it refuses (and why): services/cli/rulesets.py."""
    from services.cli.rulesets import describe, explain, format_explain, format_rulesets
    from services.rules.engine.modules import RulesetError

    if args.explain is not None:
        names = [n.strip() for n in args.explain.split(",")]
        try:
            text = json.dumps(explain(names), indent=2) if args.json else format_explain(names)
        except RulesetError as exc:
            raise UsageError(f"--explain: {exc}") from exc
        print(text)
        return 0
    if args.json:
        rows = sorted(MODULES.values(), key=lambda m: (m.kind, m.name))
        print(json.dumps([describe(m) for m in rows], indent=2))
        return 0
    print(format_rulesets())
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from services.cli.bench import bench_engine, format_engine

    specs = modules_from(args)
    if args.seats is None:  # e.g. catan-for-two is a 2-seat module
        allowed = [set(MODULES[s.name].seats) for s in specs if s.name in MODULES]
        args.seats = max(set.intersection({4, 3, 2}, *allowed) or {4})
    check_modules(specs, args.seats)
    if args.target == "env":
        from services.cli import bench_env

        return bench_env.run(args)
    if args.target in ("ladder", "failover", "e2e"):
        # These run a store in this process: its logs go to stderr, stdout is for the result
        # (structlog's default prints to stdout: a replica wait's warning broke --json).
        from services.runtime.logging import logs_to_stderr

        logs_to_stderr()
    if args.target == "ladder":
        from services.cli import bench_ladder

        return bench_ladder.run(args)
    if args.target == "search":
        from services.cli.bench_search import bench_search, format_search

        out = bench_search(args.games, playouts=args.playouts, seed=args.seed, variants=specs,
                           seats=args.seats, view_only=args.view_only, ruleset=args.ruleset)
        print(json.dumps(out) if args.json else format_search(out))
        return 0
    if len(args.concurrency) > 1 and args.target != "e2e":
        raise UsageError("--concurrency: one number, except for bench e2e (a curve)")
    args.concurrency_levels = args.concurrency
    args.concurrency = args.concurrency[0]
    if args.target == "failover":
        from services.cli import bench_failover

        return bench_failover.run(args)
    if args.target != "engine":
        from services.cli import bench_e2e

        return bench_e2e.run(args)
    result = bench_engine(args.games, ruleset=args.ruleset, variants=specs,
                          seats=args.seats, seed=args.seed, progress=not args.json)
    print(json.dumps(result) if args.json else format_engine(result))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="hexlog",
        description="An event-sourced Catan game service: rules, bots, tournaments, replay.",
        epilog=EXIT_CODES + " Data: the embedded Valkey keeps its data in --data-dir, else "
               "$HEXLOG_DATA_DIR, else ./.hexlog; REDIS_URL points every command at a server "
               "of your own instead.",
    )
    parser.add_argument("--version", action="version", version=version_text(),
                        help="print hexlog's version and the rules version, and exit")
    parser.add_argument("--debug", action="store_true",
                        help="on an error, print the traceback as well (also $HEXLOG_DEBUG=1)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("rulesets", help="list scenarios and variants, and what combines")
    p.add_argument("--json", action="store_true", help="print data instead of text")
    p.add_argument("--explain", metavar="NAME[,NAME...]",
                   help="for a game of these modules (base: none), each command's handler chain "
                        "and each hook's wrappers, in install order")
    p.set_defaults(func=cmd_rulesets)

    p = sub.add_parser("bench", help="measure the engine (in-process) or the service (e2e)",
                       description="engine: complete games of random bots in this process. "
                                   "e2e: games through Redis and the real services, on a "
                                   "server of its own (never among your games).")
    p.add_argument("target", choices=["engine", "e2e", "search", "env", "failover", "ladder"],
                   help="engine: the rules alone; e2e: the whole service; search: the search "
                        "bot's decision time and playouts/s (in-process, vs heuristic bots); "
                        "env: the RL environments' steps/s (bots/env, docs/rl.md); failover: "
                        "games while the primary is killed again and again, and what was "
                        "acknowledged checked against the logs (benchmarks/failover.md); "
                        "ladder: a ladder of its own and --bots bots of known strengths over "
                        "HTTP (benchmarks/ladder.md)")
    p.add_argument("--bots", type=at_least(4, 64), default=6,
                   help="ladder: bots (search, heuristic, random in turn; default 6)")
    p.add_argument("--deadline-ms", type=at_least(100), default=10_000,
                   help="ladder: a bot's time per decision (default 10000)")
    p.add_argument("--steps", type=at_least(1), default=20_000,
                   help="env: random legal actions per measurement (default 20000)")
    p.add_argument("--rounds", type=at_least(1), default=1,
                   help="env: rounds, alternating which side runs first (medians; default 1)")
    p.add_argument("--catanatron-python", default="", metavar="PYTHON",
                   help="env: the python of a venv with catanatron-gym, measured in the same "
                        "run (e.g. benchmarks/.venv-catanatron/bin/python)")
    p.add_argument("--playouts", type=at_least(1), default=24,
                   help="search: playouts per decision (the search bot's budget; default 24)")
    p.add_argument("--view-only", action="store_true",
                   help="search: decide from views only, as over Redis (no belief tracker)")
    p.add_argument("--games", type=at_least(1), default=200, help="games to play (default 200)")
    p.add_argument("--seats", type=seat_count, default=None,
                   help="default 4, or the most seats every chosen module allows")
    p.add_argument("--seed", type=int, default=0,
                   help="an integer: the same seed plays the same games (default 0)")
    p.add_argument("--concurrency", type=levels(at_least(1, MAX_CONCURRENCY)), default=[32],
                   help=f"e2e, failover: games at once (default 32, at most "
                        f"{MAX_CONCURRENCY:,}); e2e: several, comma-separated (1,32,256,1000), "
                        "measure a curve: one run per value, at least that many games each")
    p.add_argument("--idle", type=at_least(0, MAX_IDLE), default=0, metavar="N",
                   help=f"e2e: N more games that stay live and idle while the others play "
                        f"(created first; at most {MAX_IDLE:,}): the memory a live game holds")
    p.add_argument("--pace-ms", type=at_least(0, MAX_PACE_MS), default=0, metavar="MS",
                   help="e2e: the bots answer each prompt MS ms on average after reading it "
                        "(each between MS/2 and 3·MS/2), as players who think (default 0: at "
                        "full speed; the first games start spread over one pace); with many "
                        "games at once, the latency of a service that is not saturated")
    p.add_argument("--turn-limit", type=at_least(1, 1000), default=1000, metavar="N",
                   help="e2e: each game ends after N turns (default 1000: games end by play, in "
                        "about 940 commands); shorter games for many games at a pace")
    p.add_argument("--plot", default=None, metavar="FILE",
                   help="e2e: draw the curve of --concurrency into FILE (.png, .svg; needs "
                        "matplotlib: pip install 'hexlog[plot]')")
    p.add_argument("--metrics-cost", type=at_least(0), default=0, metavar="ROUNDS",
                   help="e2e: measure what counting metrics costs: ROUNDS runs with and as "
                        "many without (HEXLOG_METRICS=0), alternated; the medians' difference")
    p.add_argument("--rules-workers", "--replicas", type=at_least(1), default=1,
                   help="e2e: rules service processes (replicas sharing the partitions; "
                        "default 1)")
    p.add_argument("--cluster", type=at_least(1), default=None, metavar="N",
                   help="e2e: on an embedded N-master Valkey Cluster of its own (TCP ports "
                        "of 127.0.0.1) instead of one server; failover: N masters with a "
                        "replica each, instead of a primary and a replica under Sentinels")
    p.add_argument("--ceiling-s", type=at_least(1, 600), default=5, metavar="S",
                   help="e2e: how long the ceiling (the bare append script's rate, no rules, "
                        "no bots) is measured, before the games and again after them "
                        "(default 5 s each)")
    p.add_argument("--data-dir", default=None,
                   help="e2e: where the benchmark's own Valkey keeps its data while it runs "
                        "(default: a temporary folder, removed after; ignored with REDIS_URL)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_failover_options(p)
    add_rules_options(p)
    p.set_defaults(func=cmd_bench)

    for register in _more_commands():
        register(sub)
    return parser


def _more_commands() -> list[Any]:
    """Subcommands that live in their own modules (service, tournament, replay, …)."""
    from services.cli import (  # noqa: F401  (each registers its commands)
        acl,
        archives,
        games,
        play,
        projections,
        registry,
        render,
        replay,
        schemas,
        top,
        tournament,
        up,
    )

    return registry.COMMANDS


def main(argv: Sequence[str] | None = None) -> int:
    die_with_parent()  # a service `hexlog up` (or a tournament) started stops when it dies
    parser = build_parser()
    args = parser.parse_args(argv)
    debug = bool(args.debug or os.environ.get("HEXLOG_DEBUG"))
    code: int = run_guarded(args.func, args, debug)
    return code


def run() -> None:
    """Console-script entry point."""
    stale_build_note()
    sys.exit(main())


def stale_build_note() -> None:
    """One line on stderr when a compiled engine is in the tree but older than its source (an
    edit, a pull): the Python source runs then, correct but slower, until `make engine`."""
    import services.rules

    old = services.rules.STALE
    if old:
        more = f" and {len(old) - 2} more" if len(old) > 2 else ""
        print(f"hexlog: the compiled engine is older than {', '.join(old[:2])}{more}: the "
              "Python source runs; `make engine` rebuilds it", file=sys.stderr)


if __name__ == "__main__":
    run()
