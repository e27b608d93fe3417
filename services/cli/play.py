"""`hexlog play`: one game of bots through Redis and the real services, then its result.

Everything about the game is checked before anything starts (bots, modules and their
parameters, seats: exit 2). Then the command attaches to a running `hexlog up` (or any other
command's server), or starts what it needs itself, creates the game, says its id (so it can be
watched from another terminal with `hexlog replay ID --follow`), keeps the seats' and the
referee's credentials in the data dir (so `hexlog replay ID --as SEAT` works on the live
game), follows the log to the end and prints the result (services/cli/result.py).

`hexlog` imports this module to register the command, whatever command runs (`hexlog bench
engine` too): the service stack (asyncio, redis, the client, the embedded Valkey) is imported
inside the functions that use it, never at the top.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from typing import TYPE_CHECKING, Any

from events.events import GameCreated, GameFinished, SeatForfeited
from events.requests import CreateGame
from services.cli.errors import SITUATION, CliError, UsageError
from services.cli.options import (
    add_rules_options,
    add_server_options,
    at_least,
    check_modules,
    modules_from,
)
from services.cli.registry import COMMANDS
from services.rules.engine import evolve, initial_state
from services.rules.engine.state import State

if TYPE_CHECKING:
    from services.cli.progress import GameProgress
    from services.client import Client

DEFAULT_BOTS = "random,random,heuristic,heuristic"
HEX_SEED = re.compile(r"[0-9a-f]{64}")


def server_for(args: argparse.Namespace, command: str) -> Any:
    """services/cli/server.py's (a name here so tests can forbid it for refused games)."""
    from services.cli.server import server_for as open_for

    return open_for(args, command)


def play_bots(args: argparse.Namespace) -> list[str]:
    """The bot of each seat. Without --bots: the default bots for the most seats the chosen
    modules allow (2 with catan-for-two, else 4). Raises UsageError (with the reason) for
    bots, modules or parameters that cannot be played together — before anything starts."""
    from bots.registry import POOL_NAME
    from services.cli.rulesets import DEFAULT_BOTS as BY_SEATS
    from services.cli.rulesets import SEAT_COUNTS, default_seats

    specs = modules_from(args)
    text = args.bots if args.bots is not None else BY_SEATS[default_seats(specs)]
    bots = [b.strip() for b in text.split(",") if b.strip()]
    bad = sorted({b for b in bots if not POOL_NAME.fullmatch(b)})
    if bad:
        raise UsageError(f"--bots: {', '.join(map(repr, bad))} cannot be a bot's name "
                         "(letters, digits, _ . -)")
    if len(bots) not in SEAT_COUNTS:
        raise UsageError(f"a game has 2 to 4 seats, not {len(bots)} (--bots names one bot per seat)")
    try:
        check_modules(specs, len(bots))
    except UsageError as exc:
        if args.bots is not None and "seats" in str(exc):
            raise UsageError(f"{exc} (--bots names one bot per seat)") from None
        raise
    return bots


async def check_external(redis: Any, bots: list[str]) -> None:
    """A bot that is not shipped must be a pool some worker registered (docs/protocol.md §3)."""
    from bots.registry import SHIPPED
    from services.tournament.runner import bot_registered

    for bot in sorted(set(bots) - set(SHIPPED)):
        if not await bot_registered(redis, bot):
            raise UsageError(f"--bots: unknown bot {bot!r}: not shipped ({', '.join(SHIPPED)}), "
                             "and no worker registered it on this Redis (docs/protocol.md §3)")


def seed_from_text(text: str) -> str:
    """A game seed (hex) from `--seed`: the 64 hex digits a finished game revealed (the same
    board and dice again), or any phrase, whose SHA-256 is the seed."""
    if HEX_SEED.fullmatch(text):
        return text
    return hashlib.sha256(text.encode()).hexdigest()


def cmd_play(args: argparse.Namespace) -> int:
    from bots.registry import SHIPPED
    from services.cli import interrupt
    from services.runtime.logging import configure

    configure(args.log_level)
    bots = play_bots(args)
    from services.cli.server import services_running

    shipped = sorted({b for b in bots if b in SHIPPED})  # the others: workers of their own
    with server_for(args, "play") as server, services_running(server, shipped):
        result = interrupt.run(play_game(server.url, args, bots))
        # Printed now: a server this command started may yet wait for commands attached to it.
        print(json.dumps(result) if args.json else format_result(result), flush=True)
    return 0


def format_result(result: dict[str, Any]) -> str:
    from services.cli.result import format_result as text

    return text(result)


async def play_game(url: str, args: argparse.Namespace, bots: list[str]) -> dict[str, Any]:
    from services.cli import credentials
    from services.cli.options import data_dir
    from services.cli.progress import GameProgress
    from services.cli.result import summary
    from services.cli.server import say
    from services.client import Client, new_id
    from services.rules.refusals import refused_by_seat
    from services.runtime.users import role_url
    from services.store.connect import connect

    redis = connect(role_url(url, "organiser"))
    client = Client(redis)
    try:
        await client.wait_for_rules()
        await check_external(redis, bots)
        game_id = args.game_id or new_id()
        request = CreateGame(
            command_id=new_id("create"),
            game_id=game_id,
            seats=len(bots),
            ruleset=args.ruleset if args.ruleset == "base" else "base",
            modules=modules_from(args),
            names=tuple(f"{b}{i}" for i, b in enumerate(bots)),
            controllers=tuple(f"bot:{b}" for b in bots),
            seed=seed_from_text(args.seed) if args.seed else None,
            deadline_ms=args.deadline_ms,
            turn_limit=args.turn_limit,
        )
        try:
            creds = await client.create_game(request)
        except Exception as exc:
            from services.client import ServiceError

            if isinstance(exc, ServiceError) and "exists" in str(exc):
                raise UsageError(f"--game-id {game_id}: a game with this id exists already") from None
            raise
        SITUATION.game = game_id
        saved = credentials.save(data_dir(args), game_id, creds.seats, creds.referee)
        say(f"game {game_id} started; watch it with `hexlog replay {game_id} --follow` "
            f"(seat and referee credentials in {saved})")
        with GameProgress(enabled=sys.stderr.isatty() and not args.json) as progress:
            state, count, finished, forfeited = await follow_to_end(client, game_id, progress)
        refused = await refused_by_seat(redis, game_id, state.n)
        return summary(state, count, game_id, bots, finished.seed, finished.reason, forfeited,
                       refused)
    finally:
        await redis.aclose()


async def follow_to_end(client: Client, game_id: str, progress: GameProgress
                        ) -> tuple[State, int, GameFinished, frozenset[int]]:
    """Fold the game's log as it grows, until `GameFinished`: (state, events, that event, the
    seats that forfeited)."""
    state: State | None = None
    count = 0
    forfeited: set[int] = set()
    async for env in client.follow(game_id):
        count += 1
        if isinstance(env.event, SeatForfeited):
            forfeited.add(env.event.seat)
        if state is None:
            if not isinstance(env.event, GameCreated):
                raise CliError(f"game {game_id}: the log does not start with GameCreated")
            state = initial_state(env.event)
        else:
            evolve(state, env.event)
        progress.update(state)
        if isinstance(env.event, GameFinished):
            return state, count, env.event, frozenset(forfeited)
    raise CliError(f"game {game_id}: the log ended before the game did")


def register(sub: Any) -> None:
    p = sub.add_parser("play", help="play one game with bots through Redis and print the result",
                       description="Play one game of shipped bots through the rules service "
                                   "(attaching to a running `hexlog up`, or starting what it "
                                   "needs), then print who won and how the VP add up.")
    p.add_argument("--bots", default=None,
                   help=f"one bot per seat, comma-separated: shipped (random, heuristic), or a "
                        "pool your own worker registered (docs/protocol.md); default "
                        f"{DEFAULT_BOTS}, or random,heuristic when a module is played with 2 "
                        "seats only")
    p.add_argument("--seed", default="",
                   help="the game's secret seed: any phrase, or the 64 hex digits a finished "
                        "game revealed (the same board and dice again); default: from the OS")
    p.add_argument("--game-id", default="", help="the game's id (default: a new random one)")
    p.add_argument("--deadline-ms", type=at_least(100), default=10_000,
                   help="milliseconds a seat has for each decision before its default move "
                        "is played (default 10000)")
    p.add_argument("--turn-limit", type=at_least(0), default=1000,
                   help="end the game undecided after N turns (0: no limit; default 1000)")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object (with the revealed seed and the modules)")
    add_rules_options(p)
    add_server_options(p)
    p.set_defaults(func=cmd_play)


COMMANDS.append(register)
