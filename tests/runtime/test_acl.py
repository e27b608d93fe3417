"""deploy/users.acl on a real server: each service's user can do its job and nothing else.

The file is applied line by line with ACL SETUSER (the same rules as `aclfile`), the default
user last: the embedded server's readiness check connects as the default user, so the file
cannot be loaded at start-up. Every attack below is a command a hostile bot, projection or
organiser might try; each must be refused by the server itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

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


Attack = Callable[[redis.Redis], Any]

BOT_ATTACKS: list[tuple[str, Attack]] = [
    ("claim the organisers' commands (their bodies)",
     lambda b: b.xautoclaim(f"{P}:cmds", "rules", "spy", 0, "0-0")),
    ("claim its own pool's commands from the rules group",
     lambda b: b.xautoclaim(f"{P}:cmds:bot:random", "rules", "spy", 0, "0-0")),
    ("claim by id", lambda b: b.xclaim(f"{P}:cmds", "rules", "spy", 0, ["0-1"])),
    ("make a group on a command stream", lambda b: b.xgroup_create(f"{P}:cmds", "spy", id="0")),
    ("make a group on its own command stream",
     lambda b: b.xgroup_create(f"{P}:cmds:bot:random", "spy", id="0")),
    ("read a command stream", lambda b: b.xrange(f"{P}:cmds")),
    ("read its own command stream", lambda b: b.xrange(f"{P}:cmds:bot:random")),
    ("add to the organisers' stream (create, forfeit)",
     lambda b: b.xadd(f"{P}:cmds", {"__data__": "{}", "kind": "forfeit"})),
    ("trim another pool's commands", lambda b: b.xadd(f"{P}:cmds:bot:heuristic", {"x": 1}, maxlen=0)),
    ("poison the organisers' stream with the maximum id",
     lambda b: b.xadd(f"{P}:cmds", {"x": 1}, id="18446744073709551615-18446744073709551615")),
    ("trim a stream", lambda b: b.xtrim(f"{P}:cmds:bot:random", maxlen=0)),
    ("set a future command stream's key", lambda b: b.set("{004}:cmds:bot:random", "x")),
    ("set its own command stream's key", lambda b: b.set(f"{P}:cmds:bot:random", "x")),
    ("delete its own command stream", lambda b: b.delete(f"{P}:cmds:bot:random")),
    ("read the seed", lambda b: b.hgetall(f"{GAME}:secret")),
    ("read meta", lambda b: b.hgetall(f"{GAME}:meta")),
    ("read the log", lambda b: b.xrange(f"{GAME}:ev")),
    ("read an outcome", lambda b: b.hget(f"{GAME}:outcomes", "s0:c1")),
    ("read another pool's prompts", lambda b: b.xrange(f"{P}:prompts:bot:heuristic")),
    ("claim another pool's prompts",
     lambda b: b.xautoclaim(f"{P}:prompts:bot:heuristic", "workers", "spy", 0, "0-0")),
    ("delete a log", lambda b: b.delete(f"{GAME}:ev")),
    ("add to a log", lambda b: b.xadd(f"{GAME}:ev", {"__data__": "{}"})),
    ("mark a game finished", lambda b: b.hset(f"{GAME}:meta", "status", "finished")),
    ("register another pool", lambda b: b.hset("hexlog:pool:bot:heuristic", "needs_view", 0)),
    ("fake another pool's heartbeat", lambda b: b.set("hexlog:alive:bots:heuristic", "x")),
    ("fake the rules service's heartbeat", lambda b: b.set("hexlog:alive:rules", "x")),
    ("run a script", lambda b: b.eval("return 1", 0)),
    ("list the keys", lambda b: b.keys("*")),
    ("scan the keys", lambda b: b.scan(0)),
    ("change its rights", lambda b: b.execute_command("ACL", "SETUSER", "bot-random", "+@all")),
    ("flush", lambda b: b.flushall()),
    ("read the config", lambda b: b.config_get("*")),
    ("subscribe", lambda b: b.publish("x", "y")),
]

PROJECTION_ATTACKS: list[tuple[str, Attack]] = [
    ("read the seed", lambda c: c.hgetall(f"{GAME}:secret")),
    ("read an outcome (credentials of a created game)",
     lambda c: c.hget(f"{GAME}:outcomes", "org:create")),
    ("read prompts", lambda c: c.xrange(f"{P}:prompts:bot:random")),
    ("read the commands", lambda c: c.xrange(f"{P}:cmds")),
    ("claim the commands", lambda c: c.xautoclaim(f"{P}:cmds", "rules", "spy", 0, "0-0")),
    ("delete a log", lambda c: c.delete(f"{GAME}:ev")),
    ("add to a log", lambda c: c.xadd(f"{GAME}:ev", {"__data__": "{}"})),
    ("add to the feed", lambda c: c.xadd(f"{P}:feed", {"game": "x"})),
    ("change meta", lambda c: c.hset(f"{GAME}:meta", "status", "finished")),
    ("send a command", lambda c: c.xadd(f"{P}:cmds", {"__data__": "{}"})),
    ("run a script", lambda c: c.eval("return 1", 0)),
    ("flush", lambda c: c.flushall()),
]

ORGANISER_ATTACKS: list[tuple[str, Attack]] = [
    ("read the seed", lambda c: c.hgetall(f"{GAME}:secret")),
    ("read prompts (turn keys)", lambda c: c.xrange(f"{P}:prompts:bot:random")),
    ("send as a bot pool", lambda c: c.xadd(f"{P}:cmds:bot:random", {"__data__": "{}"})),
    ("add to a log", lambda c: c.xadd(f"{GAME}:ev", {"__data__": "{}"})),
    ("change meta", lambda c: c.hset(f"{GAME}:meta", "status", "finished")),
    ("forge an outcome", lambda c: c.hset(f"{GAME}:outcomes", "s0:c2", "{}")),
    ("run a script", lambda c: c.eval("return 1", 0)),
    ("flush", lambda c: c.flushall()),
]

GATEWAY_ATTACKS: list[tuple[str, Attack]] = [
    ("read the seed and credentials", lambda c: c.hgetall(f"{GAME}:secret")),
    ("read prompts (turn keys)", lambda c: c.xrange(f"{P}:prompts:bot:random")),
    ("send as a bot pool", lambda c: c.xadd(f"{P}:cmds:bot:random", {"__data__": "{}"})),
    ("read the commands", lambda c: c.xrange(f"{P}:cmds")),
    ("claim the commands", lambda c: c.xautoclaim(f"{P}:cmds", "rules", "spy", 0, "0-0")),
    ("add to a log", lambda c: c.xadd(f"{GAME}:ev", {"__data__": "{}"})),
    ("delete a log", lambda c: c.delete(f"{GAME}:ev")),
    ("change meta", lambda c: c.hset(f"{GAME}:meta", "status", "finished")),
    ("forge an outcome", lambda c: c.hset(f"{GAME}:outcomes", "s0:c2", "{}")),
    ("add to the feed", lambda c: c.xadd(f"{P}:feed", {"game": "x"})),
    ("move a deadline", lambda c: c.zadd(f"{P}:deadlines", {"x|1|0": 0})),
    ("register a bot pool", lambda c: c.hset("hexlog:pool:bot:random", "needs_view", 0)),
    ("fake the rules service's heartbeat", lambda c: c.set("hexlog:alive:rules", "x")),
    ("write a tournament's keys", lambda c: c.set("hexlog:t:t-1:spec", "{}")),
    ("run a script", lambda c: c.eval("return 1", 0)),
    ("list the keys", lambda c: c.keys("*")),
    ("flush", lambda c: c.flushall()),
    ("change users", lambda c: c.execute_command("ACL", "SETUSER", "gateway", "+@all")),
]

RULES_ATTACKS: list[tuple[str, Attack]] = [
    ("change users", lambda c: c.execute_command("ACL", "SETUSER", "bot-random", "+@all")),
    ("flush", lambda c: c.flushall()),
    ("change the config", lambda c: c.config_set("appendonly", "no")),
]


# Each role against what it must not do: (user, what, attack).
FORBIDDEN: list[tuple[str, str, Attack]] = [
    *(("bot-random", what, attack) for what, attack in BOT_ATTACKS),
    *(("projections", what, attack) for what, attack in PROJECTION_ATTACKS),
    *(("organiser", what, attack) for what, attack in ORGANISER_ATTACKS),
    *(("gateway", what, attack) for what, attack in GATEWAY_ATTACKS),
    *(("rules", what, attack) for what, attack in RULES_ATTACKS),
]


@pytest.mark.parametrize(("user", "what", "attack"), FORBIDDEN,
                         ids=[f"{user} cannot {what}" for user, what, _ in FORBIDDEN])
def test_a_role_cannot_do_what_it_must_not(server: EmbeddedValkey, world: redis.Redis, user: str,
                                           what: str, attack: Attack) -> None:
    with pytest.raises(NoPermissionError):
        attack(client(server, user))
