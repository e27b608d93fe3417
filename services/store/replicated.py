"""Writes acknowledged only once a replica holds them (services/store/durability.py).

A command's outcome is what answers it: the organiser, the gateway and an HTTP client read it;
a bot learns that its move took from the next prompt; projections and followers learn of a
batch from the feed. So under `replica` durability the store writes a command's outcome marked
unreplicated (`"replicated": false`, which `EventStore.get_outcome` does not hand to a client),
with no feed entry, no prompt, no finish; WAITs until a replica has the write; and only then
publishes (publish.lua): the outcome unmarked, the feed entry, the game's end, the next prompt
with its deadline. Whoever learns of a command learns of it from what is on two servers.

A write whose primary is lost before a replica got it is gone from the primary that takes over
(`OutcomeLost`): nobody was told of it, and the store writes it again under the same command id,
which the scripts' idempotence makes safe. A writer that dies between its write and the
publication leaves the outcome marked; the next writer that meets it (the command delivered
again, `settle` from `get_outcome(…, settle=True)`) waits for the replica and publishes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec
from redis.asyncio import Redis
from redis.typing import EncodableT

from services.store.durability import Durability, barrier_key
from services.store.keys import OUTCOMES_TTL_SECONDS, GameKeys
from services.store.results import PromptWrite
from services.store.scripts import script

MARK = "replicated"


class OutcomeLost(Exception):
    """The outcome written unreplicated is not on the primary any more: its primary was lost
    before a replica got it. Write the command again (same id)."""


def pending(outcome: bytes) -> bytes:
    """An outcome as first written: marked until a replica holds it."""
    value = msgspec.json.decode(outcome)
    return msgspec.json.encode({**value, MARK: False})


def is_pending(raw: bytes | str) -> bool:
    value = msgspec.json.decode(raw)
    return isinstance(value, dict) and value.get(MARK) is False


def published(raw: bytes | str) -> bytes:
    """The outcome a client reads: the mark taken off."""
    value = msgspec.json.decode(raw)
    return msgspec.json.encode({k: v for k, v in value.items() if k != MARK})


@dataclass(frozen=True)
class Publication:
    """What publish.lua tells once the outcome is on a replica: a batch's feed entry (an
    accepted command), the game's end, the next prompt."""

    game_id: str
    command_id: str
    first: int = 0  # 0: not a batch (a rejection, a creation): no feed entry
    last: int = 0
    winner: int | None = None
    prompt: PromptWrite | None = None

    @classmethod
    def of(cls, game_id: str, command_id: str, raw: bytes | str) -> Publication:
        """From a stored outcome alone: its feed entry if it accepted a batch (the prompt and
        the end are the rules service's to make again: recovery.resume)."""
        value = msgspec.json.decode(raw)
        if value.get("status") != "accepted":
            return cls(game_id, command_id)
        return cls(game_id, command_id, int(value["from"]), int(value["to"]))


async def settle(redis: Redis, durability: Durability, k: GameKeys, field: str, raw: bytes,
                 acks: int, publication: Publication) -> None:
    """Wait until a replica holds the outcome `raw` (stored at `field`), then publish it.
    `acks`: what the WAIT right after the write answered (0 when that write was not ours).
    OutcomeLost when the primary no longer holds it."""
    token = id(raw)
    try:
        while acks < durability.replicas:
            durability.waiting(token)
            stored, acks = await script("confirm").run_waited(
                redis, [k.outcomes, barrier_key(k.partition)], [field], durability.replicas,
                durability.wait_ms)
            if stored is None:
                raise OutcomeLost(field)
            if stored != raw:
                return  # published meanwhile by another writer
    finally:
        durability.answered(token)
    done = await script("publish").run(redis, *_publish_call(k, field, raw, publication))
    if done == -1:
        raise OutcomeLost(field)


def _publish_call(k: GameKeys, field: str, raw: bytes,
                  p: Publication) -> tuple[list[str], list[EncodableT]]:
    keys = [k.outcomes, k.meta, k.feed]
    prompt: list[Any] = [0]
    if p.prompt is not None:
        keys += [p.prompt.stream, p.prompt.deadlines]
        pairs = [x for kv in p.prompt.fields.items() for x in kv]
        prompt = [len(p.prompt.fields), *pairs, p.prompt.member, p.prompt.deadline_ms,
                  p.prompt.previous]
    return keys, [field, raw, published(raw), p.game_id, p.first or "", p.last, p.command_id,
                  OUTCOMES_TTL_SECONDS, "" if p.winner is None else p.winner, *prompt]
