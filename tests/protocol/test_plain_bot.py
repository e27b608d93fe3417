"""A bot that knows hexlog only from docs/protocol.md plays a whole game.

`examples/bots/plain_bot.py` imports nothing of hexlog (redis-py and the standard library). It
runs here as a real process under the Redis user a bot pool gets (services/runtime/acl.py), so
it can reach nothing the document does not give it, against a real `hexlog serve rules` on the
session's server. It registers its pool itself, as the document says; it plays every seat, and
every move of the game must be one it sent: no deadline default, no dead letter.
"""

from __future__ import annotations

import ast
import asyncio
import os
import secrets
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from redis.asyncio import Redis
from service_helpers import Worker, create_request, wait_started

from events.events import GameFinished
from services.client import Client
from services.runtime.acl import acl_words, pool_rules, pool_user
from services.runtime.valkey import EmbeddedValkey
from services.store.connect import on_every_node, user_url
from services.store.keys import PARTITIONS, dlq_key

ROOT = Path(__file__).parents[2]
BOT = ROOT / "examples" / "bots" / "plain_bot.py"
POOL = "plain"


def prompt_stream(game: str) -> str:
    from services.protocol import prompts_key
    from services.store.keys import partition

    return prompts_key(partition(game), f"bot:{POOL}")


def prompt_fields(entries: list[Any]) -> set[str]:
    assert entries, "no prompt entry left to compare"
    return {k.decode() for k in entries[0][1]} - {"view"}  # this pool declared needs_view=0


def documented_fields() -> set[str]:
    """The fields of a prompt entry in docs/protocol.md §4's table (less `view`)."""
    text = (ROOT / "docs" / "protocol.md").read_text()
    table = text.split("| Field | Meaning |", 1)[1].split("\n\n", 1)[0]
    return {line.split("`")[1] for line in table.splitlines() if line.startswith("| `")} - {"view"}


def test_the_plain_bot_imports_nothing_of_hexlog() -> None:
    tree = ast.parse(BOT.read_text())
    imported = {alias.name.split(".")[0] for node in ast.walk(tree)
                if isinstance(node, ast.Import | ast.ImportFrom)
                for alias in (node.names if isinstance(node, ast.Import) else [ast.alias(node.module or "")])}
    assert imported <= {"__future__", "argparse", "hashlib", "hmac", "json", "os", "random",
                        "signal", "time", "uuid", "typing", "redis"}, imported


@pytest.fixture
async def pool_url(redis_client: Redis, valkey_server: EmbeddedValkey) -> str:
    """A Redis user for the pool with exactly the rights `hexlog acl` gives a bot pool."""
    password = secrets.token_urlsafe(16)
    words = acl_words(f"user {pool_user(POOL)} on resetkeys resetchannels -@all >{password} "
                      f"{pool_rules(POOL)}")
    await on_every_node(redis_client, "ACL", "SETUSER", *words)  # a Cluster: each node's users
    return user_url(valkey_server.url, pool_user(POOL), password)


@pytest.fixture
def plain_bot(pool_url: str, tmp_path: Path) -> Iterator[Callable[[], subprocess.Popen[bytes]]]:
    started: list[subprocess.Popen[bytes]] = []

    def start() -> subprocess.Popen[bytes]:
        log = (tmp_path / "plain-bot.log").open("wb")
        proc = subprocess.Popen([sys.executable, str(BOT), "--pool", POOL, "--url", pool_url],
                                stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
                                cwd=tmp_path)
        log.close()
        started.append(proc)
        return proc

    yield start
    for proc in started:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


# On one server and (in the cluster pass) on a Cluster, where it reads each partition by itself.
async def test_the_plain_bot_plays_every_seat_of_a_game_to_the_end(
        redis_client: Redis, processes: Callable[..., Worker],
        plain_bot: Callable[[], subprocess.Popen[bytes]], tmp_path: Path) -> None:
    rules = processes("rules")
    await wait_started(redis_client, rules)
    bot = plain_bot()
    for _ in range(200):  # the bot registers its pool itself (docs/protocol.md §3)
        if await redis_client.exists(f"hexlog:alive:bots:{POOL}"):
            break
        await asyncio.sleep(0.05)
    assert await redis_client.hget(f"hexlog:pool:bot:{POOL}", "needs_view") == b"0"
    client = Client(redis_client)
    request = create_request("g-plain", controllers=(f"bot:{POOL}",) * 4, deadline_ms=60_000,
                             turn_limit=0)
    await client.create_game(request)
    finished = None
    async with asyncio.timeout(240):
        async for env in client.follow("g-plain"):
            if isinstance(env.event, GameFinished):
                finished = env
                break
    assert finished is not None
    assert finished.event.reason == "victory"
    assert finished.event.winner is not None
    log = await client.events("g-plain")
    movers = {env.command_id.split(":", 1)[0] for env in log[1:]}
    assert movers == {POOL}, movers  # every move the bot's: none played by a deadline
    for p in range(PARTITIONS):
        assert await redis_client.xlen(dlq_key(p)) == 0  # every command authenticated
    assert prompt_fields(await redis_client.xrange(prompt_stream("g-plain"), count=1)) == documented_fields()
    bot.send_signal(signal.SIGTERM)
    assert bot.wait(10) == 0
    assert "answered" in (tmp_path / "plain-bot.log").read_text()
