"""The Redis and the services a command runs against, told to the user in one line each.

`server_for` gives a command its server (services/runtime/shared.py: `$REDIS_URL`, an embedded
Valkey it starts, or the one a running `hexlog up` or another command runs) and says which on
stderr, with where the data is. `services_running` makes sure a rules service and the bot
workers a command needs are there: it uses those already running when they will outlive the
command, and starts its own otherwise (any number of rules replicas and workers of one pool
may run side by side).

Imported by the command handlers only: the runtime stack (redis, psutil, the embedded Valkey)
is not loaded to build the parser.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from services.cli.errors import SITUATION, CliError, UsageError
from services.cli.options import data_dir
from services.runtime import processes
from services.runtime.shared import (
    CLUSTER_DIR,
    Server,
    kept_masters,
    kept_replicas,
    open_cluster,
    open_ha,
    open_server,
    redact,
)


def say(text: str) -> None:
    """A line for the user on stderr (stdout is the command's result)."""
    print(f"hexlog: {text}", file=sys.stderr, flush=True)


def redis_problem(url: str) -> str | None:
    """Why Redis at `url` cannot be used right now, or None when it answers."""
    import redis

    from services.store.connect import connect_sync

    client = None
    try:  # (on a Sentinel URL, finding the primary asks the Sentinels: that may fail too)
        client = connect_sync(url, socket_connect_timeout=2, socket_timeout=2)
        client.ping()
        return None
    except redis.RedisError as exc:
        return (str(exc) or type(exc).__name__).rstrip(".")
    finally:
        if client is not None:
            client.close()


@contextmanager
def server_for(args: argparse.Namespace, command: str, *, reachable: bool = True,
               cluster: int = 0, replicas: int = 0, ha: bool = False,
               existing: bool = False) -> Iterator[Server]:
    """The server for this command, said on stderr; services it starts log to
    `<data dir>/logs/`. With `reachable`, a `$REDIS_URL` that does not answer fails the
    command at once (CliError), before it starts anything. With `cluster` N, an embedded
    N-master Valkey Cluster on the data dir instead of the single embedded server (each master
    with `replicas` replicas); with `ha`, an embedded primary and replica under three Sentinels.
    With `existing`, a data dir where no server ever ran is refused (UsageError) instead of
    made: a command that only reads games would find none on a new one."""
    root = data_dir(args)
    if existing and not os.environ.get("REDIS_URL") and not root.exists():
        raise UsageError(f"no hexlog data in {root}: no server ever ran there (`hexlog up` "
                         "starts one there; point at another with --data-dir DIR, "
                         "HEXLOG_DATA_DIR=DIR or REDIS_URL=URL)")
    processes.use_log_dir(root / "logs")
    opened = open_server(root, command, say=say)
    if cluster:
        if os.environ.get("REDIS_URL"):
            raise UsageError("--cluster starts an embedded cluster, but REDIS_URL names a "
                             "server: unset it, or name your cluster in it "
                             "(REDIS_URL=redis+cluster://host:port) without --cluster")
        kept, kept_with = kept_masters(root), kept_replicas(root)
        if kept and (kept, kept_with) != (cluster, replicas):
            raise UsageError(f"the cluster kept in {root / CLUSTER_DIR} has {kept} masters"
                             f"{f' with {kept_with} replicas each' if kept_with else ''}, not "
                             f"{cluster}{f' with {replicas}' if replicas else ''}: use "
                             f"--cluster {kept}"
                             f"{f' --cluster-replicas {kept_with}' if kept_with else ''}, or "
                             "another --data-dir")
        opened = open_cluster(root, command, cluster, replicas=replicas, say=say)
    elif ha:
        if os.environ.get("REDIS_URL"):
            raise UsageError("--ha starts an embedded primary, replica and Sentinels, but "
                             "REDIS_URL names a server: unset it, or name your Sentinels in it "
                             "(REDIS_URL=redis+sentinel://host:port,host:port/NAME) without --ha")
        opened = open_ha(root, command, say=say)
    with opened as server:
        say(server.describe())
        SITUATION.server, SITUATION.owner = server.how, server.owner
        SITUATION.owner_pid, SITUATION.data_dir = server.owner_pid, str(server.data_dir)
        if reachable and server.how == "env" and (problem := redis_problem(server.url)):
            raise CliError(f"cannot reach Redis at {redact(server.url)} (REDIS_URL): {problem}. "
                           "Is the server running? Without REDIS_URL hexlog starts its own.")
        yield server


async def _serving(url: str, services: Sequence[str]) -> list[bool]:
    from services.protocol import is_serving
    from services.store.connect import connect

    redis = connect(url)
    try:
        return list(await asyncio.gather(*(is_serving(redis, s) for s in services)))
    finally:
        await redis.aclose()


@contextmanager
def services_running(server: Server, pools: Sequence[str],
                     projections: bool = False) -> Iterator[list[str]]:
    """A rules service and a worker of each bot pool (`pools` are bot specs: a shipped name, or
    `name=package.module:Factory`), for the block; yields what it started. A liveness key left
    by a killed service does not count (`is_serving`)."""
    from bots.registry import SHIPPED, parse_bot_spec
    from services.runtime.users import pools_url, role_url

    url = server.url
    names = ["rules", *(["projections"] if projections else []),
             *(f"bots:{parse_bot_spec(p)[0]}" for p in pools)]
    if server.services_outlive_us:
        alive = dict(zip(names, asyncio.run(_serving(url, names)), strict=True))
    else:  # those of another `play` end with it: run our own
        alive = dict.fromkeys(names, False)
    procs = []
    started: list[str] = []
    if not alive["rules"]:
        procs.append(processes.spawn(processes.hexlog_command("serve", "rules"),
                                     role_url(url, "rules")))
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
        procs.append(processes.spawn(
            processes.hexlog_command("serve", "bots", "--bots", ",".join(group)),
            pools_url(url, names_)))
        started.append("bots:" + ",".join(group))
    try:
        yield started
    finally:
        processes.stop(procs)
