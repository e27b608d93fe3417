"""Redis names and entry fields the rules service shares with bots and tools.

The event-store keys live in `services.store.keys`; these are the service's own: where prompts
go (one stream per controller pool, e.g. `hexlog:prompts:bot:random`), the per-partition
deadline set, and service heartbeats. Entry field names are constants so that a bot written in
another language can follow `docs`/this file exactly.
"""

from __future__ import annotations

from services.store.keys import PREFIX, tag

# Fields of a command stream entry.
DATA = "__data__"  # the JSON body (CommandEnvelope or CreateGame)
KIND = "kind"  # "move" (default) or "create"
SENT = "sent"  # sender's wall clock (seconds, float) for command→event latency

PROMPT_GROUP = "workers"
SERVICE_TTL_S = 5


def prompts_key(controller: str) -> str:
    """Prompts for every seat a controller pool answers (e.g. `bot:random`)."""
    return f"{PREFIX}:prompts:{controller}"


def pool_key(controller: str) -> str:
    """What a controller pool declares about itself (hash): `needs_view` 0/1."""
    return f"{PREFIX}:pool:{controller}"


def deadlines_key(p: int) -> str:
    """Sorted set of open prompts by deadline (ms since epoch): `game|version|seat`."""
    return f"{tag(p)}:deadlines"


def latency_key() -> str:
    """Recent command→event latencies (µs), for `hexlog bench e2e`."""
    return f"{PREFIX}:stats:latency_us"


def heartbeat_key(service: str, name: str) -> str:
    return f"{PREFIX}:svc:{service}:{name}"
