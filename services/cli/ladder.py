"""`hexlog serve ladder` (and `hexlog up --ladder`): the bot ladder's matchmaker, with its
settings (docs/ladder.md). The bots join over the gateway's HTTP; this process forms their pods.
"""

from __future__ import annotations

import argparse
from typing import Any

from services.cli.errors import UsageError
from services.cli.options import at_least
from services.ladder.config import LadderConfig, parse_rotation


def rotation(text: str) -> str:
    try:
        parse_rotation(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def add_ladder_options(p: argparse.ArgumentParser, up: bool = False) -> None:
    what = "ladder: " if not up else "with --ladder: "
    defaults = LadderConfig()
    p.add_argument("--rulesets", type=rotation, default="base", metavar="SET[,SET…]",
                   help=what + "the rule sets the ladder plays in turn, each `base` or modules "
                        "joined by `+` (catan-for-two, fishermen+harbormaster, "
                        "victory-points:target=8); each has a board (default base)")
    p.add_argument("--deadline-ms", type=at_least(100, 86_400_000),
                   default=defaults.deadline_ms,
                   help=what + "a bot's time for each decision; then its default move is "
                        f"played (default {defaults.deadline_ms})")
    p.add_argument("--games-per-bot", type=at_least(1, 64), default=defaults.games_per_bot,
                   help=what + f"games a bot plays at once (default {defaults.games_per_bot})")
    p.add_argument("--max-live", type=at_least(1, 10_000), default=defaults.max_live,
                   help=what + f"games the ladder runs at once (default {defaults.max_live})")
    p.add_argument("--absent-after", type=at_least(1, 1000), default=defaults.absent_after,
                   help=what + "deadlines a bot may miss in a row before it is marked absent "
                        f"(out of matchmaking until it says ready; default "
                        f"{defaults.absent_after})")
    p.add_argument("--provisional", type=at_least(0, 10_000),
                   default=defaults.provisional_games,
                   help=what + "a rating is provisional until this many games (default "
                        f"{defaults.provisional_games})")
    p.add_argument("--owners-together", action="store_true",
                   help=what + "let bots of one owner play in one game")
    p.add_argument("--no-duplicates", action="store_true",
                   help=what + "never let pods formed together share a seed")
    p.add_argument("--stop-after", type=at_least(0), default=0, metavar="GAMES",
                   help=what + "create no game after this many in all (0: never stop; for "
                        "benchmarks and trials)")


def config_from(args: argparse.Namespace) -> LadderConfig:
    try:
        rulesets = parse_rotation(args.rulesets)
    except ValueError as exc:
        raise UsageError(f"--rulesets: {exc}") from None
    return LadderConfig(rulesets=rulesets, deadline_ms=args.deadline_ms,
                        games_per_bot=args.games_per_bot, max_live=args.max_live,
                        absent_after=args.absent_after, provisional_games=args.provisional,
                        owners_together=args.owners_together,
                        duplicates=not args.no_duplicates, stop_after=args.stop_after)


def ladder_args(args: argparse.Namespace) -> list[str]:
    """The options of `hexlog serve ladder` that give it `up --ladder`'s settings."""
    out = ["--rulesets", args.rulesets, "--deadline-ms", str(args.deadline_ms),
           "--games-per-bot", str(args.games_per_bot), "--max-live", str(args.max_live),
           "--absent-after", str(args.absent_after), "--provisional", str(args.provisional),
           "--stop-after", str(args.stop_after)]
    return out + ["--owners-together"] * args.owners_together + \
        ["--no-duplicates"] * args.no_duplicates


def serve(url: str, args: argparse.Namespace) -> None:
    """The matchmaker in the foreground, until SIGTERM."""
    from services.ladder.matchmaker import run

    run(url, config_from(args), args.name)


def supervised(url: str, args: argparse.Namespace) -> Any:
    """`up --ladder`'s ladder: a supervised `hexlog serve ladder` as the `ladder` user."""
    from services.runtime import processes
    from services.runtime.users import role_url

    if not args.gateway_port:
        raise UsageError("--ladder needs --gateway-port: bots join the ladder over the "
                         "gateway's HTTP")
    config_from(args)
    return processes.Supervised("ladder", processes.hexlog_command("serve", "ladder",
                                                                   *ladder_args(args)),
                                role_url(url, "ladder"))
