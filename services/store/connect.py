"""One way to open a client for a hexlog URL: a single server, a Redis Cluster, or a primary
watched by Sentinel.

A Cluster is named by its scheme, `redis+cluster://host:port` (or `rediss+cluster://`): any one
node is enough, the client learns the others (CLUSTER SLOTS); `host:port,host:port,…` names
several, so that a client can start while one of them is down. A primary with replicas under
Sentinel is `redis+sentinel://[user:password@]host:port,host:port,…/NAME[/db]` (or
`rediss+sentinel://`): the sentinels' addresses and the name they monitor the primary by; the
user and password are those of the data nodes, and `?sentinel_username=U&sentinel_password=P`
authenticates to the sentinels when they require it. Everything else (`redis://`, `unix://`)
is a single server. The scheme is explicit rather than probed because clients are made
synchronously, before any I/O.

Why one `Redis` type for all three: every call hexlog makes on a client (Lua by EVALSHA on one
game's keys, streams of one partition, non-transactional pipelines) is one that redis-py's
`RedisCluster` offers with the same signature, and every multi-key call stays in one slot
(services/store/keys.py), so the call sites do not branch; a Sentinel client is a plain `Redis`
whose connections ask the sentinels where the primary is. Where they differ (reading several
partitions at once, flushing, ACL users) `is_cluster` says which one we hold.

Failover: on a Sentinel or Cluster URL a command cut by the loss of its primary is sent again,
for up to FAILOVER_PATIENCE_S, to whichever node the sentinels (or the cluster's slot map) name
next. A command sent twice may have run twice: hexlog's writes are idempotent by command id
(the store's scripts) or harmless when doubled (a command entry: the service answers its id
once); docs/operations.md, "Failover".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import parse_qs, quote, unquote

import hiredis
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.connection import AbstractConnection, Connection
from redis.asyncio.retry import Retry
from redis.asyncio.sentinel import Sentinel, SentinelManagedConnection
from redis.backoff import ExponentialWithJitterBackoff
from redis.typing import EncodableT

CLUSTER_SCHEMES = {"redis+cluster": "redis", "rediss+cluster": "rediss"}
SENTINEL_SCHEMES = {"redis+sentinel": "redis", "rediss+sentinel": "rediss"}
# redis-py 8 caps an asyncio pool at 100 connections unless told otherwise, and a process
# that follows many games at once (a tournament at --concurrency 128: each game's follower
# blocks on a connection of its own) then fails with "Too many connections". The commands'
# own limits (services/cli/options.py MAX_CONCURRENCY) keep well below this.
MAX_CONNECTIONS = 4096
# How long a command cut by a failover keeps being sent again. A Sentinel promotes a replica
# about 2 s after its primary dies (down-after 1 s), a cluster about 3.5 s after (node timeout
# 2 s): measured on the embedded sets (benchmarks/failover.md); the rest is margin.
FAILOVER_PATIENCE_S = 30.0
RETRY_CAP_S = 0.25

SCHEMES = ("redis", "rediss", "unix", *CLUSTER_SCHEMES, *SENTINEL_SCHEMES)
EXAMPLES = ("redis://localhost:6379/0, unix:///path/to/valkey.sock, redis+cluster://host:7000, "
            "redis+sentinel://host:26379,host:26380,host:26381/hexlog")


class BadUrlError(ValueError):
    """A Redis URL hexlog cannot use; the message names the accepted forms."""


class BadSettingError(ValueError):
    """An environment setting hexlog cannot use (HEXLOG_DURABILITY, HEXLOG_VALKEY_MALLOC); the
    message names the variable and what it may be."""


@dataclass(frozen=True)
class SentinelUrl:
    """What a `redis+sentinel://` URL says: where the sentinels are, the name of the primary
    they watch, and how to log in to the data nodes (and to the sentinels)."""

    sentinels: tuple[tuple[str, int], ...]
    service: str
    db: int = 0
    username: str | None = None
    password: str | None = None
    sentinel_username: str | None = None
    sentinel_password: str | None = None
    tls: bool = False


def parse_sentinel_url(url: str) -> SentinelUrl:
    """The parts of a Sentinel URL, or BadUrlError saying which is wrong."""
    scheme, sep, rest = url.partition("://")
    if scheme not in SENTINEL_SCHEMES or not sep:
        raise BadUrlError(f"{url[:40]!r} is not a redis+sentinel:// URL")
    rest, _, query = rest.partition("?")
    auth, at, hosts_and_path = rest.rpartition("@")
    if not at:
        auth, hosts_and_path = "", rest
    hosts, _, path = hosts_and_path.partition("/")
    sentinels: list[tuple[str, int]] = []
    for host in filter(None, hosts.split(",")):
        name, colon, port = host.rpartition(":")
        if not colon or not name or not port.isdigit() or not 0 < int(port) < 65_536:
            raise BadUrlError(f"sentinel address {host!r} is not host:port")
        sentinels.append((name, int(port)))
    if not sentinels:
        raise BadUrlError("a redis+sentinel:// URL names at least one sentinel (host:port)")
    service, _, db = path.partition("/")
    if not service:
        raise BadUrlError("a redis+sentinel:// URL ends with the name the sentinels monitor "
                          "the primary by (…/hexlog)")
    if db and not db.isdigit():
        raise BadUrlError(f"database {db!r} is not a number")
    user, colon, password = auth.partition(":")
    options = {k: v[0] for k, v in parse_qs(query).items()}
    unknown = sorted(set(options) - {"sentinel_username", "sentinel_password"})
    if unknown:
        raise BadUrlError(f"unknown option {unknown[0]!r} (sentinel_username, "
                          "sentinel_password)")
    return SentinelUrl(
        sentinels=tuple(sentinels), service=unquote(service), db=int(db or 0),
        username=unquote(user) or None, password=unquote(password) if colon else None,
        sentinel_username=options.get("sentinel_username"),
        sentinel_password=options.get("sentinel_password"),
        tls=scheme == "rediss+sentinel")


def check_url(url: str, name: str = "REDIS_URL") -> str:
    """`url` if a client can be made for it, else BadUrlError naming `name` and the schemes."""
    from redis.asyncio.connection import parse_url

    scheme, sep, _ = url.partition("://")
    forms = ", ".join(f"{s}://" for s in SCHEMES)
    if not sep or scheme not in SCHEMES:
        raise BadUrlError(f"{name}: {scheme + sep if sep else repr(url[:40])} is not a Redis "
                          f"URL; accepted schemes: {forms} (e.g. {EXAMPLES})")
    try:
        if is_sentinel_url(url):
            parse_sentinel_url(url)
        else:
            parse_url(plain_url(url))
            for host, port in cluster_nodes(url)[1:]:
                if not host or not 0 < port < 65_536:
                    raise ValueError(f"cluster node {host}:{port} is not host:port")
    except ValueError as exc:
        raise BadUrlError(f"{name}: {exc}").with_traceback(None) from None
    return url


def is_cluster_url(url: str) -> bool:
    return url.split("://", 1)[0] in CLUSTER_SCHEMES


def is_sentinel_url(url: str) -> bool:
    return url.split("://", 1)[0] in SENTINEL_SCHEMES


def fails_over(url: str) -> bool:
    """Whether the URL names a set whose primaries are replaced on failure (a Cluster, or a
    primary under Sentinel): its clients follow a failover."""
    return is_cluster_url(url) or is_sentinel_url(url)


def plain_url(url: str) -> str:
    """The URL of one node, for tools that speak to one server: the (first) node a cluster URL
    names, or the primary the sentinels name now (asked over the network: redis.ConnectionError
    if no sentinel knows one)."""
    if is_sentinel_url(url):
        return primary_url(url)
    scheme, sep, rest = url.partition("://")
    if scheme in CLUSTER_SCHEMES:
        rest = _with_host(rest, rest.rpartition("@")[2].split("/")[0].split(",")[0])
    return f"{CLUSTER_SCHEMES.get(scheme, scheme)}{sep}{rest}"


def _with_host(rest: str, host: str) -> str:
    """`[auth@]hosts[/path]` with `hosts` replaced by `host`."""
    auth, at, tail = rest.rpartition("@")
    _, slash, path = tail.partition("/")
    return f"{auth}{at}{host}{slash}{path}"


def cluster_nodes(url: str) -> list[tuple[str, int]]:
    """The nodes a cluster URL names, in order."""
    hosts = url.partition("://")[2].rpartition("@")[2].split("/")[0].split("?")[0]
    nodes = []
    for host in hosts.split(","):
        name, _, port = host.rpartition(":")
        nodes.append((name, int(port) if port.isdigit() else 0))
    return nodes


def primary_url(url: str, timeout: float = 2.0) -> str:
    """`redis://user:password@host:port/db` of the primary a Sentinel URL's sentinels name."""
    import redis.sentinel

    s = parse_sentinel_url(url)
    sentinel = redis.sentinel.Sentinel(list(s.sentinels), sentinel_kwargs=_sentinel_auth(s, timeout))
    try:
        host, port = sentinel.discover_master(s.service)
    finally:
        for client in sentinel.sentinels:
            client.close()
    auth = ""
    if s.username or s.password:
        auth = f"{quote(s.username or '', safe='')}:{quote(s.password or '', safe='')}@"
    return f"{'rediss' if s.tls else 'redis'}://{auth}{host}:{port}/{s.db}"


def _sentinel_auth(s: SentinelUrl, timeout: float) -> dict[str, Any]:
    kwargs: dict[str, Any] = {"socket_timeout": timeout, "socket_connect_timeout": timeout}
    if s.sentinel_password is not None:
        kwargs["password"] = s.sentinel_password
        kwargs["username"] = s.sentinel_username
    if s.tls:
        kwargs["ssl"] = True
    return kwargs


def failover_retry() -> Retry:
    """Send a command cut by a failover again, with growing pauses up to RETRY_CAP_S, for
    about FAILOVER_PATIENCE_S in all (each pause averages half the cap, once it is reached)."""
    return Retry(ExponentialWithJitterBackoff(cap=RETRY_CAP_S, base=0.05),
                 int(FAILOVER_PATIENCE_S / (RETRY_CAP_S / 2)))


def connect(url: str, **kwargs: Any) -> Redis:
    """An asyncio client for `url`: `RedisCluster` for a cluster URL, the primary under
    Sentinel for a Sentinel URL, else `Redis`."""
    kwargs.setdefault("max_connections", MAX_CONNECTIONS)
    if is_cluster_url(url):
        from redis.asyncio.cluster import ClusterNode

        kwargs.setdefault("retry", failover_retry())
        others = [ClusterNode(host, port) for host, port in cluster_nodes(url)[1:]]
        if others:
            kwargs.setdefault("startup_nodes", others)
        return cast(Redis, RedisCluster.from_url(plain_url(url), **kwargs))
    if is_sentinel_url(url):
        kwargs.setdefault("retry", failover_retry())
        return connect_sentinel(url, **kwargs)
    client = Redis.from_url(url, **kwargs)
    pool = client.connection_pool
    pool.connection_class = packed_by_hiredis(pool.connection_class)
    return client


class SentinelPrimary(Redis):
    """The client of the primary a set of sentinels watches; closing it closes its
    connections to the sentinels too."""

    watchers: Sentinel | None = None

    async def aclose(self, close_connection_pool: bool | None = None) -> None:
        await super().aclose(close_connection_pool)
        if self.watchers is not None:
            await self.watchers.aclose()


class _SentinelConnection(SentinelManagedConnection):
    """A connection that asks the sentinels where the primary is every time it (re)connects.
    redis-py's asks only when the pool hands the connection out: a command sent again after
    its primary died would knock at the dead primary's door until its retries ran out.

    A connection the pool hands out connects with the failover's patience (the pool does that
    outside any command's retry); one that reconnects to send a command again makes one
    attempt, the command's own retry (failover_retry) making the next."""

    async def connect(self) -> None:
        await self.retry.call_with_retry(self.connect_check_health, _no_cleanup)

    async def connect_check_health(self, check_health: bool = True,
                                   retry_socket_connect: bool = True) -> None:
        if self.is_connected:
            return
        pool: Any = self.connection_pool
        if pool.is_master:
            self.host, self.port = await pool.get_master_address()
        await Connection.connect_check_health(self, check_health=check_health,
                                              retry_socket_connect=False)


async def _no_cleanup(error: Exception) -> None:
    """Nothing to undo after a failed connect (the retry's failure handler)."""


def connect_sentinel(url: str, **kwargs: Any) -> Redis:
    s = parse_sentinel_url(url)
    timeout = kwargs.get("socket_connect_timeout") or 2.0
    sentinel = Sentinel(list(s.sentinels), sentinel_kwargs=_sentinel_auth(s, timeout))
    base: type[AbstractConnection] = _SentinelConnection
    if s.tls:
        from redis.asyncio.connection import SSLConnection

        base = type("_SentinelSSLConnection", (_SentinelConnection, SSLConnection), {})
    client = cast(SentinelPrimary, sentinel.master_for(
        s.service, redis_class=SentinelPrimary, connection_class=packed_by_hiredis(base),
        db=s.db, username=s.username, password=s.password, **kwargs))
    client.watchers = sentinel
    return client


def connect_sync(url: str, **kwargs: Any) -> Any:
    """A synchronous `redis.Redis` on one node for `url`, for probes and administration: the
    primary, for a Sentinel URL; for a cluster URL, the first node it names that answers."""
    import redis

    if not is_cluster_url(url) or len(cluster_nodes(url)) == 1:
        return redis.Redis.from_url(plain_url(url), **kwargs)
    scheme, sep, rest = url.partition("://")
    for host, port in cluster_nodes(url):
        client = redis.Redis.from_url(
            f"{CLUSTER_SCHEMES[scheme]}{sep}{_with_host(rest, f'{host}:{port}')}", **kwargs)
        try:
            client.ping()
            return client
        except redis.RedisError:
            client.close()
    return redis.Redis.from_url(plain_url(url), **kwargs)  # fails as the first node does


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
                return self.pack_commands([args])

            def pack_commands(self, commands: Iterable[Iterable[EncodableT]]) -> list[bytes]:
                """A pipeline in one buffer, each command packed by hiredis (redis-py's loop
                over each command's chunks cost half as much again as the packing)."""
                packed: list[bytes] = []
                for command in commands:
                    args = tuple(command)
                    head = args[0]
                    if isinstance(head, str) and " " in head:  # "SCRIPT LOAD": two args
                        args = (*head.split(), *args[1:])
                    try:
                        packed.append(hiredis.pack_command(cast(Any, args)))
                    except TypeError:
                        packed.extend(super().pack_command(*args))
                return [b"".join(packed)]

        HiredisPacked.__name__ = HiredisPacked.__qualname__ = f"HiredisPacked{base.__name__}"
        _PACKED[base] = HiredisPacked
    return _PACKED[base]


def user_url(url: str, user: str, password: str) -> str:
    """`url` logged in as `user` (any credentials it had replaced; on a Sentinel URL the
    sentinels' login too, when the URL has one)."""
    scheme, _, rest = url.partition("://")
    rest, question, query = rest.partition("?")
    netloc, slash, path = rest.partition("/") if not rest.startswith("/") else ("", "", rest)
    host = netloc.rpartition("@")[2]
    auth = f"{quote(user, safe='')}:{quote(password, safe='')}@"
    if is_sentinel_url(url) and "sentinel_password" in parse_qs(query):
        query = (f"sentinel_username={quote(user, safe='')}"
                 f"&sentinel_password={quote(password, safe='')}")
    tail = f"{question}{query}" if query else ""
    if not netloc:  # unix:///path: the "host" is the socket path
        return f"{scheme}://{auth}{path if path.startswith('/') else '/' + path}{tail}"
    return f"{scheme}://{auth}{host}{slash}{path}{tail}"


def is_cluster(redis: Any) -> bool:
    return isinstance(redis, RedisCluster)


def is_sentinel(redis: Any) -> bool:
    return isinstance(redis, SentinelPrimary)


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
