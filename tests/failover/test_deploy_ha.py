"""deploy/ for a deployment of your own that survives a lost server: compose.ha.yaml (a primary,
a replica, three Sentinels, the services through them), sentinel.conf, replication.acl and
sentinel-users.acl. The ACL files are what services/runtime/replication_acl.py makes; the
compose file runs real `hexlog` commands as users of deploy/users.acl, through the Sentinels,
waiting for the replica; and the files, run on real servers, form a set whose Sentinels fail
the primary over with no more rights than those files give them."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import yaml

from services.cli.main import build_parser
from services.runtime.ha import free_ports
from services.runtime.nodes import ValkeyProcess, write_private
from services.runtime.replication_acl import replication_acl, sentinel_users_acl
from services.store.connect import check_url, connect, parse_sentinel_url

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
ACL_USERS = {line.split()[1] for line in (DEPLOY / "users.acl").read_text().splitlines()
             if line.startswith("user ") and " on " in line}
LIVENESS_S = 60.0


def test_the_acl_files_are_what_hexlog_makes() -> None:
    assert (DEPLOY / "replication.acl").read_text() == replication_acl()
    assert (DEPLOY / "sentinel-users.acl").read_text() == sentinel_users_acl(
        ["random", "heuristic"])


def test_compose_ha_runs_real_commands_through_the_sentinels_waiting_for_the_replica() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.ha.yaml").read_text())
    services: dict[str, Any] = compose["services"]
    nodes = [services.pop(n) for n in ("valkey-1", "valkey-2")]
    sentinels = [services.pop(f"sentinel-{i}") for i in (1, 2, 3)]
    assert "--replicaof valkey-1 6379" in nodes[1]["entrypoint"][-1]
    assert all("--sentinel" in s["entrypoint"][-1] for s in sentinels)
    assert services["rules"]["command"][-2:] == ["--durability", "replica"]
    for name, service in services.items():
        build_parser().parse_args(service["command"])  # SystemExit if hexlog refused it
        if "healthcheck" in service:
            build_parser().parse_args(service["healthcheck"]["test"][2:])
        url = service["environment"]["REDIS_URL"].replace("${HEXLOG_PASSWORD_PREFIX:-change-me-}",
                                                          "x")
        s = parse_sentinel_url(check_url(url))
        assert s.username in ACL_USERS, (name, s.username)
        assert (s.sentinel_username, s.sentinel_password) == (s.username, s.password)
        assert [h for h, _ in s.sentinels] == ["sentinel-1", "sentinel-2", "sentinel-3"]


@pytest.mark.slow
async def test_the_deploy_files_make_a_set_that_fails_over(tmp_path: Path) -> None:
    (primary_port, replica_port), sentinel_ports = free_ports(2, 3)
    users = (DEPLOY / "users.acl").read_text() + (DEPLOY / "replication.acl").read_text()
    valkey_conf = [line for line in (DEPLOY / "valkey.conf").read_text().splitlines()
                   if line and not line.startswith(("#", "aclfile"))]
    nodes = []
    for port, replica_of in ((primary_port, None), (replica_port, primary_port)):
        node = ValkeyProcess(tmp_path / f"node-{port}", port)
        write_private(node.aclfile, users)
        node.write_config([*valkey_conf, f"aclfile {node.aclfile}", "masteruser replica",
                           "masterauth change-me-replica",
                           *([f"replicaof 127.0.0.1 {replica_of}"] if replica_of else [])])
        nodes.append(node.start("change-me-rules", user="rules"))  # (default is off)
    sentinels = []
    for port in sentinel_ports:
        sentinel = ValkeyProcess(tmp_path / f"sentinel-{port}", port, sentinel=True)
        write_private(sentinel.aclfile, (DEPLOY / "sentinel-users.acl").read_text())
        conf = (DEPLOY / "sentinel.conf").read_text()
        conf = (conf.replace("valkey-1 6379", f"127.0.0.1 {primary_port}")
                .replace("@SENTINEL_PASSWORD@", "change-me-sentinel")
                .replace("/etc/valkey/sentinel-users.acl", str(sentinel.aclfile)))
        sentinel.write_config([line for line in conf.splitlines()
                               if line and not line.startswith(("#", "port "))])
        sentinels.append(sentinel.start("change-me-rules", user="rules"))
    hosts = ",".join(f"127.0.0.1:{p}" for p in sentinel_ports)
    url = (f"redis+sentinel://rules:change-me-rules@{hosts}/hexlog?sentinel_username=rules"
           "&sentinel_password=change-me-rules")
    client = connect(url)
    try:
        await asyncio.wait_for(until_written(client, "hexlog:before", replicas=1), LIVENESS_S)
        nodes[0].kill()
        await asyncio.wait_for(until_written(client, "hexlog:after", replicas=0), LIVENESS_S)
        assert (await client.info("server"))["tcp_port"] == replica_port  # failed over
        assert await client.get("hexlog:before") == b"1"
    finally:
        await client.aclose()
        for process in [*sentinels, *nodes]:
            process.stop()


async def until_written(client: Any, key: str, replicas: int) -> None:
    """Written once there is a primary with `replicas` replicas (WAIT)."""
    while True:
        try:
            await client.set(key, "1")
            if await client.execute_command("WAIT", replicas, 1000) >= replicas:
                return
        except Exception:  # a primary not there yet: the Sentinels are still deciding
            pass
        await asyncio.sleep(0.2)
