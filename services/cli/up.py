"""`hexlog up` and `hexlog serve`: the services, supervised together or one in the foreground.

`hexlog up` is the long-running server of a machine: it starts (or uses) Redis, runs the rules
service, the projections and a bot worker under a supervisor, and keeps them running; other
commands (`play`, `tournament`, `replay --follow`, …) attach to it. The services log to
`<data dir>/logs/`, not to the terminal; `up` itself prints one line per thing that happens (a
service restarted, Redis gone and back). A service that exits is restarted at once, or after a
pause of at most a few seconds while it keeps dying (services/runtime/processes.py `backoff`:
whatever needs it waits that long). When Redis cannot be reached it waits, trying again after
the same pauses, rather than restarting services that can only fail. Ctrl-C (or SIGTERM)
stops the services, then the embedded server, in that order.
"""

from __future__ import annotations

import argparse
import signal
from pathlib import Path
from types import FrameType
from typing import Any, cast

from bots.pace import MAX_PACE_MS
from services.cli.errors import CliError, UsageError
from services.cli.ladder import add_ladder_options
from services.cli.options import (
    add_durability_option,
    add_server_options,
    at_least,
    positive_seconds,
)
from services.cli.registry import COMMANDS
from services.rules.config import READ_LANES


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
    import os

    from bots.registry import parse_bot_spec
    from services.chat.try_out import local_homeserver, wants_local
    from services.cli.options import data_dir
    from services.cli.server import redis_problem, say, server_for
    from services.cli.up_checks import only_up, port_is_free
    from services.gateway.listening import announce_when_listening
    from services.runtime import processes
    from services.runtime.logging import configure
    from services.runtime.users import pools_url, role_url

    configure(args.log_level)
    specs = check_bots(args.bots)
    local = wants_local(args)  # --homeserver local: a throwaway Synapse (docs/chat.md)
    if local:
        from services.chat.local_synapse import free_port, missing

        if problem := missing():
            raise UsageError(problem)
        if not (args.gateway_port or args.gateway):  # the adapter plays through a gateway
            args.gateway_port = free_port(8080)
    if args.gateway_port:
        need_extra("gateway")
    if args.ladder and not args.gateway_port:
        raise UsageError("--ladder needs --gateway-port: bots join the ladder over the "
                         "gateway's HTTP (docs/ladder.md)")
    if args.matrix:
        need_extra("matrix")
        if not local:
            check_matrix(args, "--matrix")
    if args.gateway_port:
        port_is_free(args.host, args.gateway_port, "--gateway-port")
    if args.port:
        if args.cluster or args.ha or os.environ.get("REDIS_URL"):
            raise UsageError("--port opens the embedded server to TCP: not with --cluster or "
                             "--ha (they are on TCP already) nor REDIS_URL (a server of yours)")
        port_is_free("127.0.0.1", args.port, "--port")
    check_topology(args)
    signal.signal(signal.SIGTERM, _interrupt)  # stop in order, as on Ctrl-C
    with only_up(data_dir(args)), server_for(args, "up", reachable=False,
                                              cluster=args.cluster,
                                              replicas=args.cluster_replicas,
                                              ha=args.ha) as server, \
            local_homeserver(args, data_dir(args), say):
        server.wait_for_others = False  # `up` stops when told to; attached commands say so
        url = server.url
        if args.port:
            say(listen_on_tcp(server, args.port))
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
        if args.gateway_port:
            limits = [w for text in args.limit for w in ("--limit", text)]
            # The Matrix adapter plays for all its room's players from 127.0.0.1: the
            # gateway's per-address limits must not count them as one client.
            trust = [*args.trust, *(["127.0.0.1"] if args.matrix and not args.gateway else [])]
            limits += [w for network in trust for w in ("--trust", network)]
            services.append(processes.Supervised("gateway", processes.hexlog_command(
                "serve", "gateway", "--host", args.host, "--port", str(args.gateway_port),
                *limits), role_url(url, "gateway")))
        if args.ladder:  # the bot ladder's matchmaker (docs/ladder.md)
            from services.cli.ladder import supervised

            services.append(supervised(url, args))
        if args.matrix:
            gateway = args.gateway or f"http://127.0.0.1:{args.gateway_port or 8080}"
            services.append(processes.Supervised("matrix", processes.hexlog_command(
                "serve", "matrix", "--gateway", gateway, "--homeserver", args.homeserver,
                "--matrix-user", args.matrix_user, "--fill", args.fill,
                "--deadline-s", str(args.deadline_s), "--warn-s", str(args.warn_s),
                "--health-port", str(args.health_port))))
        names = ", ".join(s.name for s in services[:2] + services[3:])
        if args.metrics_port:
            say(with_metrics(services, args.metrics_port, args.metrics_host, server.data_dir))
        supervisor = processes.Supervisor(url, services, quiet=True,
                                          say=lambda text: say(f"up: {text}"),
                                          gate=lambda: redis_problem(url),
                                          revive=server.revive)
        # From the first line that says Ctrl-C stops, a Ctrl-C is a clean stop (exit 0).
        try:
            say(f"supervising {names} and bots ({', '.join(specs)}); their logs are in "
                f"{processes.log_dir()}; Ctrl-C stops")
            if args.gateway_port:  # once it answers: a client that reads it may connect
                announce_when_listening(args.host, args.gateway_port, say)
            say("in another terminal: `hexlog play` plays a game on this server, "
                "`hexlog replay GAME --follow` watches one")
            supervisor.run_forever()
        except KeyboardInterrupt:
            say("stopping the services")
        except processes.ServerLost as exc:  # (the services are stopped)
            raise CliError(f"up: {exc}; the services are stopped: `hexlog up` again starts "
                           "the server from its AOF") from None
    say("stopped")
    return 0


METRICS_OFFSETS = {"rules": 0, "projections": 1, "bots": 2, "gateway": 3, "matrix": 4,
                   "ladder": 5}


def with_metrics(services: list[Any], port: int, host: str, data_dir: Path) -> str:
    """Give each supervised service its metrics port (PORT + its offset), write them to
    `DATA_DIR/metrics.json` (what `hexlog top` reads); where they are."""
    import json

    from services.cli.top import METRICS_FILE
    from services.cli.up_checks import port_is_free

    ports = {}
    for service in services:
        own = port + METRICS_OFFSETS[service.name]
        port_is_free(host, own, "--metrics-port")
        service.args += ["--metrics-port", str(own), "--metrics-host", host]
        ports[service.name] = own
    (data_dir / METRICS_FILE).write_text(json.dumps({"host": host, "services": ports}))
    where = ", ".join(f"{name} {own}" for name, own in ports.items())
    return (f"metrics for Prometheus on http://{host}:PORT/metrics: {where} (`hexlog top` "
            "shows them live)")


def check_topology(args: argparse.Namespace) -> None:
    """--ha, --cluster-replicas and --durability hold together (UsageError before anything
    starts); the durability goes to the services through $HEXLOG_DURABILITY."""
    from services.cli.options import use_durability

    if args.cluster_replicas and not args.cluster:
        raise UsageError("--cluster-replicas gives each master of --cluster N its replicas: "
                         "add --cluster N (or --ha for one primary and a replica)")
    if args.ha and args.cluster:
        raise UsageError("--ha runs one primary with a replica under Sentinels; a cluster "
                         "gets its replicas with --cluster N --cluster-replicas 1")
    if args.durability == "replica" and not (args.ha or args.cluster_replicas):
        import os

        if not os.environ.get("REDIS_URL"):
            raise UsageError("--durability replica waits for a replica, and the embedded "
                             "server has none: add --ha (or --cluster N --cluster-replicas 1)")
    use_durability(args)


def listen_on_tcp(server: Any, port: int) -> str:
    """Open the embedded server that `up` runs to 127.0.0.1:`port` as well (its users and
    passwords hold there too), write the TCP URL beside valkey.url, and say so."""
    from urllib.parse import quote

    import redis

    from services.runtime.shared import write_private

    if server.how != "started":
        raise UsageError(f"--port: the server on {server.data_dir} was started by another "
                         f"command{f' (pid {server.owner_pid})' if server.owner_pid else ''}; "
                         "stop it first, so that up starts it with the listener")
    admin = redis.Redis.from_url(server.url)
    try:
        admin.config_set("bind", "127.0.0.1")
        admin.config_set("port", port)
        password = admin.connection_pool.connection_kwargs.get("password") or ""
    finally:
        admin.close()
    path = server.data_dir / "valkey-tcp.url"
    write_private(path, f"redis://default:{quote(str(password), safe='')}@127.0.0.1:{port}/0\n")
    return (f"listening on 127.0.0.1:{port} too, for bots in other languages: the URL (with the "
            f"administrator's password) is in {path}; a pool's own user: docs/protocol.md §1")


EXTRAS = {"gateway": ("litestar", "uvicorn"), "matrix": ("nio", "httpx")}


def need_extra(service: str) -> None:
    """The optional packages of a service are installed (UsageError naming the extra)."""
    import importlib.util

    missing = [m for m in EXTRAS[service] if importlib.util.find_spec(m) is None]
    if missing:
        raise UsageError(f"serve {service} needs {', '.join(missing)}: "
                         f"pip install 'hexlog[{service}]'")


def check_matrix(args: argparse.Namespace, what: str) -> None:
    """The Matrix adapter's account is given (UsageError before anything starts)."""
    import os

    env = os.environ.get
    if args.homeserver == "local":
        raise UsageError(f"{what} --homeserver local: only `hexlog up --matrix` starts a local "
                         "homeserver (docs/chat.md, Try it locally)")
    if not ((args.homeserver or env("MATRIX_HOMESERVER")) and (args.matrix_user or
                                                               env("MATRIX_USER"))):
        raise UsageError(f"{what} needs --homeserver and --matrix-user (or MATRIX_HOMESERVER "
                         "and MATRIX_USER), and MATRIX_TOKEN or MATRIX_PASSWORD")
    if not (env("MATRIX_TOKEN") or env("MATRIX_PASSWORD")):
        raise UsageError(f"{what} needs the bot's MATRIX_TOKEN (or MATRIX_PASSWORD)")


def cmd_serve(args: argparse.Namespace) -> int:
    from services.cli.server import server_for
    from services.runtime.logging import configure

    configure(args.log_level)
    if args.service in ("gateway", "matrix"):
        need_extra(args.service)
    if args.metrics_port:
        from services import metrics

        metrics.serve(args.metrics_port, args.metrics_host)  # /metrics, for Prometheus
    if args.service == "matrix":  # a client of the gateway: no Redis of its own
        check_matrix(args, "serve matrix")
        from services.chat.matrix import run as run_matrix
        from services.chat.tables import Settings

        settings = Settings(fill=args.fill, deadline_ms=int(args.deadline_s * 1000),
                            warn_s=args.warn_s)
        run_matrix(args.gateway, args.homeserver, args.matrix_user, settings, args.health_port)
        return 0
    specs = check_bots(args.bots) if args.service == "bots" else []
    from services.store.keys import PARTITIONS

    if args.read_lanes > PARTITIONS:  # (before a server is started for nothing)
        raise UsageError(f"--read-lanes: at most {PARTITIONS} (one per partition), not "
                         f"{args.read_lanes}")
    from bots.registry import parse_bot_spec
    from services.cli.options import use_durability

    use_durability(args)
    from services.runtime.users import pools_url, role_url

    with server_for(args, "serve") as server:
        # Its own Redis user, as `up` gives its children (on a server of yours, REDIS_URL's).
        url = (pools_url(server.url, [parse_bot_spec(s)[0] for s in specs])
               if args.service == "bots" else role_url(server.url, args.service))
        if args.service == "rules":
            from services.rules.app import run
            run(url, claim_idle_ms=args.claim_idle_ms, consumer_mode=args.consumer,
                consumer=args.name, read_lanes=args.read_lanes)
        elif args.service == "bots":
            from bots.worker import run as run_bots

            run_bots(url, specs, args.name, args.pace_ms)
        elif args.service == "projections":
            from services.cli.projections import serve as run_projections

            run_projections(url, args.name)
        elif args.service == "ladder":
            from services.cli.ladder import serve as run_ladder

            run_ladder(url, args)
        elif args.service == "gateway":
            from services.gateway.app import run as run_gateway
            from services.gateway.limits import limits_from

            run_gateway(url, args.host, args.port, limits_from(args.limit, args.trust))
    return 0


def cmd_health(args: argparse.Namespace) -> int:
    """Exit 0 when the instance (or, without --name, any instance) of a service keeps its
    heartbeat in Redis; 1 otherwise. What a container orchestrator's probe runs."""
    import asyncio

    from services.cli.options import data_dir
    from services.protocol import alive_key, heartbeat_key
    from services.runtime.shared import running_server
    from services.runtime.users import pools_url, role_url

    service = args.service if args.service != "bots" or not args.pool else f"bots:{args.pool}"
    if args.service == "bots" and not args.pool:
        raise UsageError("health bots needs --pool NAME (each pool keeps its own heartbeat)")
    key = heartbeat_key(service, args.name) if args.name else alive_key(service)

    async def exists(url: str) -> tuple[bool, str]:
        """(alive, what the instance says of itself: `ok`, or `degraded: …` with why)."""
        from services.store.connect import connect

        redis = connect(url, socket_connect_timeout=2, socket_timeout=2)
        try:
            value = cast(bytes | None, await redis.get(key))  # each role may GET its heartbeat
            if value is None:
                return False, ""
            if not args.name:  # the alive key names the instance that renewed it last
                value = cast(bytes, await redis.get(heartbeat_key(service, value.decode())) or b"")
            return True, value.decode(errors="replace")
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
        alive, status = asyncio.run(exists(url))
    if alive:
        said = f" ({status})" if status not in ("", "1", "ok") else ""
        print(f"alive: {who}{said}")
        return 0
    print(f"not alive: no heartbeat of {who} in the last few seconds")
    return 1


def gateway_limit(text: str) -> str:
    from services.gateway.limits import parse_limit

    try:
        parse_limit(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def gateway_network(text: str) -> str:
    from services.gateway.limits import check_network

    try:
        return check_network(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_gateway_options(p: Any, up: bool = False) -> None:
    p.add_argument("--host", default="127.0.0.1", help="gateway: the address to listen on")
    if not up:
        p.add_argument("--port", type=at_least(1), default=8080, help="gateway: the TCP port")
    p.add_argument("--limit", action="append", type=gateway_limit, default=[],
                   metavar="KIND=RATE/BURST|NAME=N",
                   help="gateway: requests per second and burst per client, for KIND lobby "
                        "(2/20), commands (20/40, per seat), streams (50/400) or reads (20/60); "
                        "or another limit: streams_per_token (4), streams_per_address (8), "
                        "streams_total (5000), connections_per_address (64), read_timeout_s "
                        "(10), clients (100000), table_ttl_s (1800), open_tables_per_address "
                        "(3); repeatable")
    p.add_argument("--trust", action="append", type=gateway_network, default=[],
                   metavar="NETWORK",
                   help="gateway: an address or network (127.0.0.1, 10.0.0.0/8) that the "
                        "per-address limits do not bind: a chat adapter, a proxy that limits "
                        "on its own; repeatable (`up --matrix` trusts 127.0.0.1)")
    p.add_argument("--gateway", default="" if up else "http://127.0.0.1:8080",
                   help="matrix: the gateway's URL")
    p.add_argument("--homeserver", default="",
                   help="matrix: the homeserver's URL (default $MATRIX_HOMESERVER); `local` "
                        "(up only): a throwaway Synapse on this machine, to try it out")
    p.add_argument("--matrix-user", default="",
                   help="matrix: the bot's user id, e.g. @catan:example.org (default "
                        "$MATRIX_USER; its access token in $MATRIX_TOKEN)")
    p.add_argument("--fill", default="heuristic",
                   help="matrix: the bot pool that takes the empty seats at `!catan start`")
    p.add_argument("--deadline-s", type=positive_seconds, default=120.0,
                   help="matrix: seconds a player has for each move (default 120)")
    p.add_argument("--warn-s", type=positive_seconds, default=15.0,
                   help="matrix: warn this many seconds before the default move is played")
    p.add_argument("--health-port", type=at_least(0), default=0,
                   help="matrix: serve GET /health on this port (0: none)")


def add_metrics_options(p: argparse.ArgumentParser, up: bool = False) -> None:
    p.add_argument("--metrics-port", type=at_least(0), default=0, metavar="PORT",
                   help=("serve each service's Prometheus metrics: rules on PORT, projections "
                         "PORT+1, bots PORT+2, gateway PORT+3 (docs/operations.md, Metrics)"
                         if up else "serve this service's Prometheus metrics on "
                         "http://HOST:PORT/metrics (0: none; docs/operations.md, Metrics)"))
    p.add_argument("--metrics-host", default="127.0.0.1",
                   help="the address the metrics are served on (default 127.0.0.1)")


BOTS_HELP = ("the bot pools to serve, comma-separated: shipped names (random, heuristic), or "
             "name=package.module:Factory for a Python bot by import path (pool `name`)")


def register(sub: Any) -> None:
    p = sub.add_parser("serve", help="run one service in the foreground",
                       description="Run one service in the foreground, on $REDIS_URL or on the "
                                   "embedded Valkey of the data dir (started, or attached to).")
    p.add_argument("service", choices=["rules", "bots", "projections", "gateway", "matrix",
                                       "ladder"],
                   help="rules: commands in, events out; bots: a bot worker; projections: "
                        "game summaries and tournament standings; gateway: the HTTP lobby "
                        "and game streams; matrix: the Matrix chat adapter (a gateway client); "
                        "ladder: the bot ladder's matchmaker (docs/ladder.md)")
    add_metrics_options(p)
    p.add_argument("--bots", default="random,heuristic", help=f"bots: {BOTS_HELP}")
    p.add_argument("--pace-ms", type=at_least(0, MAX_PACE_MS), default=0, metavar="MS",
                   help="bots: hold every answer after its prompt is read, as a player who "
                        "thinks: MS ms on average, each between MS/2 and 3·MS/2 (load tests: "
                        f"many games at a player's pace; at most {MAX_PACE_MS:,}; default 0, "
                        "at once)")
    p.add_argument("--claim-idle-ms", type=at_least(100), default=30_000,
                   help="rules: take over commands pending this long at a dead consumer")
    p.add_argument("--consumer", choices=["batched", "faststream"], default="batched",
                   help="rules: one XREADGROUP over the partitions per read lane (default; on a "
                        "Redis Cluster one per partition) or a FastStream subscriber per "
                        "partition (one server only, not a Cluster nor Sentinel)")
    p.add_argument("--read-lanes", type=at_least(1), default=READ_LANES, metavar="N",
                   help=f"rules, batched: read the partitions in N loops, each over its share, "
                        f"so one judges its read while another waits for its appends (default "
                        f"{READ_LANES}: more commands/s when bots play at full speed; 1 costs "
                        f"the least CPU per command when games move at a player's pace; "
                        f"benchmarks/cost.md)")
    p.add_argument("--name", default=None,
                   help="this instance's name (its consumer name and heartbeat key; default: "
                        "from the host name and process id); a replica's pod name, so that "
                        "`hexlog health SERVICE --name NAME` can probe it")
    add_gateway_options(p)
    add_ladder_options(p)
    add_durability_option(p)
    add_server_options(p)
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("health", help="is a service alive (exit 0) or not (exit 1)",
                       description="Probe a service by the heartbeat it keeps in Redis: with "
                                   "--name, that instance; otherwise any instance. For "
                                   "readiness and liveness probes (deploy/).")
    p.add_argument("service", choices=["rules", "bots", "projections"],
                   help="the service to probe (bots: with --pool)")
    p.add_argument("--name", default=None, help="the instance's `hexlog serve --name`")
    p.add_argument("--pool", default=None, help="bots: the pool whose heartbeat to check")
    add_server_options(p, log_level=False)
    p.set_defaults(func=cmd_health)

    from services.runtime.processes import restart_policy

    p = sub.add_parser("up", help="run rules, projections and a bot pool under one supervisor",
                       description="Run the rules service, the projections and a bot worker, "
                                   "restarting any that stops, until Ctrl-C. Other commands "
                                   "(play, tournament, replay --follow) attach to it. Restarts: "
                                   f"{restart_policy()}. While Redis does not answer nothing "
                                   "is started, and Redis is tried again after the same "
                                   "pauses. The embedded Valkey, killed or crashed, is started "
                                   "again from its AOF; dying again within a minute of that, "
                                   "it stops `up` (exit 1, with its log).")
    p.add_argument("--bots", default="random,heuristic", help=BOTS_HELP)
    p.add_argument("--gateway-port", type=at_least(0), default=0, metavar="PORT",
                   help="also run the HTTP gateway on PORT (0: not; see --host, --limit)")
    p.add_argument("--port", type=at_least(0), default=0, metavar="PORT",
                   help="also listen on 127.0.0.1:PORT (TCP) for bots in other languages, whose "
                        "Redis clients may not speak Unix sockets; the URL, with the "
                        "administrator's password, goes to DATA_DIR/valkey-tcp.url (0: not)")
    p.add_argument("--cluster", type=at_least(1), default=0, metavar="N",
                   help="run on an embedded Valkey Cluster of N masters (TCP ports of "
                        "127.0.0.1, data in DATA_DIR/cluster/) instead of the single embedded "
                        "server: for developing and testing against a cluster's rules (every "
                        "multi-key call in one slot); without --cluster-replicas, no failover. "
                        "Started again with the same N it keeps its games. Not with REDIS_URL "
                        "(name a cluster of your own there: redis+cluster://host:port)")
    p.add_argument("--cluster-replicas", type=at_least(0), default=0, metavar="R",
                   help="with --cluster N: R replicas per master (N·(1+R) nodes); a master "
                        "that stops answering for 2 s is replaced by its replica, and `up` "
                        "starts the dead node again as a replica (docs/operations.md, "
                        "Failover)")
    p.add_argument("--ha", action="store_true",
                   help="run on an embedded primary, a replica and three Sentinels (TCP ports "
                        "of 127.0.0.1, data in DATA_DIR/ha/) instead of the single embedded "
                        "server: the replica takes over within seconds when the primary dies, "
                        "and `up` starts the dead one again as a replica; no command "
                        "acknowledged by then is lost (docs/operations.md, Failover)")
    add_durability_option(p)
    p.add_argument("--matrix", action="store_true",
                   help="also run the Matrix adapter (--homeserver, --matrix-user, "
                        "$MATRIX_TOKEN; it plays through the gateway of --gateway-port)")
    add_gateway_options(p, up=True)
    p.add_argument("--ladder", action="store_true",
                   help="also run the bot ladder's matchmaker: bots join over the gateway of "
                        "--gateway-port and play rated games (docs/ladder.md)")
    add_ladder_options(p, up=True)
    add_metrics_options(p, up=True)
    add_server_options(p)
    p.set_defaults(func=cmd_up)


COMMANDS.append(register)
