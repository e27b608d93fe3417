"""`hexlog health`: what a container's readiness and liveness probes run (deploy/). It answers
from the heartbeats the services keep in Redis, never starts a server of its own, and an
instance is found by the name it was served under (`hexlog serve --name`, a pod's name)."""

from __future__ import annotations

import time

import redis
from cli_helpers import Hexlog, one_line_error

from services.rules.set_aside import FIRST_PAUSE_S


def wait_alive(hexlog: Hexlog, *args: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if hexlog.run("health", *args).code == 0:
            return
        time.sleep(0.5)
    raise AssertionError(f"hexlog health {' '.join(args)} never answered alive")


def test_health_finds_a_named_instance_and_not_another(hexlog: Hexlog) -> None:
    rules = hexlog.start("serve", "rules", "--name", "rules-pod-0")
    wait_alive(hexlog, "rules", "--name", "rules-pod-0")
    assert hexlog.run("health", "rules").code == 0  # any instance
    other = hexlog.run("health", "rules", "--name", "rules-pod-1")
    assert other.code == 1
    assert "not alive" in other.out
    assert hexlog.run("health", "projections").code == 1  # nobody serves projections
    rules.terminate()
    rules.wait(timeout=30)


def test_health_of_a_bot_pool_and_without_any_server(hexlog: Hexlog) -> None:
    none = hexlog.run("health", "rules")
    assert none.code == 1
    assert "no server running" in none.out
    assert not (hexlog.data / "valkey.url").exists()  # the probe started nothing
    one_line_error(hexlog.run("health", "bots"), 2, "--pool")
    bots = hexlog.start("serve", "bots", "--bots", "random", "--name", "bots-pod-0")
    wait_alive(hexlog, "bots", "--pool", "random", "--name", "bots-pod-0")
    assert hexlog.run("health", "bots", "--pool", "heuristic").code == 1
    bots.terminate()
    bots.wait(timeout=30)


def test_health_says_when_the_rules_service_sets_a_stream_aside(hexlog: Hexlog) -> None:
    """One command stream the rules service cannot read (here: a server whose ACL no longer
    lets its user touch `hexlog:{005}:cmds`) stops no other partition; the service stays
    alive, and `hexlog health rules` names the stream and why (services/rules/stream_guard.py)."""
    rules = hexlog.start("serve", "rules", "--name", "rules-pod-0")
    wait_alive(hexlog, "rules", "--name", "rules-pod-0")
    assert hexlog.run("health", "rules").out.strip() == "alive: any rules instance"
    url = (hexlog.data / "valkey.url").read_text().strip()
    admin = redis.Redis.from_url(url)
    admin.execute_command("ACL", "SETUSER", "rules", "resetkeys", "~hexlog:[^{]*",
                          "~hexlog:{00[^5]}:*", "~hexlog:{01*}:*", "~hexlog:{005}:cmds:*")
    # From here the probes go as the admin (REDIS_URL): a probe on the embedded server makes
    # the rules user again with its usual rules, which would lift the refusal set up here.
    deadline = time.monotonic() + 30
    while "hexlog:{005}:cmds" not in (said := hexlog.run("health", "rules", REDIS_URL=url)).out:
        assert time.monotonic() < deadline, said.out
        time.sleep(0.5)
    assert said.code == 0
    assert said.out.startswith("alive: any rules instance (degraded: 1 command stream(s) set "
                               "aside: hexlog:{005}:cmds (NoPermissionError")
    # The partition's deadline set is refused too: it is named, and its tick stops no other.
    assert "1 deadline set(s) set aside: hexlog:{005}:deadlines (NoPermissionError" in said.out
    time.sleep(FIRST_PAUSE_S + 1)  # past the first pause: asked again, refused again
    assert hexlog.run("health", "rules", "--name", "rules-pod-0", REDIS_URL=url).out.startswith(
        "alive: rules rules-pod-0 (degraded: 1 command stream(s) set aside: hexlog:{005}:cmds")
    rules.terminate()
    rules.wait(timeout=30)
