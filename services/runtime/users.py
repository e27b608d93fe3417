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

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast
from urllib.parse import quote

import redis

from services.runtime.acl import acl_words, pool_rules, pool_user, rules_for


@dataclass
class EmbeddedUsers:
    """The users made so far on one embedded server, by name, with their URLs."""

    socket_path: str
    admin_password: str
    urls: dict[str, str] = field(default_factory=dict)

    def admin(self) -> redis.Redis:
        return redis.Redis(unix_socket_path=self.socket_path, password=self.admin_password)

    def make(self, user: str, rules: str) -> str:
        """Create (or reset) `user` with `rules` and a new password; its URL."""
        password = secrets.token_urlsafe(24)
        words = acl_words(f"user {user} on resetpass resetkeys resetchannels -@all "
                          f">{password} {rules}")
        client = self.admin()
        try:
            cast(Any, client).execute_command("ACL", "SETUSER", *words)  # selectors: no helper
        finally:
            client.close()
        url = f"unix://{quote(user, safe='')}:{quote(password, safe='')}@{self.socket_path}"
        self.urls[user] = url
        return url


_SERVERS: dict[str, EmbeddedUsers] = {}  # admin URL -> its users


def register(admin_url: str, users: EmbeddedUsers) -> None:
    _SERVERS[admin_url] = users


def forget(admin_url: str) -> None:
    _SERVERS.pop(admin_url, None)


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
