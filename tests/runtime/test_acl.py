"""deploy/users.acl on a real server: a bot pool can send commands and take its own prompts,
and nothing else — not the log, not the seed in meta, not another pool's prompts."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from redis.exceptions import NoPermissionError

from services.runtime.valkey import EmbeddedValkey

ACL = Path(__file__).resolve().parents[2] / "deploy" / "users.acl"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedValkey]:
    """A server with the file's users. They are applied line by line with ACL SETUSER (the
    same rules as `aclfile`), the default user last: the embedded server's readiness check
    connects as the default user, so the file cannot be loaded at start-up."""
    s = EmbeddedValkey(tmp_path_factory.mktemp("acl") / "data").start()
    admin = redis.Redis(unix_socket_path=str(s.socket_path))
    lines = [line.split() for line in ACL.read_text().splitlines() if line.strip()]
    assert all(words[0] == "user" for words in lines), "an ACL file holds only user lines"
    for words in sorted(lines, key=lambda w: w[1] == "default"):
        admin.execute_command("ACL", "SETUSER", *words[1:])
    yield s
    s.stop()  # SIGTERM: needs no user


def client(server: EmbeddedValkey, user: str, password: str) -> redis.Redis:
    return redis.Redis(unix_socket_path=str(server.socket_path), username=user, password=password)


def test_the_default_user_is_off(server: EmbeddedValkey) -> None:
    with pytest.raises(redis.exceptions.AuthenticationError):
        redis.Redis(unix_socket_path=str(server.socket_path)).ping()


def test_a_bot_pool_sends_commands_and_takes_its_own_prompts(server: EmbeddedValkey) -> None:
    rules = client(server, "rules", "change-me-rules")
    rules.xadd("hexlog:{003}:prompts:bot:random", {"seat": "0"})
    rules.hset("hexlog:{003}:g:x:meta", mapping={"seed": "secret"})
    rules.xadd("hexlog:{003}:g:x:ev", {"__data__": "{}"}, id="1-0")
    bot = client(server, "bot-random", "change-me-bot-random")
    bot.xgroup_create("hexlog:{003}:prompts:bot:random", "workers", id="0")
    entries = bot.xreadgroup("workers", "w1", {"hexlog:{003}:prompts:bot:random": ">"}, count=1)
    assert entries
    bot.xadd("hexlog:{003}:cmds", {"__data__": "{}"})
    bot.set("hexlog:alive:bots:random", "w1", ex=3)


@pytest.mark.parametrize(
    ("what", "call"),
    [
        ("the seed in meta", lambda b: b.hgetall("hexlog:{003}:g:x:meta")),
        ("the log", lambda b: b.xrange("hexlog:{003}:g:x:ev")),
        ("another pool's prompts", lambda b: b.xrange("hexlog:{003}:prompts:bot:heuristic")),
        ("reading the command streams", lambda b: b.xrange("hexlog:{003}:cmds")),
        ("deleting a log", lambda b: b.delete("hexlog:{003}:g:x:ev")),
        ("running scripts", lambda b: b.eval("return 1", 0)),
    ],
)
def test_a_bot_pool_cannot_touch(server: EmbeddedValkey, what: str, call: object) -> None:
    bot = client(server, "bot-random", "change-me-bot-random")
    with pytest.raises(NoPermissionError):
        call(bot)  # type: ignore[operator]
