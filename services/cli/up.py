"""`hexlog up` and `hexlog serve`: the services, supervised together or one in the foreground.

`hexlog up` is the long-running server of a machine: it starts (or uses) Redis, runs the rules
service, the projections and a bot worker under a supervisor, and keeps them running; other
commands (`play`, `tournament`, `replay --follow`, …) attach to it. The services log to
`<data dir>/logs/`, not to the terminal; `up` itself prints one line per thing that happens (a
service restarted, Redis gone and back). When Redis cannot be reached it waits, trying again
with a growing pause, rather than restarting services that can only fail. Ctrl-C (or SIGTERM)
stops the services, then the embedded server, in that order.
"""

from __future__ import annotations

import argparse
import signal
from types import FrameType
from typing import Any

from services.cli.errors import UsageError
from services.cli.options import add_server_options, at_least
from services.cli.registry import COMMANDS
from services.store.connect import connect


def check_bots(text: str) -> list[str]:
    """The bot specs of `--bots`, each loadable (UsageError before anything starts)."""
    from bots.registry import make_bot

    specs = [b.strip() for b in text.split(",") if b.strip()]
    if not specs:
        raise UsageError("--bots names no bot")
    for spec in specs:
        try:
            make_bot(spec, 0)
        except ValueError as exc:
            raise UsageError(f"--bots: {exc}") from None
    return specs


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def cmd_up(args: argparse.Namespace) -> int:
    from bots.registry import parse_bot_spec
    from services.cli.server import redis_problem, say, server_for
    from services.runtime import processes
    from services.runtime.logging import configure
    from services.runtime.users import pools_url, role_url

    configure(args.log_level)
    specs = check_bots(args.bots)
    signal.signal(signal.SIGTERM, _interrupt)  # stop in order, as on Ctrl-C
    with server_for(args, "up", reachable=False) as server:
        server.wait_for_others = False  # `up` stops when told to; attached commands say so
        url = server.url
        # Each service as its own Redis user on the embedded server; with REDIS_URL (a server
        # of your own, perhaps not answering yet) the URL itself: its users are yours.
        urls = (role_url(url, "rules"), role_url(url, "projections"),
                pools_url(url, [parse_bot_spec(s)[0] for s in specs]))
        services = [
            processes.Supervised("rules", processes.hexlog_command("serve", "rules"), urls[0]),
            processes.Supervised("projections", processes.hexlog_command("serve", "projections"),
                                 urls[1]),
            processes.Supervised("bots", processes.hexlog_command(
                "serve", "bots", "--bots", ",".join(specs)), urls[2]),
        ]
        say(f"supervising rules, projections and bots ({', '.join(specs)}); their logs are in "
            f"{processes.log_dir()}; Ctrl-C stops")
        say("in another terminal: `hexlog play` plays a game on this server, "
            "`hexlog replay GAME --follow` watches one")
        supervisor = processes.Supervisor(url, services, quiet=True,
                                          say=lambda text: say(f"up: {text}"),
                                          gate=lambda: redis_problem(url))
        try:
            supervisor.run_forever()
        except KeyboardInterrupt:
            say("stopping the services")
    say("stopped")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from services.cli.server import server_for
    from services.runtime.logging import configure

    configure(args.log_level)
    specs = check_bots(args.bots) if args.service == "bots" else []
    with server_for(args, "serve") as server:
        url = server.url
        if args.service == "rules":
            from services.rules.app import run

            run(url, claim_idle_ms=args.claim_idle_ms, consumer_mode=args.consumer,
                consumer=args.name)
        elif args.service == "bots":
            from bots.worker import run as run_bots

            run_bots(url, specs, args.name)
        elif args.service == "projections":
            from services.projections.app import run as run_projections

            run_projections(url, args.name)
    return 0


def cmd_health(args: argparse.Namespace) -> int:
    """Exit 0 when the instance (or, without --name, any instance) of a service keeps its
    heartbeat in Redis; 1 otherwise. What a container orchestrator's probe runs."""
    import asyncio

    from services.cli.options import data_dir
    from services.rules.protocol import alive_key, heartbeat_key
    from services.runtime.shared import running_server
    from services.runtime.users import pools_url, role_url

    service = args.service if args.service != "bots" or not args.pool else f"bots:{args.pool}"
    if args.service == "bots" and not args.pool:
        raise UsageError("health bots needs --pool NAME (each pool keeps its own heartbeat)")
    key = heartbeat_key(service, args.name) if args.name else alive_key(service)

    async def exists(url: str) -> bool:
        redis = connect(url, socket_connect_timeout=2, socket_timeout=2)
        try:
            return await redis.get(key) is not None  # GET: each role may read its heartbeat
        finally:
            await redis.aclose()

    who = f"{service} {args.name}" if args.name else f"any {service} instance"
    with running_server(data_dir(args)) as server:
        if server is None:
            print(f"not alive: no Redis (no REDIS_URL, no server running on {data_dir(args)})")
            return 1
        # As the probed service's own user (on an embedded server; REDIS_URL as given).
        url = (pools_url(server.url, [args.pool]) if args.service == "bots"
               else role_url(server.url, args.service))
        alive = asyncio.run(exists(url))
    if alive:
        print(f"alive: {who}")
        return 0
    print(f"not alive: no heartbeat of {who} in the last few seconds")
    return 1


BOTS_HELP = ("the bot pools to serve, comma-separated: shipped names (random, heuristic), or "
             "name=package.module:Factory for a Python bot by import path (pool `name`)")


def register(sub: Any) -> None:
    p = sub.add_parser("serve", help="run one service in the foreground",
                       description="Run one service in the foreground, on $REDIS_URL or on the "
                                   "embedded Valkey of the data dir (started, or attached to).")
    p.add_argument("service", choices=["rules", "bots", "projections"],
                   help="rules: commands in, events out; bots: a bot worker; projections: "
                        "game summaries and tournament standings")
    p.add_argument("--bots", default="random,heuristic", help=f"bots: {BOTS_HELP}")
    p.add_argument("--claim-idle-ms", type=at_least(100), default=30_000,
                   help="rules: take over commands pending this long at a dead consumer")
    p.add_argument("--consumer", choices=["batched", "faststream"], default="batched",
                   help="rules: one XREADGROUP over all partitions (single server, default) or a "
                        "FastStream subscriber per partition (needed on a Redis Cluster)")
    p.add_argument("--name", default=None,
                   help="this instance's name (its consumer name and heartbeat key; default: "
                        "from the host name and process id); a replica's pod name, so that "
                        "`hexlog health SERVICE --name NAME` can probe it")
    add_server_options(p)
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("health", help="is a service alive (exit 0) or not (exit 1)",
                       description="Probe a service by the heartbeat it keeps in Redis: with "
                                   "--name, that instance; otherwise any instance. For "
                                   "readiness and liveness probes (deploy/).")
    p.add_argument("service", choices=["rules", "bots", "projections"],
                   help="the service to probe: rules, bots or projections")
    p.add_argument("--name", default=None, help="the instance's `hexlog serve --name`")
    p.add_argument("--pool", default=None, help="bots: the pool whose heartbeat to check")
    add_server_options(p, log_level=False)
    p.set_defaults(func=cmd_health)

    p = sub.add_parser("up", help="run rules, projections and a bot pool under one supervisor",
                       description="Run the rules service, the projections and a bot worker, "
                                   "restarting any that stops, until Ctrl-C. Other commands "
                                   "(play, tournament, replay --follow) attach to it.")
    p.add_argument("--bots", default="random,heuristic", help=BOTS_HELP)
    add_server_options(p)
    p.set_defaults(func=cmd_up)


COMMANDS.append(register)
