"""When the store counts a write as acknowledged: once the primary holds it (`local`), or once
a replica holds it too (`replica`).

Why WAIT and not WAITAOF: with a replica fsyncing on every write, `WAITAOF 1 1` took about a
second per call on Valkey 9 (a replica reports its fsynced offset once a second), `WAIT 1`
under a millisecond (benchmarks/failover.md). WAIT counts the replicas that have *received*
the writes; hexlog's replicas run `appendfsync always` (the embedded ones do, deploy/ asks it of
yours), so a replica that has them writes them to its disk at once as well.

WAIT covers every write made on its connection before it (and so everything its server held
then), so the write and its WAIT go down one connection: a pipeline on one server, the node
that owns the slot on a cluster (`then_wait`). A WAIT that times out is "not acknowledged",
never "probably fine": the caller asks again after a barrier write (`confirm.lua`) until a
replica answers. `replica` by default wherever a replica exists (`auto`: a Sentinel set, a
cluster with replicas, a server with a replica connected); `local` where none does; set it with
HEXLOG_DURABILITY (`hexlog up --durability`). docs/operations.md, "Failover", says what a
client may see in each case.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Sequence
from typing import Any, Literal

import structlog
from redis.asyncio import Redis
from redis.exceptions import (
    AskError,
    ClusterDownError,
    ConnectionError,
    TimeoutError,
    TryAgainError,
)
from redis.typing import EncodableT

from services.store.connect import FAILOVER_PATIENCE_S, BadSettingError, is_cluster, is_sentinel
from services.store.keys import tag

log = structlog.get_logger("hexlog.store")

Mode = Literal["local", "replica", "auto"]
MODES: tuple[Mode, ...] = ("local", "replica", "auto")
ENV = "HEXLOG_DURABILITY"
WAIT_MS = 200  # one WAIT's bound; a wait that runs out is asked again (with a barrier)
RECHECK_S = 30.0  # `auto` found no replica: look again this often (it only ever turns to replica)
SAY_EVERY_S = 10.0
# Where a node's slot moved or is being moved: ask the cluster's slot map again.
REROUTE = (AskError, ClusterDownError, TryAgainError, ConnectionError, TimeoutError)


def mode_from_env() -> Mode:
    value = os.environ.get(ENV, "auto") or "auto"
    for mode in MODES:
        if value == mode:
            return mode
    raise BadSettingError(f"{ENV} must be local, replica or auto, not {value!r}")


def barrier_key(partition: int) -> str:
    """A counter in a partition's slot: the write a repeated WAIT follows (confirm.lua)."""
    return f"{tag(partition)}:barrier"


class Durability:
    """The acknowledgement rule of one store, and how long its writes have been waiting."""

    def __init__(self, mode: Mode | None = None, replicas: int = 1,
                 wait_ms: int = WAIT_MS) -> None:
        self.mode: Mode = mode or mode_from_env()
        if self.mode not in MODES:
            raise ValueError(f"durability must be local, replica or auto, not {self.mode!r}")
        if replicas < 1:
            raise ValueError(f"a replica durability waits for at least one replica, not {replicas}")
        self.replicas = replicas
        self.wait_ms = wait_ms
        self._found: bool | None = None if self.mode == "auto" else self.mode == "replica"
        self._checked = 0.0
        self._waiting: dict[int, float] = {}  # a waiting write's token -> since when
        self._said = 0.0
        self.rewritten = 0  # writes lost with their primary before a replica had them

    async def replicated(self, redis: Redis) -> bool:
        """Whether writes wait for a replica (resolving `auto` on the first call)."""
        if self._found is None or (not self._found and self.mode == "auto"
                                   and time.monotonic() - self._checked > RECHECK_S):
            self._checked = time.monotonic()
            self._found = await has_replica(redis)
            if self._found:
                log.info("a replica exists: acknowledging writes once a replica has them")
        return self._found

    def waiting(self, token: int) -> None:
        """A write went past its first WAIT without a replica's answer."""
        now = time.monotonic()
        self._waiting.setdefault(token, now)
        if now - self._said > SAY_EVERY_S:
            self._said = now
            log.warning("waiting for a replica to acknowledge writes",
                        writes=len(self._waiting), for_s=round(now - min(self._waiting.values())))

    def answered(self, token: int) -> None:
        self._waiting.pop(token, None)

    def lost(self, field: str) -> None:
        """A write was gone from the primary that took over: it is written again."""
        self.rewritten += 1
        log.warning("a write was lost with its primary before a replica had it; writing it "
                    "again under the same id", outcome=field)

    def status(self) -> str:
        """'' or what the writes wait for (a heartbeat's `degraded: …`)."""
        if not self._waiting:
            return ""
        since = time.monotonic() - min(self._waiting.values())
        return f"{len(self._waiting)} writes waiting {since:.0f} s for a replica"


async def has_replica(redis: Redis) -> bool:
    """A Sentinel set always has (or will have again) a replica; a cluster has one if any of its
    primaries does; a single server if a replica is connected now."""
    if is_sentinel(redis):
        return True
    if is_cluster(redis):
        cluster: Any = redis
        await cluster.initialize()
        return bool(cluster.get_replicas())
    info = await redis.info("replication")
    return int(info.get("connected_slaves", 0)) > 0


async def then_wait(redis: Redis, slot_key: str, commands: Sequence[Sequence[EncodableT]],
                    replicas: int, wait_ms: int) -> tuple[list[Any], int]:
    """Run `commands`, then WAIT, down one connection to the server that holds `slot_key`:
    the commands' replies (an error as its exception) and how many replicas acknowledged every
    write before the WAIT (fewer than `replicas` when it timed out)."""
    wait: tuple[EncodableT, ...] = ("WAIT", replicas, wait_ms)
    if is_cluster(redis):
        return await _on_slot_node(redis, slot_key, [*commands, wait])
    pipe: Any = redis.pipeline(transaction=False)  # one connection; sent again whole if cut
    for command in commands:
        pipe.execute_command(*command)
    pipe.execute_command(*wait)
    replies = await pipe.execute(raise_on_error=False)
    return _split(replies)


def _split(replies: list[Any]) -> tuple[list[Any], int]:
    acks = replies[-1]
    if isinstance(acks, Exception):
        raise acks
    return list(replies[:-1]), int(acks)


async def _on_slot_node(redis: Redis, slot_key: str,
                        commands: list[Sequence[EncodableT]]) -> tuple[list[Any], int]:
    """The commands down one connection to the primary of `slot_key`'s slot. A cluster
    pipeline would split them by key (WAIT has none) and retry each on its own terms; here a
    redirect or a lost node sends them all again, once the slot map names the slot's new
    primary (a plain command on the key lets the client find it)."""
    from redis.asyncio.cluster import PipelineCommand

    cluster: Any = redis
    await cluster.initialize()  # at once when it has a slot map
    deadline = time.monotonic() + FAILOVER_PATIENCE_S
    while True:
        node = cluster.get_node_from_key(slot_key)
        sent = [PipelineCommand(i, *command) for i, command in enumerate(commands)]
        try:
            await node.execute_pipeline(sent)
            replies = [c.result for c in sent]
            error = next((r for r in replies if isinstance(r, REROUTE)), None)
        except REROUTE as exc:
            error = exc
        if error is None:
            return _split(replies)
        if time.monotonic() > deadline:
            raise error
        await asyncio.sleep(0.1)
        await cluster.exists(slot_key)  # through the client's own retries and redirects
