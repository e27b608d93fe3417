"""Which servers are the primaries now: a failover (or a server's restart) changes the answer.

What a primary published after its last WAIT (a prompt, a feed entry, a game's end: see
services/store/replicated.py) may be missing on the primary that replaced it; the rules service
watches this and prompts its live games again when it changes (services/rules/app.py).
"""

from __future__ import annotations

from typing import Any

from redis.asyncio import Redis

from services.store.connect import is_cluster


async def primaries(redis: Redis) -> frozenset[str]:
    """The run ids of the primaries (one on a single server or a Sentinel set; one per shard on
    a cluster)."""
    if is_cluster(redis):
        cluster: Any = redis
        replies = await cluster.execute_command("INFO", "server",
                                                target_nodes=cluster.get_primaries())
        infos = replies.values() if isinstance(replies, dict) else [replies]
        return frozenset(_run_id(info) for info in infos)
    return frozenset({_run_id(await redis.info("server"))})


def _run_id(info: Any) -> str:
    if isinstance(info, dict):
        return str(info.get("run_id", ""))
    text = info.decode() if isinstance(info, bytes) else str(info)
    return next((line.split(":", 1)[1].strip() for line in text.splitlines()
                 if line.startswith("run_id:")), "")
