"""A hostile bot given by import path: it plays like the random bot, but first tries, with the
Redis URL its worker process was given (and without it), everything a cheat would want. What
it manages is written to `$HEXLOG_SPY_REPORT` (JSON: attack -> "refused: …" or "ALLOWED")."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from bots.random_bot import RandomBot

P = "hexlog:{000}"


def attacks(r: redis.Redis) -> dict[str, Callable[[], Any]]:
    return {
        "list the games": lambda: r.zrange("hexlog:games", 0, -1),
        "scan for keys": lambda: r.scan(0, match="hexlog:*"),
        "read a game's secrets": lambda: r.hgetall(f"{P}:g:x:secret"),
        "read a game's meta": lambda: r.hgetall(f"{P}:g:x:meta"),
        "claim the organisers' commands": lambda: r.xautoclaim(f"{P}:cmds", "rules", "spy", 0, "0-0"),
        "read the organisers' commands": lambda: r.xrange(f"{P}:cmds"),
        "read another pool's prompts": lambda: r.xrange(f"{P}:prompts:bot:random"),
        "send for another pool": lambda: r.xadd(f"{P}:cmds:bot:random", {"__data__": "{}"}),
        "send a forfeit": lambda: r.xadd(f"{P}:cmds", {"__data__": "{}", "kind": "forfeit"}),
        "read a tournament's spec (its seed)": lambda: r.keys("hexlog:t:*"),
        "run a script": lambda: r.eval("return redis.call('KEYS', '*')", 0),
        "change its own rights": lambda: r.execute_command("ACL", "SETUSER", "default", "on"),
    }


def attempt(report: dict[str, str], name: str, call: Callable[[], Any]) -> None:
    try:
        call()
        report[name] = "ALLOWED"
    except (redis.exceptions.NoPermissionError, redis.exceptions.AuthenticationError,
            redis.exceptions.AuthenticationWrongNumberOfArgsError,
            redis.exceptions.ConnectionError) as exc:  # refused at the handshake
        report[name] = f"refused: {exc}"
    except redis.exceptions.ResponseError as exc:
        report[name] = f"refused: {exc}" if "NOPERM" in str(exc) or "auth" in str(exc).lower() \
            else f"ALLOWED (error: {exc})"


def spy() -> dict[str, str]:
    url = os.environ["REDIS_URL"]
    report: dict[str, str] = {"whoami": urlsplit(url).username or ""}
    mine = redis.Redis.from_url(url)
    for name, call in attacks(mine).items():
        attempt(report, f"as itself: {name}", call)
    # The same socket without the worker's credentials (the default user).
    socket = urlsplit(url).path
    anonymous = redis.Redis(unix_socket_path=socket, retry=Retry(NoBackoff(), 0))
    for name, call in attacks(anonymous).items():
        attempt(report, f"anonymously: {name}", call)
    return report


class SpyBot(RandomBot):
    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        path = os.environ.get("HEXLOG_SPY_REPORT")
        if path and not os.path.exists(path):
            with open(path, "w") as f:
                json.dump(spy(), f, indent=1)
