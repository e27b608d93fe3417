"""`hexlog up --ha` and `hexlog up --cluster N --cluster-replicas 1`: everything `up` runs, on
a set that survives the loss of a server. Other commands attach to it; a primary killed is
replaced, `up` says it started the dead node again, and games go on and audit clean. Options
that do not hold together are refused before anything starts."""

from __future__ import annotations

import json
import os
import signal
import time
from urllib.parse import parse_qs, urlsplit

import pytest
import redis
from cli_helpers import Hexlog, one_line_error

from services.runtime.nodes import PIDFILE

pytestmark = pytest.mark.slow


def admin_password(hexlog: Hexlog) -> str:
    url = (hexlog.data / "valkey.url").read_text().strip()
    return (parse_qs(urlsplit(url).query).get("sentinel_password") or
            [urlsplit(url).password or ""])[0]


def kill_port(folder: str, hexlog: Hexlog, port: int) -> None:
    for node in (hexlog.data / folder).glob("node-*"):
        if f"port {port}\n" in (node / "valkey.conf").read_text():
            os.kill(int((node / PIDFILE).read_text()), signal.SIGKILL)
            return
    raise AssertionError(f"no node on port {port}")


def test_up_ha_survives_a_killed_primary(hexlog: Hexlog) -> None:
    up = hexlog.start("up", "--ha")
    said = "".join(hexlog.wait_for_line(up, "supervising rules", timeout=90))
    assert "started an embedded Valkey set of a primary and 1 replica" in said
    assert (hexlog.data / "valkey.url").read_text().startswith("redis+sentinel://")
    first = hexlog.run("play", "--game-id", "ha-1", "--turn-limit", "40")
    assert first.code == 0, first.err
    assert "attached to the running server" in first.err

    password = admin_password(hexlog)
    ports = json.loads((hexlog.data / "ha" / "ports").read_text())
    sentinel = redis.Redis(port=ports["sentinels"][0], password=password)
    primary = int(sentinel.sentinel_get_master_addr_by_name("hexlog")[1])
    for port in ports["nodes"]:  # every service's user on every node
        node = redis.Redis(port=port, password=password)
        users = {str(line).split()[1] for line in node.acl_list()}
        node.close()
        assert {"rules", "projections", "organiser"} <= users
    kill_port("ha", hexlog, primary)
    hexlog.wait_for_line(up, f"valkey on port {primary} had stopped; started again", timeout=90)
    assert int(sentinel.sentinel_get_master_addr_by_name("hexlog")[1]) != primary
    sentinel.close()
    second = hexlog.run("play", "--game-id", "ha-2", "--turn-limit", "40")
    assert second.code == 0, second.err
    for game in ("ha-1", "ha-2"):
        audited = hexlog.run("audit", game)
        assert audited.code == 0, audited.out + audited.err


def test_up_cluster_with_replicas_survives_a_killed_master(hexlog: Hexlog) -> None:
    up = hexlog.start("up", "--cluster", "2", "--cluster-replicas", "1")
    said = "".join(hexlog.wait_for_line(up, "supervising rules", timeout=90))
    assert "2 masters with 1 replica each" in said
    ports = json.loads((hexlog.data / "cluster" / "ports").read_text())
    assert len(ports) == 4
    password = urlsplit((hexlog.data / "valkey.url").read_text().strip()).password
    node = redis.Redis(port=ports[0], password=password)
    masters = [int(line.split()[1].split("@")[0].rpartition(":")[2])
               for line in node.execute_command("CLUSTER", "NODES").decode().splitlines()
               if "master" in line.split()[2]]
    node.close()
    played = hexlog.run("play", "--game-id", "cr-1", "--turn-limit", "30")
    assert played.code == 0, played.err
    kill_port("cluster", hexlog, masters[0])
    hexlog.wait_for_line(up, f"cluster node on port {masters[0]} had stopped; started again",
                         timeout=90)
    time.sleep(1)
    again = hexlog.run("play", "--game-id", "cr-2", "--turn-limit", "30")
    assert again.code == 0, again.err
    audited = hexlog.run("audit", "cr-1")
    assert audited.code == 0, audited.out + audited.err


@pytest.mark.parametrize(("args", "fault"), [
    (["--cluster-replicas", "1"], "--cluster-replicas gives each master of --cluster N"),
    (["--ha", "--cluster", "3"], "--ha runs one primary with a replica"),
    (["--ha", "--port", "7777"], "not with --cluster or --ha"),
    (["--durability", "replica"], "the embedded server has none"),
])
def test_options_that_do_not_hold_together_are_refused(hexlog: Hexlog, args: list[str],
                                                       fault: str) -> None:
    one_line_error(hexlog.run("up", *args), 2, fault)
    assert not (hexlog.data / "valkey.url").exists()  # nothing started
