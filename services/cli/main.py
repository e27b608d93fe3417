"""The `hexlog` command. Each subcommand lives in its own module; this file only wires them."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from events.events import ModuleSpec
from services.rules.engine.modules import MODULES, RulesetError


def parse_variant(text: str) -> ModuleSpec:
    """`friendly-robber` or `victory-points:target=12,other=x`."""
    name, _, rest = text.partition(":")
    params: dict[str, int | str | bool] = {}
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        if not eq:
            raise argparse.ArgumentTypeError(f"variant parameter {item!r} is not key=value")
        params[key] = int(value) if value.lstrip("-").isdigit() else value
    return ModuleSpec(name=name, params=params)


def modules_from(args: argparse.Namespace) -> tuple[ModuleSpec, ...]:
    specs: list[ModuleSpec] = []
    if getattr(args, "ruleset", "base") != "base":
        specs.append(ModuleSpec(name=args.ruleset))
    specs.extend(getattr(args, "variant", None) or [])
    return tuple(specs)


def add_rules_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--scenario", "--ruleset", dest="ruleset", default="base", metavar="NAME",
                   help="base, or a scenario (see `hexlog rulesets`)")
    p.add_argument("--variant", action="append", type=parse_variant, default=[],
                   metavar="NAME[:k=v,...]",
                   help="add a variant module; repeatable (see `hexlog rulesets`)")


def cmd_rulesets(args: argparse.Namespace) -> int:
    """Scenarios and variants, each with its description, seats, what it combines with and
    what it refuses (and why): services/cli/rulesets.py."""
    from services.cli.rulesets import describe, format_rulesets

    if args.json:
        rows = sorted(MODULES.values(), key=lambda m: (m.kind, m.name))
        print(json.dumps([describe(m) for m in rows], indent=2))
        return 0
    print(format_rulesets())
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from services.cli.bench import bench_engine, format_engine

    if args.seats is None:  # e.g. catan-for-two is a 2-seat module
        allowed = [set(MODULES[s.name].seats) for s in modules_from(args) if s.name in MODULES]
        args.seats = max(set.intersection({4, 3, 2}, *allowed) or {4})
    if args.target != "engine":
        from services.cli import bench_e2e

        return bench_e2e.run(args)
    try:
        result = bench_engine(args.games, ruleset=args.ruleset, variants=modules_from(args),
                              seats=args.seats, seed=args.seed)
    except RulesetError as exc:
        print(f"hexlog: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result) if args.json else format_engine(result))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hexlog",
        description="An event-sourced Catan game service: rules, bots, tournaments, replay.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("rulesets", help="list scenarios and variants, and what combines")
    p.add_argument("--json", action="store_true", help="print data instead of text")
    p.set_defaults(func=cmd_rulesets)

    p = sub.add_parser("bench", help="measure the engine (in-process) or the service (e2e)")
    p.add_argument("target", choices=["engine", "e2e"])
    p.add_argument("--games", type=int, default=200, help="games to play (default 200)")
    p.add_argument("--seats", type=int, default=None,
                   help="default 4, or the most seats every chosen module allows")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--concurrency", type=int, default=32, help="e2e: games at once")
    p.add_argument("--rules-workers", type=int, default=1, help="e2e: rules service processes")
    p.add_argument("--data-dir", default=".hexlog", help="e2e: embedded Valkey data (no REDIS_URL)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_rules_options(p)
    p.set_defaults(func=cmd_bench)

    for register in _more_commands():
        register(sub)
    return parser


def _more_commands() -> list:  # type: ignore[type-arg]
    """Subcommands that live in their own modules (service, tournament, replay, …)."""
    from services.cli import (  # noqa: F401  (each registers its commands)
        play,
        projections,
        registry,
        replay,
        tournament,
    )

    return registry.COMMANDS


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    code: int = args.func(args)
    return code


if __name__ == "__main__":
    sys.exit(main())


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
