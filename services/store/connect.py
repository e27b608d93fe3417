"""One way to open a client for a hexlog URL, on a single server or on a Redis Cluster.

A Cluster is named by its scheme, `redis+cluster://host:port` (or `rediss+cluster://`): any one
node is enough, the client learns the others (CLUSTER SLOTS). Everything else (`redis://`,
`unix://`) is a single server. The scheme is explicit rather than probed because clients are
made synchronously, before any I/O.

Why one `Redis` type for both: every call hexlog makes on a client (Lua by EVALSHA on one
game's keys, streams of one partition, non-transactional pipelines) is one that redis-py's
`RedisCluster` offers with the same signature, and every multi-key call stays in one slot
(services/store/keys.py), so the call sites do not branch. Where the two differ (reading
several partitions at once, flushing, ACL users) `is_cluster` says which one we hold.
"""

from __future__ import annotations

from typing import Any, cast
from urllib.parse import quote

import hiredis
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.connection import AbstractConnection
from redis.typing import EncodableT

CLUSTER_SCHEMES = {"redis+cluster": "redis", "rediss+cluster": "rediss"}
# redis-py 8 caps an asyncio pool at 100 connections unless told otherwise, and a process
# that follows many games at once (a tournament at --concurrency 128: each game's follower
# blocks on a connection of its own) then fails with "Too many connections". The commands'
# own limits (services/cli/options.py MAX_CONCURRENCY) keep well below this.
MAX_CONNECTIONS = 4096


SCHEMES = ("redis", "rediss", "unix", *CLUSTER_SCHEMES)


class BadUrlError(ValueError):
    """A Redis URL hexlog cannot use; the message names the accepted forms."""


def check_url(url: str, name: str = "REDIS_URL") -> str:
    """`url` if a client can be made for it, else BadUrlError naming `name` and the schemes."""
    from redis.asyncio.connection import parse_url

    scheme, sep, _ = url.partition("://")
    forms = ", ".join(f"{s}://" for s in SCHEMES)
    if not sep or scheme not in SCHEMES:
        raise BadUrlError(f"{name}: {scheme + sep if sep else repr(url[:40])} is not a Redis "
                          f"URL; accepted schemes: {forms} (e.g. redis://localhost:6379/0, "
                          "unix:///path/to/valkey.sock, redis+cluster://host:7000)")
    try:
        parse_url(plain_url(url))
    except ValueError as exc:
        raise BadUrlError(f"{name}: {exc}").with_traceback(None) from None
    return url


def is_cluster_url(url: str) -> bool:
    return url.split("://", 1)[0] in CLUSTER_SCHEMES


def plain_url(url: str) -> str:
    """The URL of the one node a cluster URL names (for tools that speak to one server)."""
    scheme, sep, rest = url.partition("://")
    return f"{CLUSTER_SCHEMES.get(scheme, scheme)}{sep}{rest}"


def connect(url: str, **kwargs: Any) -> Redis:
    """An asyncio client for `url`: `RedisCluster` for a cluster URL, else `Redis`."""
    kwargs.setdefault("max_connections", MAX_CONNECTIONS)
    if is_cluster_url(url):
        return cast(Redis, RedisCluster.from_url(plain_url(url), **kwargs))
    client = Redis.from_url(url, **kwargs)
    pool = client.connection_pool
    pool.connection_class = packed_by_hiredis(pool.connection_class)
    return client


_PACKED: dict[type[AbstractConnection], type[AbstractConnection]] = {}


def packed_by_hiredis(base: type[AbstractConnection]) -> type[AbstractConnection]:
    """`base` (TCP, TLS or unix socket) with its commands packed by hiredis's C packer.

    redis-py's asyncio connections pack every command in Python even when hiredis is installed
    (its sync ones use hiredis); in the rules service that packing was a tenth of the process's
    time (benchmarks/README.md, "Where the time goes"). Arguments hiredis does not take (a bool,
    None) go to redis-py's packer, which refuses them with its own error."""
    if base in _PACKED.values():
        return base
    if base not in _PACKED:

        class HiredisPacked(base):  # type: ignore[valid-type,misc]
            def pack_command(self, *args: EncodableT) -> list[bytes]:
                head = args[0]
                if isinstance(head, str) and " " in head:  # "SCRIPT LOAD": two words, two args
                    args = (*head.split(), *args[1:])
                try:
                    return [hiredis.pack_command(cast(Any, args))]
                except TypeError:
                    return cast(list[bytes], super().pack_command(*args))

        HiredisPacked.__name__ = HiredisPacked.__qualname__ = f"HiredisPacked{base.__name__}"
        _PACKED[base] = HiredisPacked
    return _PACKED[base]


def user_url(url: str, user: str, password: str) -> str:
    """`url` logged in as `user` (any credentials it had replaced)."""
    scheme, _, rest = url.partition("://")
    netloc, slash, path = rest.partition("/") if not rest.startswith("/") else ("", "", rest)
    host = netloc.rpartition("@")[2]
    auth = f"{quote(user, safe='')}:{quote(password, safe='')}@"
    if not netloc:  # unix:///path: the "host" is the socket path
        return f"{scheme}://{auth}{path if path.startswith('/') else '/' + path}"
    return f"{scheme}://{auth}{host}{slash}{path}"


def is_cluster(redis: Any) -> bool:
    return isinstance(redis, RedisCluster)


def decodes_responses(redis: Redis) -> bool:
    if is_cluster(redis):
        return bool(cast(Any, redis).get_encoder().decode_responses)
    return bool(redis.connection_pool.connection_kwargs.get("decode_responses"))


async def on_every_node(redis: Redis, *args: Any) -> Any:
    """A server-wide command (ACL SETUSER, CLIENT KILL, CONFIG SET) on the one server, or on
    every node of a cluster: each node has its own users and settings. (redis-py's node flags
    such as "all" are not honoured by its asyncio cluster client for these commands, so the
    nodes are named.)"""
    if is_cluster(redis):
        return await cast(Any, redis).execute_command(*args, target_nodes=cast(Any, redis).get_nodes())
    return await cast(Any, redis).execute_command(*args)


async def flush_everything(redis: Redis) -> None:
    """FLUSHALL on every primary (a cluster) or on the one server."""
    if is_cluster(redis):
        await cast(Any, redis).flushall(target_nodes=cast(Any, redis).get_primaries())
    else:
        await redis.flushall()
