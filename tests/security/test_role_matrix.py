"""Every role of `deploy/users.acl` (the file `hexlog acl` prints, and the rules hexlog gives
its services' users on its embedded server) against every key it does not own, on a real
Valkey and on Debian's Redis 7.0.

For each role, each kind of key a running service leaves on the server, and each operation a
hostile holder of that role's password could try — delete, overwrite, expire, rename, copy
out, trim, add with MAXLEN 0 or the maximum id, make, move or destroy a consumer group, claim
another consumer's entries, read — the server must refuse it, unless the role's job needs it
(`ALLOWED` below: what the README's threat-model table says each role may do). The test runs
every combination and reports every hole at once, not the first.

What an ACL cannot forbid — a writer trimming or poisoning its *own* command stream — is
allowed here and answered by design (each source has streams of its own): see
test_partitions.py, which performs it and watches the other sources' games go on.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from redis.exceptions import NoPermissionError, ResponseError

from services.runtime.acl import acl_words
from services.runtime.valkey import EmbeddedValkey

ACL = Path(__file__).resolve().parents[2] / "deploy" / "users.acl"
P = "hexlog:{003}"
GAME = f"{P}:g:x"
MAX_ID = "18446744073709551615-18446744073709551615"

# Every kind of key a running service leaves, by a short name.
KEYS = {
    "organisers' commands": f"{P}:cmds",
    "gateway's commands": f"{P}:cmds:gateway",
    "bot-random's commands": f"{P}:cmds:bot:random",
    "bot-heuristic's commands": f"{P}:cmds:bot:heuristic",
    "dead letters": f"{P}:cmds:dlq",
    "feed": f"{P}:feed",
    "log": f"{GAME}:ev",
    "meta": f"{GAME}:meta",
    "secret": f"{GAME}:secret",
    "outcomes": f"{GAME}:outcomes",
    "rulings": f"{GAME}:rulings",
    "snapshot": f"{GAME}:snap",
    "bot-random's prompts": f"{P}:prompts:bot:random",
    "bot-heuristic's prompts": f"{P}:prompts:bot:heuristic",
    "refusal counts": f"{GAME}:refused",
    "bot-random's refusals": f"{P}:refused:bot:random",
    "bot-heuristic's refusals": f"{P}:refused:bot:heuristic",
    "deadlines": f"{P}:deadlines",
    "game index": "hexlog:games",
    "controllers": "hexlog:controllers",
    "pool registration": "hexlog:pool:bot:random",
    "rules heartbeat": "hexlog:alive:rules",
    "rules instance": "hexlog:svc:rules:r1",
    "latency samples": "hexlog:stats:latency_us",
    "tournament keys": "hexlog:t:t-1:spec",
    "lobby keys": "hexlog:gw:t:x",
    "projection": "hexlog:proj:game:x",
    "projections heartbeat": "hexlog:alive:projections",
    "bot-random heartbeat": "hexlog:alive:bots:random",
    # The bot ladder's (docs/ladder.md): its records, pods and settings; a ladder game's
    # credentials and a duplicate set's seed (the gateway's alone); the ratings; the prompt
    # streams of its seats (nobody reads them), its controller, its matchmaker's heartbeat.
    "ladder keys": "hexlog:ladder:bot:b-0123456789ab",
    "ladder game credentials": "hexlog:gw:ladder:lad-0123456789ab:secret",
    "ladder ratings": "hexlog:proj:ladder:boards",
    "ladder seats' prompts": f"{P}:prompts:human:ladder",
    "ladder pool registration": "hexlog:pool:human:ladder",
    "ladder heartbeat": "hexlog:alive:ladder",
    "ladder instance": "hexlog:svc:ladder:l1",
}
STREAMS = {name for name, key in KEYS.items() if any(
    part in key for part in (":cmds", ":feed", ":ev", ":rulings", ":prompts", "}:refused"))}

Op = Callable[[redis.Redis, str], Any]

# Operations on one key. Reads are listed apart: a role may read what its job needs.
WRITES: dict[str, Op] = {
    "DEL": lambda c, k: c.delete(k),
    "UNLINK": lambda c, k: c.unlink(k),
    "SET": lambda c, k: c.set(k, "x"),
    "EXPIRE": lambda c, k: c.expire(k, 1),
    "PERSIST": lambda c, k: c.persist(k),
    "RENAME": lambda c, k: c.rename(k, k + ":moved"),
    "COPY out": lambda c, k: c.copy(k, "hexlog:gw:t:stolen"),
    "HSET": lambda c, k: c.hset(k, "f", "v"),
    "ZADD": lambda c, k: c.zadd(k, {"m": 1}),
    "SADD": lambda c, k: c.sadd(k, "m"),
    "RPUSH": lambda c, k: c.rpush(k, "x"),
    "XADD": lambda c, k: c.xadd(k, {"x": "1"}),
    "XADD MAXLEN 0": lambda c, k: c.xadd(k, {"x": "1"}, maxlen=0),
    "XADD maximum id": lambda c, k: c.xadd(k, {"x": "1"}, id=MAX_ID),
    "XTRIM": lambda c, k: c.xtrim(k, maxlen=0),
    "XDEL": lambda c, k: c.xdel(k, "1-0"),
    "XGROUP CREATE": lambda c, k: c.xgroup_create(k, "spy", id="0"),
    "XGROUP SETID": lambda c, k: c.xgroup_setid(k, "rules", id="$"),
    "XGROUP DESTROY": lambda c, k: c.xgroup_destroy(k, "rules"),
    "XGROUP DELCONSUMER": lambda c, k: c.xgroup_delconsumer(k, "rules", "r1"),
    "XAUTOCLAIM": lambda c, k: c.xautoclaim(k, "rules", "spy", 0, "0-0"),
    "XCLAIM": lambda c, k: c.xclaim(k, "rules", "spy", 0, ["0-1"]),
    "XREADGROUP": lambda c, k: c.xreadgroup("rules", "spy", {k: ">"}),
    "XACK": lambda c, k: c.xack(k, "rules", "0-1"),
}
READS: dict[str, Op] = {
    "TYPE": lambda c, k: c.type(k),
    "DUMP": lambda c, k: c.dump(k),
    "GET": lambda c, k: c.get(k),
    "HGETALL": lambda c, k: c.hgetall(k),
    "HGET": lambda c, k: c.hget(k, "org:create"),
    "XRANGE": lambda c, k: c.xrange(k),
    "XREAD": lambda c, k: c.xread({k: "0-0"}),
    "XINFO STREAM": lambda c, k: c.xinfo_stream(k),
    "ZRANGE": lambda c, k: c.zrange(k, 0, -1),
    "SMEMBERS": lambda c, k: c.smembers(k),
}
# Whole-server operations no service role may run.
ADMIN: dict[str, Callable[[redis.Redis], Any]] = {
    "FLUSHALL": lambda c: c.flushall(),
    "FLUSHDB": lambda c: c.flushdb(),
    "KEYS": lambda c: c.keys("*"),
    "ACL SETUSER": lambda c: c.execute_command("ACL", "SETUSER", "default", "on", "nopass"),
    "ACL LIST": lambda c: c.execute_command("ACL", "LIST"),
    "CONFIG GET": lambda c: c.config_get("*"),
    "CONFIG SET": lambda c: c.config_set("appendonly", "no"),
    "REPLICAOF": lambda c: c.execute_command("REPLICAOF", "127.0.0.1", "1"),
    "BGSAVE": lambda c: c.bgsave(),
    "SHUTDOWN": lambda c: c.execute_command("SHUTDOWN", "NOSAVE"),
    "CLIENT KILL": lambda c: c.execute_command("CLIENT", "KILL", "TYPE", "normal"),
    "MIGRATE": lambda c: c.execute_command("MIGRATE", "127.0.0.1", "1", "", "0", "10", "KEYS",
                                           KEYS["secret"]),
    "PUBLISH": lambda c: c.publish("x", "y"),
}
SCRIPTS: dict[str, Callable[[redis.Redis], Any]] = {
    "EVAL": lambda c: c.eval("return redis.call('hgetall', KEYS[1])", 1, KEYS["secret"]),
    "FUNCTION LOAD": lambda c: c.execute_command(
        "FUNCTION", "LOAD", "#!lua name=spy\nredis.register_function('spy', function() return 1 end)"),
}

ROLES = ("organiser", "gateway", "projections", "ladder", "bot-random", "rules")

READ_ALL = set(READS)
XADD_ANY = {"XADD", "XADD MAXLEN 0", "XADD maximum id"}
OWN_COMMANDS = XADD_ANY  # the one thing a writer may do to its command stream

# What each role's job needs: (operation, key name). Everything else must be refused.
ALLOWED: dict[str, set[tuple[str, str]]] = {
    "organiser": {
        *((op, "organisers' commands") for op in OWN_COMMANDS),
        *((op, k) for op in READ_ALL for k in (
            "log", "meta", "rulings", "outcomes", "refusal counts", "feed", "game index",
            "pool registration",
            "rules heartbeat", "rules instance", "latency samples", "projection",
            "projections heartbeat", "bot-random heartbeat", "tournament keys",
            "ladder ratings", "ladder pool registration", "ladder heartbeat",
            "ladder instance")),
        *((op, "tournament keys") for op in ("DEL", "SET", "HSET", "RPUSH")),
    },
    "gateway": {
        *((op, "gateway's commands") for op in OWN_COMMANDS),
        *((op, k) for op in READ_ALL for k in (
            "log", "meta", "rulings", "outcomes", "refusal counts", "deadlines", "game index",
            "pool registration", "rules heartbeat", "projections heartbeat",
            "bot-random heartbeat", "lobby keys", "ladder game credentials", "ladder keys",
            "ladder ratings", "ladder pool registration", "ladder heartbeat")),
        *((op, k) for op in ("DEL", "SET", "ZADD", "EXPIRE")
          for k in ("lobby keys", "ladder game credentials")),
        # The ladder's records, readiness and pods (it makes the pods games: their group).
        *((op, "ladder keys") for op in ("DEL", "SET", "ZADD", "EXPIRE", *XADD_ANY,
                                         "XGROUP CREATE", "XREADGROUP", "XACK",
                                         "XAUTOCLAIM")),
    },
    "projections": {
        *((op, k) for op in READ_ALL for k in ("log", "meta", "refusal counts", "game index",
                                               "projection")),
        *((op, "feed") for op in ("XRANGE", "XREAD", "XREADGROUP", "XACK", "XAUTOCLAIM",
                                  "XGROUP CREATE")),
        *((op, k) for op in READ_ALL for k in ("ladder ratings",)),
        *((op, k) for op in ("DEL", "UNLINK", "SET", "HSET")
          for k in ("projection", "ladder ratings")),
        *((op, "projections heartbeat") for op in ("SET", "GET", "DEL")),
    },
    "ladder": {  # the matchmaker: no game credential, no command stream, no log
        *((op, k) for op in READ_ALL for k in (
            "feed", "meta", "ladder keys", "ladder ratings", "rules heartbeat",
            "projections heartbeat", "bot-random heartbeat", "ladder heartbeat")),
        *((op, "ladder keys") for op in ("DEL", "SET", "EXPIRE", "HSET", "ZADD", *XADD_ANY)),
        ("XTRIM", "ladder seats' prompts"),
        ("HSET", "ladder pool registration"),
        *((op, k) for op in ("SET", "GET", "DEL") for k in ("ladder heartbeat",
                                                            "ladder instance")),
    },
    "bot-random": {
        *((op, "bot-random's commands") for op in OWN_COMMANDS),
        *((op, "bot-random's prompts") for op in ("XREADGROUP", "XACK", "XAUTOCLAIM",
                                                  "XGROUP CREATE")),
        *((op, "bot-random's refusals") for op in ("XRANGE", "XREAD")),
        ("HSET", "pool registration"),
        *((op, "bot-random heartbeat") for op in ("SET", "GET", "DEL")),
    },
}


class DebianRedis:
    """Debian's redis-server (7.0 on this machine kind) on a private Unix socket."""

    def __init__(self, root: Path) -> None:
        self.socket_path = root / "redis.sock"
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.fail("redis-server is not installed: scripts/system-packages installs it "
                        "(Debian package redis-server); the ACL must hold on Redis too")
        self.proc = subprocess.Popen(
            [binary, "--port", "0", "--unixsocket", str(self.socket_path), "--save", "",
             "--appendonly", "no", "--dir", str(root)], stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while not self.socket_path.exists():
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


@pytest.fixture(scope="module", params=["valkey", "redis"])
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[Path]:
    """A server with deploy/users.acl applied (and a test administrator); its socket."""
    root = tmp_path_factory.mktemp(request.param)
    if request.param == "valkey":
        valkey = EmbeddedValkey(root / "data").start()
        socket, stop = valkey.socket_path, valkey.stop
    else:
        debian = DebianRedis(root)
        socket, stop = debian.socket_path, debian.stop
    admin = redis.Redis(unix_socket_path=str(socket))
    admin.execute_command("ACL", "SETUSER", "test-admin", "on", ">admin", "~*", "&*", "+@all")
    lines = [acl_words(line) for line in ACL.read_text().splitlines() if line.strip()]
    for words in sorted(lines, key=lambda w: w[0] == "default"):
        admin.execute_command("ACL", "SETUSER", *words)
    yield socket
    stop()


def admin_of(socket: Path) -> redis.Redis:
    return redis.Redis(unix_socket_path=str(socket), username="test-admin", password="admin")


def as_role(socket: Path, role: str) -> redis.Redis:
    return redis.Redis(unix_socket_path=str(socket), username=role,
                       password=f"change-me-{role}")


def build_world(admin: redis.Redis) -> None:
    """Every key of KEYS, of the type a running service gives it, with a group `rules` and a
    pending entry on every stream (claimable), as the services leave them."""
    admin.flushall()
    for name, key in KEYS.items():
        if name in STREAMS:
            admin.xadd(key, {"__data__": '{"seed": "5eed", "credential": "c0"}'}, id="1-0")
            admin.xgroup_create(key, "rules", id="0")
            admin.xreadgroup("rules", "r1", {key: ">"})
        elif name in ("meta", "secret", "outcomes", "snapshot", "pool registration",
                      "refusal counts", "ladder pool registration"):
            admin.hset(key, mapping={"org:create": '{"sealed": "x"}', "seed": "5eed"})
        elif name in ("deadlines", "game index", "latency samples"):
            admin.zadd(key, {"x|1|0": 1})
        elif name == "controllers":
            admin.sadd(key, "bot:random")
        else:
            admin.set(key, "1")


def refused(call: Callable[[], Any]) -> bool | str:
    """True if the server refused the call for want of permission; else what happened."""
    try:
        call()
    except NoPermissionError:
        return True
    except ResponseError as exc:
        return f"ran (answered {str(exc)[:60]!r})"
    return "ran"


pytestmark = pytest.mark.single_server  # servers of its own: once per pass is enough


@pytest.mark.parametrize("role", ROLES)
def test_a_role_can_touch_only_what_its_job_needs(server: Path, role: str) -> None:
    admin = admin_of(server)
    build_world(admin)
    attacker = as_role(server, role)
    holes: list[str] = []
    for name, key in KEYS.items():
        for op, call in {**WRITES, **READS}.items():
            if role == "rules" or (op, name) in ALLOWED[role]:
                continue
            outcome = refused(lambda call=call, key=key: call(attacker, key))
            if outcome is not True:
                holes.append(f"{op} {name} ({key}): {outcome}")
                build_world(admin)  # what it changed must not hide the next hole
    for op, whole in ADMIN.items():
        outcome = refused(lambda whole=whole: whole(attacker))
        if outcome is not True:
            holes.append(f"{op}: {outcome}")
    if role != "rules":  # the rules service runs its own scripts (and only loads them)
        for op, script in SCRIPTS.items():
            outcome = refused(lambda script=script: script(attacker))
            if outcome is not True:
                holes.append(f"{op}: {outcome}")
    assert not holes, f"{role} may do {len(holes)} thing(s) it must not:\n" + "\n".join(holes)


@pytest.mark.parametrize("role", [r for r in ROLES if r != "rules"])
def test_a_role_can_do_its_job(server: Path, role: str) -> None:
    """The other half of the table: everything ALLOWED works, so the matrix above is not
    passing because a role can do nothing at all."""
    admin = admin_of(server)
    failures: list[str] = []
    for op, name in sorted(ALLOWED[role]):
        build_world(admin)
        call = {**WRITES, **READS}[op]
        try:
            call(as_role(server, role), KEYS[name])
        except NoPermissionError as exc:
            failures.append(f"{op} {name}: {exc}")
        except ResponseError:
            pass  # permitted, and answered by the data (a wrong type for this key, say)
    assert not failures, f"{role} cannot do its job:\n" + "\n".join(failures)


def test_the_rules_service_can_repair_its_streams(server: Path) -> None:
    """The owner of the command streams may put a broken one aside (stream_guard.py)."""
    admin = admin_of(server)
    build_world(admin)
    admin.delete(KEYS["gateway's commands"])
    admin.set(KEYS["gateway's commands"], "x")
    rules = as_role(server, "rules")
    rules.rename(KEYS["gateway's commands"], f"{P}:quarantine:cmds:gateway:1")
    rules.xgroup_create(KEYS["gateway's commands"], "rules", id="0", mkstream=True)
    assert admin.type(KEYS["gateway's commands"]) == b"stream"
