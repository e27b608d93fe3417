"""deploy/users.acl on a real server: each service's user can do its job and nothing else.

The file is applied line by line with ACL SETUSER (the same rules as `aclfile`), the default
user last: the embedded server's readiness check connects as the default user, so the file
cannot be loaded at start-up. Here: each role doing its job; what each must not do is
tests/security/test_role_matrix.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from redis.exceptions import NoPermissionError

from services.runtime.acl import acl_words, pool_rules, users_acl
from services.runtime.valkey import EmbeddedValkey

ACL = Path(__file__).resolve().parents[2] / "deploy" / "users.acl"
P = "hexlog:{003}"
GAME = f"{P}:g:x"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedValkey]:
    s = EmbeddedValkey(tmp_path_factory.mktemp("acl") / "data").start()
    admin = redis.Redis(unix_socket_path=str(s.socket_path))
    # The test's own administrator (not in the file), to add users the tests need.
    admin.execute_command("ACL", "SETUSER", "test-admin", "on", ">admin", "~*", "&*", "+@all")
    lines = [acl_words(line) for line in ACL.read_text().splitlines() if line.strip()]
    for words in sorted(lines, key=lambda w: w[0] == "default"):
        admin.execute_command("ACL", "SETUSER", *words)
    yield s
    s.stop()  # SIGTERM: needs no user


def client(server: EmbeddedValkey, user: str) -> redis.Redis:
    return redis.Redis(unix_socket_path=str(server.socket_path), username=user,
                       password=f"change-me-{user}")


@pytest.fixture
def world(server: EmbeddedValkey) -> redis.Redis:
    """What a running service leaves on the server: a game with its secrets, a handled command
    on a pool's stream and on the organisers' stream, prompts of two pools, an outcome."""
    rules = client(server, "rules")
    rules.flushdb() if False else None  # the rules user may not flush (checked below)
    for key in rules.scan_iter(match="hexlog:*"):
        rules.delete(key)
    rules.hset(f"{GAME}:meta", mapping={"version": 1, "status": "live"})
    rules.hset(f"{GAME}:secret", mapping={"seed": "00" * 32, "credentials": '["c0"]'})
    rules.xadd(f"{GAME}:ev", {"__data__": "{}"}, id="1-0")
    for stream in (f"{P}:cmds", f"{P}:cmds:bot:random"):
        rules.xgroup_create(stream, "rules", id="0", mkstream=True)
        rules.xadd(stream, {"__data__": '{"seed": "secret", "credential": "c0"}'})
        rules.xreadgroup("rules", "r1", {stream: ">"})  # delivered, pending: claimable
    rules.xadd(f"{P}:prompts:bot:random", {"seat": "0", "key": "k"})
    rules.xadd(f"{P}:prompts:bot:heuristic", {"seat": "1", "key": "k"})
    rules.hset(f"{GAME}:outcomes", "s0:c1", '{"status": "accepted"}')
    rules.xadd(f"{P}:feed", {"game": "x", "from": 1, "to": 1})
    return rules


def test_the_file_is_what_the_code_generates() -> None:
    """deploy/users.acl and the embedded server's users come from one description."""
    assert ACL.read_text() == users_acl(["random", "heuristic"])


def test_the_default_user_is_off(server: EmbeddedValkey) -> None:
    with pytest.raises(redis.exceptions.AuthenticationError):
        redis.Redis(unix_socket_path=str(server.socket_path)).ping()


def test_a_bot_pool_does_its_job(server: EmbeddedValkey, world: redis.Redis) -> None:
    bot = client(server, "bot-random")
    bot.xgroup_create(f"{P}:prompts:bot:random", "workers", id="0")
    assert bot.xreadgroup("workers", "w1", {f"{P}:prompts:bot:random": ">"}, count=1)
    bot.xautoclaim(f"{P}:prompts:bot:random", "workers", "w2", 0, "0-0")
    bot.xack(f"{P}:prompts:bot:random", "workers", "0-1")
    bot.xadd(f"{P}:cmds:bot:random", {"__data__": "{}", "mac": "00"})
    bot.hset("hexlog:pool:bot:random", mapping={"needs_view": 1})
    bot.set("hexlog:alive:bots:random", "w1", ex=3)
    bot.set("hexlog:svc:bots:random:w1", "1", ex=3)
    bot.delete("hexlog:svc:bots:random:w1")


def test_a_worker_of_several_pools_reads_all_their_prompts_in_one_call(
    server: EmbeddedValkey, world: redis.Redis
) -> None:
    """A command must be allowed whole by one selector: a two-pool worker's XREADGROUP over
    both pools' prompt streams needs one selector that names both."""
    admin = redis.Redis(unix_socket_path=str(server.socket_path), username="test-admin",
                        password="admin")
    words = acl_words(f"user bot-two on resetkeys -@all >pw {pool_rules('random', 'heuristic')}")
    admin.execute_command("ACL", "SETUSER", *words)
    two = redis.Redis(unix_socket_path=str(server.socket_path), username="bot-two", password="pw")
    streams = {f"{P}:prompts:bot:random": "0", f"{P}:prompts:bot:heuristic": "0"}
    for stream in streams:
        two.xgroup_create(stream, "workers2", id="0")
    assert len(two.xreadgroup("workers2", "w", streams)) == 2
    with pytest.raises(NoPermissionError):
        two.xrange(f"{P}:cmds:bot:random")


def test_the_organiser_does_its_job(server: EmbeddedValkey, world: redis.Redis) -> None:
    org = client(server, "organiser")
    org.xadd(f"{P}:cmds", {"__data__": "{}", "kind": "create"})
    assert org.xrange(f"{GAME}:ev")
    assert org.hgetall(f"{GAME}:meta")
    assert org.hget(f"{GAME}:outcomes", "s0:c1")
    org.rpush("hexlog:t:runs:abc", "t-1")
    org.set("hexlog:t:t-1:spec", "{}")
    assert org.exists("hexlog:alive:rules") == 0


def test_projections_do_their_job(server: EmbeddedValkey, world: redis.Redis) -> None:
    proj = client(server, "projections")
    proj.xgroup_create(f"{P}:feed", "projections", id="0")
    assert proj.xreadgroup("projections", "p1", {f"{P}:feed": ">"})
    assert proj.xrevrange(f"{GAME}:ev", count=1)
    assert proj.hgetall(f"{GAME}:meta")
    proj.hset("hexlog:proj:game:x", mapping={"version": 1})
    proj.set("hexlog:alive:projections", "p1", ex=3)


def test_the_gateway_does_its_job(server: EmbeddedValkey, world: redis.Redis) -> None:
    gw = client(server, "gateway")
    gw.xadd(f"{P}:cmds:gateway", {"__data__": "{}", "mac": "00"})
    gw.xadd(f"{P}:cmds:gateway", {"__data__": "{}", "kind": "create"})
    assert gw.xread({f"{GAME}:ev": "0-0"}, count=10)
    assert gw.hgetall(f"{GAME}:meta")
    assert gw.hget(f"{GAME}:outcomes", "s0:c1")
    gw.zscore(f"{P}:deadlines", "x|1|0")
    gw.exists("hexlog:pool:bot:random")
    gw.exists("hexlog:alive:rules")
    gw.set("hexlog:gw:t:x", "{}", ex=60)
    gw.zadd("hexlog:gw:tables", {"x": 1.0})
    gw.zremrangebyscore("hexlog:gw:tables", 0, 0.5)
    with gw.pipeline(transaction=True) as pipe:
        pipe.watch("hexlog:gw:t:x")
        pipe.multi()
        pipe.set("hexlog:gw:t:x", "{}", keepttl=True)
        pipe.execute()
    gw.delete("hexlog:gw:t:x")


# What each role must not do, every role against every kind of key and every operation, on
# Valkey and on Redis: tests/security/test_role_matrix.py.
