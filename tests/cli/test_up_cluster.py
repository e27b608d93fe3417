"""`hexlog up --cluster N`: everything `up` runs, on an embedded N-master Valkey Cluster. Other
commands attach to it as to the single server (`play`, `audit`), each service runs as its own
Redis user on every node, the gateway serves the lobby and streams, Ctrl-C stops every node,
and the cluster comes back with its games when started again with the same N."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
from urllib.parse import unquote, urlsplit

import httpx
import pytest
import redis
from cli_helpers import Hexlog, one_line_error


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def stop(proc: subprocess.Popen[str]) -> str:
    """Ctrl-C in its terminal; its stderr once it has stopped (exit 0, no traceback)."""
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1] == "hexlog: stopped"
    return err


def wait_ready(base: str) -> None:
    until = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{base}/ready", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        assert time.monotonic() < until, "the gateway of hexlog up --cluster never became ready"
        time.sleep(0.2)


def test_up_on_an_embedded_cluster_plays_games_and_keeps_them(hexlog: Hexlog) -> None:
    port = free_port()
    up = hexlog.start("up", "--cluster", "3", "--gateway-port", str(port))
    said = "".join(hexlog.wait_for_line(up, "supervising rules, projections, gateway and bots",
                                        timeout=60))
    assert "started an embedded Valkey Cluster of 3 masters on 127.0.0.1 ports" in said
    admin = (hexlog.data / "valkey.url").read_text().strip()
    assert admin.startswith("redis+cluster://")
    ports = json.loads((hexlog.data / "cluster" / "ports").read_text())
    assert len(ports) == 3

    played = hexlog.run("play", "--game-id", "c-1", "--turn-limit", "60")
    assert played.code == 0, played.err
    assert "attached to the running server" in played.err
    assert "winner" in played.out or "no winner" in played.out
    audited = hexlog.run("audit", "c-1")
    assert audited.code == 0, audited.out + audited.err

    # Each node knows every service's user, and lets nobody in without a password.
    password = unquote(urlsplit(admin).password or "")
    for node in ports:
        client = redis.Redis(port=node, password=password)
        users = {str(line).split()[1] for line in client.acl_list()}
        client.close()
        assert {"rules", "projections", "organiser", "gateway"} <= users
        assert any(u.startswith("bot-") for u in users)
        with pytest.raises(redis.RedisError):
            redis.Redis(port=node).get("hexlog:games")

    # The gateway (its own user, WATCH/MULTI on the cluster): a table listed, started, streamed.
    base = f"http://127.0.0.1:{port}"
    wait_ready(base)
    made = [httpx.post(f"{base}/v1/tables", json={"seats": 2, "turn_limit": 5}).json()
            for _ in range(3)]
    listed = [t["id"] for t in httpx.get(f"{base}/v1/tables").json()["tables"]]
    assert [m["table"]["id"] for m in made][::-1] == listed[:3]
    table, owner = made[0]["table"]["id"], made[0]["owner_token"]
    joined = httpx.post(f"{base}/v1/tables/{table}/join", json={"name": "ada"}).json()
    started = httpx.post(f"{base}/v1/tables/{table}/start", json={"fill": "random"},
                         headers={"Authorization": f"Bearer {owner}"}, timeout=30)
    assert started.status_code == 200, started.text
    with httpx.stream("GET", f"{base}/v1/tables/{table}/stream", timeout=60,
                      headers={"Authorization": f"Bearer {joined['token']}"}) as resp:
        first = json.loads(next(line for line in resp.iter_lines() if line))
    assert first["type"] == "gameFull"
    assert first["seat"] == joined["seat"]

    stop(up)
    for node in ports:  # every node stopped with it
        with pytest.raises(redis.ConnectionError):
            redis.Redis(port=node, socket_connect_timeout=1).ping()

    one_line_error(hexlog.run("up", "--cluster", "2"), 2, "the cluster kept in")
    again = hexlog.start("up", "--cluster", "3")
    hexlog.wait_for_line(again, "supervising rules, projections and bots", timeout=60)
    replayed = hexlog.run("replay", "c-1")
    assert replayed.code == 0, replayed.err
    assert "Game over" in replayed.out.splitlines()[-1]
    stop(again)


def test_up_cluster_refuses_a_redis_url(hexlog: Hexlog) -> None:
    one_line_error(hexlog.run("up", "--cluster", "3", REDIS_URL="redis://127.0.0.1:9/0"), 2,
                   "--cluster starts an embedded cluster, but REDIS_URL names a server")


def test_up_cluster_comes_back_with_its_games_after_kill_9(hexlog: Hexlog) -> None:
    """A crash of everything at once (the whole process group SIGKILLed: supervisor, services,
    and whatever nodes share the group) loses no game: the next `up` stops any node left
    running, restarts the cluster on its ports and nodes.conf, and the log is whole."""
    up = hexlog.start("up", "--cluster", "3")
    hexlog.wait_for_line(up, "supervising rules, projections and bots", timeout=60)
    played = hexlog.run("play", "--game-id", "k-1", "--turn-limit", "40")
    assert played.code == 0, played.err
    before = hexlog.run("replay", "k-1")
    assert before.code == 0, before.err
    os.killpg(up.pid, signal.SIGKILL)
    up.wait(30)

    again = hexlog.start("up", "--cluster", "3")
    hexlog.wait_for_line(again, "supervising rules, projections and bots", timeout=90)
    after = hexlog.run("replay", "k-1")
    assert after.code == 0, after.err
    assert after.out == before.out  # every event is back, none doubled
    audited = hexlog.run("audit", "k-1")
    assert audited.code == 0, audited.out + audited.err
    more = hexlog.run("play", "--game-id", "k-2", "--turn-limit", "20")  # and it plays on
    assert more.code == 0, more.err
    stop(again)


def test_a_kept_cluster_whose_bus_port_is_taken_is_refused_in_one_line(hexlog: Hexlog) -> None:
    up = hexlog.start("up", "--cluster", "2")
    hexlog.wait_for_line(up, "supervising rules, projections and bots", timeout=60)
    stop(up)
    ports = json.loads((hexlog.data / "cluster" / "ports").read_text())
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", ports[1] + 10_000))
        squatter.listen()
        one_line_error(hexlog.run("up", "--cluster", "2"), 1,
                       f"the cluster bus port {ports[1] + 10_000} of the node on port {ports[1]}")
