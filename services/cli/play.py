"""`hexlog play`, `hexlog serve` and `hexlog up`: games through Redis with separate processes.

`hexlog` imports this module to register the commands, whatever command runs (`hexlog bench
engine` too): so the service stack (asyncio, redis, the client, logging, the embedded Valkey)
is imported inside the functions that use it, never at the top.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any

from events.events import GameFinished
from events.requests import CreateGame
from services.cli.main import add_rules_options, modules_from
from services.cli.registry import COMMANDS
from services.rules.engine import RulesetError, evolve, initial_state
from services.rules.engine.state import State

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from services.client import Client

DEFAULT_BOTS = "random,random,heuristic,heuristic"


def redis_url_from_env_or_embedded(data_dir: Path) -> AbstractContextManager[str]:
    """`services.runtime.valkey`'s: REDIS_URL, or an embedded Valkey for the command."""
    from services.runtime import valkey

    return valkey.redis_url_from_env_or_embedded(data_dir)


# --- serve ----------------------------------------------------------------------------------


def cmd_serve(args: argparse.Namespace) -> int:
    from services.runtime.logging import configure

    configure(args.log_level)
    with redis_url_from_env_or_embedded(args.data_dir) as url:
        if args.service == "rules":
            from services.rules.app import run

            run(url, claim_idle_ms=args.claim_idle_ms, consumer_mode=args.consumer)
        elif args.service == "bots":
            from bots.worker import run as run_bots

            run_bots(url, [b for b in args.bots.split(",") if b])
        elif args.service == "projections":
            from services.projections.app import run as run_projections

            run_projections(url)
    return 0


# --- local services for one command ---------------------------------------------------------


async def _serving(url: str, services: Sequence[str]) -> list[bool]:
    import asyncio

    from redis.asyncio import Redis

    from services.rules.protocol import is_serving

    redis = Redis.from_url(url)
    try:
        return list(await asyncio.gather(*(is_serving(redis, s) for s in services)))
    finally:
        await redis.aclose()


@contextmanager
def services_running(url: str, pools: Sequence[str], projections: bool = False) -> Iterator[list[str]]:
    """Attach to a running rules service and bot workers, or start them for this command.
    `pools` are bot specs (a shipped name, or `name=package.module:Factory`). A liveness key
    left by a killed service does not count (`is_serving`)."""
    import asyncio

    from bots.registry import SHIPPED, parse_bot_spec
    from services.runtime import processes
    from services.runtime.users import pools_url, role_url

    procs = []
    started: list[str] = []
    names = ["rules", *(["projections"] if projections else []),
             *(f"bots:{parse_bot_spec(p)[0]}" for p in pools)]
    alive = dict(zip(names, asyncio.run(_serving(url, names)), strict=True))
    if not alive["rules"]:
        procs.append(processes.spawn(processes.hexlog_command("serve", "rules"), role_url(url, "rules")))
        started.append("rules")
    if projections and not alive["projections"]:
        procs.append(processes.spawn(processes.hexlog_command("serve", "projections"),
                                     role_url(url, "projections")))
        started.append("projections")
    missing = [p for p in pools if not alive[f"bots:{parse_bot_spec(p)[0]}"]]
    # Our own bots share a worker; a bot given by import path gets a worker of its own, whose
    # Redis user reaches only that bot's prompts and command streams.
    groups = [[p for p in missing if p in SHIPPED]] + [[p] for p in missing if p not in SHIPPED]
    for group in filter(None, groups):
        names_ = [parse_bot_spec(p)[0] for p in group]
        procs.append(processes.spawn(processes.hexlog_command("serve", "bots", "--bots", ",".join(group)),
                                     pools_url(url, names_)))
        started.append("bots:" + ",".join(group))
    try:
        yield started
    finally:
        processes.stop(procs)


# --- play -----------------------------------------------------------------------------------


def play_bots(args: argparse.Namespace) -> list[str]:
    """The bot of each seat. Without --bots: the default bots for the most seats the chosen
    modules allow (2 with catan-for-two, else 4). Raises RulesetError (with the reason) for
    modules that cannot be played together or with that many seats — before anything starts."""
    from services.cli.rulesets import DEFAULT_BOTS as BY_SEATS
    from services.cli.rulesets import check_rules, default_seats

    specs = modules_from(args)
    text = args.bots if args.bots is not None else BY_SEATS[default_seats(specs)]
    bots = [b.strip() for b in text.split(",") if b.strip()]
    try:
        check_rules(specs, len(bots))
    except RulesetError as exc:
        if args.bots is not None and "seats" in str(exc):
            raise RulesetError(f"{exc} (--bots names one bot per seat)") from exc
        raise
    return bots


def cmd_play(args: argparse.Namespace) -> int:
    import asyncio

    from services.client import ServiceError
    from services.runtime.logging import configure

    configure(args.log_level)
    try:
        bots = play_bots(args)
    except RulesetError as exc:
        print(f"hexlog: {exc}", file=sys.stderr)
        return 2
    try:
        from bots.registry import SHIPPED

        unknown = [b for b in bots if b not in SHIPPED]
        if unknown:
            raise ServiceError(f"unknown bot(s): {', '.join(unknown)} (shipped: {', '.join(SHIPPED)})")
        with redis_url_from_env_or_embedded(args.data_dir) as url, services_running(url, sorted(set(bots))):
            result = asyncio.run(play_game(url, args, bots))
    except ServiceError as exc:
        print(f"hexlog: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(result) if args.json else format_result(result))
    return 0


async def play_game(url: str, args: argparse.Namespace, bots: list[str]) -> dict[str, Any]:
    from redis.asyncio import Redis

    from services.client import Client, new_id
    from services.runtime.users import role_url

    redis = Redis.from_url(role_url(url, "organiser"))
    client = Client(redis)
    try:
        await client.wait_for_rules()
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
        await client.create_game(request)
        state, count = await follow_to_end(client, game_id, progress=sys.stderr.isatty() and not args.json)
        return summary(state, count, game_id, bots)
    finally:
        await redis.aclose()


def seed_from_text(text: str) -> str:
    """A game seed (hex) from a seed phrase given on the command line: its SHA-256, so any
    phrase gives a full-size seed and the same phrase the same game."""
    import hashlib

    return hashlib.sha256(text.encode()).hexdigest()


async def follow_to_end(client: Client, game_id: str, progress: bool) -> tuple[State, int]:
    state: State | None = None
    count = 0
    shown = 0.0
    async for env in client.follow(game_id):
        count += 1
        if state is None:
            from events.events import GameCreated

            assert isinstance(env.event, GameCreated)
            state = initial_state(env.event)
        else:
            evolve(state, env.event)
        if progress and time.monotonic() - shown > 0.1:
            shown = time.monotonic()
            print("\r" + progress_line(state), end="", file=sys.stderr, flush=True)
        if isinstance(env.event, GameFinished):
            break
    if progress:
        print("\r" + progress_line(state) + "\n", end="", file=sys.stderr) if state else None
    assert state is not None
    return state, count


def progress_line(state: State) -> str:
    from services.rules.engine import public_vp

    vps = "/".join(str(public_vp(state, s)) for s in range(state.n))
    return f"  turn {state.turn:4d} · {state.phase:<14} · public VP {vps} · {state.version} events"


def summary(state: State, events: int, game_id: str, bots: list[str]) -> dict[str, Any]:
    from services.rules.engine import score

    scores = list(score(state))
    winner = None if state.winner < 0 else state.winner
    return {
        "game_id": game_id,
        "winner": winner,
        "winner_bot": None if winner is None else bots[winner],
        "scores": scores,
        "bots": bots,
        "events": events,
        "turns": state.turn,
        "players": [
            {"seat": p.seat, "bot": bots[p.seat], "vp": scores[p.seat], "settlements": len(p.settlements),
             "cities": len(p.cities), "roads": len(p.roads), "knights": p.knights,
             "longest_road": state.longest_holder == p.seat, "largest_army": state.army_holder == p.seat}
            for p in state.players[: state.n]  # seats only (catan-for-two's neutrals are not players)
        ],
    }


def format_result(r: dict[str, Any]) -> str:
    lines = [f"game {r['game_id']}: {r['events']} events, {r['turns']} turns"]
    if r["winner"] is None:
        lines.append("no winner (turn limit)")
    else:
        lines.append(f"winner: seat {r['winner']} ({r['winner_bot']}) with {r['scores'][r['winner']]} VP")
    lines.append("")
    lines.append(f"{'seat':>4}  {'bot':<10} {'VP':>3} {'settl.':>6} {'cities':>6} {'roads':>5} {'knights':>7}  awards")
    for p in r["players"]:
        awards = ", ".join(a for a, on in (("longest road", p["longest_road"]), ("largest army", p["largest_army"])) if on)
        lines.append(f"{p['seat']:>4}  {p['bot']:<10} {p['vp']:>3} {p['settlements']:>6} {p['cities']:>6} "
                     f"{p['roads']:>5} {p['knights']:>7}  {awards}")
    return "\n".join(lines)


# --- up -------------------------------------------------------------------------------------


def cmd_up(args: argparse.Namespace) -> int:
    from services.runtime import processes
    from services.runtime.logging import configure

    configure(args.log_level)
    from bots.registry import parse_bot_spec
    from services.runtime.users import pools_url, role_url

    with redis_url_from_env_or_embedded(args.data_dir) as url:
        pools = [parse_bot_spec(b)[0] for b in args.bots.split(",") if b]
        services = [
            processes.Supervised("rules", processes.hexlog_command("serve", "rules"),
                                 role_url(url, "rules")),
            processes.Supervised("projections", processes.hexlog_command("serve", "projections"),
                                 role_url(url, "projections")),
            processes.Supervised("bots", processes.hexlog_command("serve", "bots", "--bots", args.bots),
                                 pools_url(url, pools)),
        ]
        print(f"hexlog up: Redis at {url}; rules, projections, bots ({args.bots}); Ctrl-C stops",
              file=sys.stderr)
        with suppress(KeyboardInterrupt):
            processes.Supervisor(url, services).run_forever()
    return 0


def add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data-dir", type=Path, default=Path(".hexlog"),
                   help="where the embedded Valkey keeps its data (ignored with REDIS_URL)")
    p.add_argument("--log-level", default=None, help="debug, info, warning (default), error")


def register(sub: Any) -> None:
    p = sub.add_parser("play", help="play one game with bots through Redis and print the result")
    p.add_argument("--bots", default=None,
                   help=f"one shipped bot per seat, comma-separated (default {DEFAULT_BOTS}; "
                        "random,heuristic when a module is played with 2 seats only)")
    p.add_argument("--seed", default="", help="the game's secret seed (default: random)")
    p.add_argument("--game-id", default="", help="default: a new random id")
    p.add_argument("--deadline-ms", type=int, default=10_000, help="decision deadline per prompt")
    p.add_argument("--turn-limit", type=int, default=1000, help="end undecided after N turns (0: none)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_rules_options(p)
    add_common(p)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("serve", help="run one service in the foreground")
    p.add_argument("service", choices=["rules", "bots", "projections"])
    p.add_argument("--bots", default="random,heuristic",
                   help="bots: the pools to serve, comma-separated: shipped names, or "
                        "name=package.module:Factory for a bot by import path (pool `name`)")
    p.add_argument("--claim-idle-ms", type=int, default=30_000,
                   help="rules: take over commands pending this long at a dead consumer")
    p.add_argument("--consumer", choices=["batched", "faststream"], default="batched",
                   help="rules: one XREADGROUP over all partitions (single server, default) or a "
                        "FastStream subscriber per partition (needed on a Redis Cluster)")
    add_common(p)
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("up", help="run rules, projections and a bot pool under one supervisor")
    p.add_argument("--bots", default="random,heuristic")
    add_common(p)
    p.set_defaults(func=cmd_up)


COMMANDS.append(register)
