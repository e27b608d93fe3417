"""Redis users for the services hexlog starts on its own embedded server.

When `hexlog` runs the server itself it also makes the users of `acl.py` on it, each with a
fresh random password, and hands every child process the URL of its own user: the rules
service runs as `rules`, projections as `projections`, a bot worker as its pools' user. A bot
given by import path therefore runs in a process that can reach nothing but its own prompts and
command streams. (It is not an operating-system sandbox: code running as your user can read
your files, the data directory included. For bots you do not trust, run them on another
machine or account, against a server with `deploy/users.acl`.)

With `REDIS_URL` (a server you run), nothing is made: every service gets that URL, and the
users are yours to set up from `deploy/users.acl`.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast
from urllib.parse import quote

import redis

from services.runtime.acl import acl_words, pool_rules, pool_user, rules_for
from services.store.connect import cluster_nodes, parse_sentinel_url, user_url


@dataclass
class EmbeddedUsers:
    """The users this process made so far on one embedded server, by name, with their URLs.

    Several `hexlog` commands may share one server (services/runtime/shared.py), each making
    the same users (`rules`, `organiser`, a pool's) for its own services. So a user is never
    reset: each command *adds* a password of its own to it, and one that attached to another
    command's server takes its passwords away again when it ends (`attached`); the services of
    the other commands keep theirs."""

    socket_path: str
    admin_password: str
    attached: bool = False
    urls: dict[str, str] = field(default_factory=dict)
    passwords: list[tuple[str, str]] = field(default_factory=list)
    made: list[list[str]] = field(default_factory=list)  # each ACL SETUSER, for `make_again`

    def admin(self) -> redis.Redis:
        return redis.Redis(unix_socket_path=self.socket_path, password=self.admin_password)

    def make(self, user: str, rules: str) -> str:
        """Create `user` with `rules` (or set them again: the same rules) and add a new
        password to it; its URL."""
        password = secrets.token_urlsafe(24)
        words = acl_words(f"user {user} on resetkeys resetchannels clearselectors -@all "
                          f">{password} {rules}")
        self._setuser(words)
        self.made.append(words)
        self.passwords.append((user, password))
        url = self.url_of(user, password)
        self.urls[user] = url
        return url

    def make_again(self) -> int:
        """Every user this process made, with the same rules and passwords, on a server that
        lost them (it was started again: ACL users live in memory only). How many."""
        for words in self.made:
            self._setuser(words)
        return len(self.made)

    def url_of(self, user: str, password: str) -> str:
        return f"unix://{quote(user, safe='')}:{quote(password, safe='')}@{self.socket_path}"

    def drop_passwords(self) -> None:
        """Remove the passwords this process added (best effort: the server may be gone)."""
        for user, password in self.passwords:
            with contextlib.suppress(redis.RedisError, OSError):
                self._setuser([user, f"<{password}"])
        self.passwords.clear()

    def _setuser(self, words: list[str]) -> None:
        client = self.admin()
        try:
            cast(Any, client).execute_command("ACL", "SETUSER", *words)  # selectors: no helper
        finally:
            client.close()


@dataclass
class ClusterUsers(EmbeddedUsers):
    """The same users on every node of an embedded cluster (`hexlog up --cluster`): each node
    keeps its own ACL, so each change is made on all of them. A service's URL names the cluster
    as the admin URL does (`redis+cluster://user:password@127.0.0.1:port`)."""

    admin_url: str = ""

    def url_of(self, user: str, password: str) -> str:
        return user_url(self.admin_url, user, password)

    def _setuser(self, words: list[str]) -> None:
        from redis.cluster import ClusterNode, RedisCluster

        node: Any = ClusterNode  # untyped in redis-py
        named = [node(host, port) for host, port in cluster_nodes(self.admin_url)]
        client: Any = RedisCluster(startup_nodes=named, password=self.admin_password or None,
                                   socket_connect_timeout=2)
        try:
            nodes = [(n.host, n.port) for n in client.get_nodes()]
        finally:
            client.close()
        on_each(nodes, self.admin_password, words)


@dataclass
class SentinelUsers(EmbeddedUsers):
    """The same users on every data node of a set watched by Sentinels (`hexlog up --ha`),
    and on every Sentinel with the rights to ask where the primary is and nothing more: a
    service logs in to both with one user and password (its URL names the Sentinels' login
    too). ACL users are not replicated: each node keeps its own."""

    admin_url: str = ""

    def url_of(self, user: str, password: str) -> str:
        return user_url(self.admin_url, user, password)

    def _setuser(self, words: list[str]) -> None:
        from services.runtime.ha import data_nodes
        from services.runtime.replication_acl import SENTINEL_CLIENT_RULES

        s = parse_sentinel_url(self.admin_url)
        on_each(data_nodes(s.sentinels, s.service, self.admin_password), self.admin_password,
                words)
        if "resetkeys" in words:  # a user made: on a Sentinel, the asking rights only
            password = next(i for i, w in enumerate(words) if w.startswith(">"))
            words = [*words[:password + 1], *SENTINEL_CLIENT_RULES.split()]
        on_each(list(s.sentinels), self.admin_password, words)


def on_each(nodes: Sequence[tuple[str, int]], admin_password: str, words: list[str]) -> None:
    """ACL SETUSER on every node that answers. A node that is down gets the users when it is
    started again (services/runtime/ha.py `revive` copies them from a live node); if none
    answers, the error."""
    failure: Exception | None = None
    done = 0
    for host, port in nodes:
        client: Any = redis.Redis(host=host, port=port, password=admin_password or None,
                                  socket_connect_timeout=2, socket_timeout=5)
        try:
            client.execute_command("ACL", "SETUSER", *words)
            done += 1
        except (redis.ConnectionError, redis.TimeoutError) as exc:
            failure = exc
        finally:
            client.close()
    if not done and failure is not None:
        raise failure


_SERVERS: dict[str, EmbeddedUsers] = {}  # admin URL -> its users


def register(admin_url: str, users: EmbeddedUsers) -> None:
    _SERVERS[admin_url] = users


def forget(admin_url: str) -> None:
    users = _SERVERS.pop(admin_url, None)
    if users is not None and users.attached:
        users.drop_passwords()


def role_url(url: str, role: str) -> str:
    """The URL a service of `role` (rules, organiser, projections) should use: its own user
    on an embedded server hexlog runs, else `url` itself."""
    users = _SERVERS.get(url)
    if users is None:
        return url
    return users.urls.get(role) or users.make(role, rules_for(role))


def pools_url(url: str, pools: Sequence[str]) -> str:
    """The URL of a bot worker serving `pools` (pool names): a user that may reach those
    pools' prompts and command streams and nothing else."""
    users = _SERVERS.get(url)
    if users is None:
        return url
    name = pool_user("+".join(sorted(pools)))
    return users.urls.get(name) or users.make(name, pool_rules(*sorted(pools)))
