"""`serve bots --pace-ms`: a bot worker that holds each answer after reading its prompt, as a
player who thinks (what `hexlog bench e2e --pace-ms` measures the service under): the pace on
average, each answer between half and one and a half of it, so games started together do not
answer in waves."""

from __future__ import annotations

from typing import Any

import pytest
from redis.asyncio import Redis
from service_helpers import create_request, wait_for

from bots.pace import HOLD_SPREAD, MAX_PACE_MS, ORPHAN_IDLE_MS
from bots.worker import BotWorker
from events.codec import codec
from services.client import Client
from services.protocol import prompts_key
from services.store.keys import commands_key, partition

PACE_MS = 120
ANSWERS = 10


async def test_every_answer_waits_the_pace_after_its_prompt(
    rules_app: Any, bot_workers: Any, redis_client: Redis
) -> None:
    await rules_app()
    bot_workers(["random"], pace_ms=PACE_MS)
    req = create_request("g-pace", seed=b"seed-pace", controllers=("bot:random",) * 4,
                         names=tuple(f"random{i}" for i in range(4)))
    await Client(redis_client).create_game(req)
    p = partition(req.game_id)
    answers = commands_key(p, "bot:random")

    async def answered(n: int) -> bool:
        return int(await redis_client.xlen(answers)) >= n

    await wait_for(lambda: answered(ANSWERS), 30, f"{ANSWERS} answers")
    prompted = {int(fields[b"version"]): int(entry_id.split(b"-")[0]) / 1000
                for entry_id, fields in await redis_client.xrange(prompts_key(p, "bot:random"))}
    waited = []
    for _, fields in await redis_client.xrange(answers):
        version = codec().decode_command_envelope(fields[b"__data__"]).expected_version
        waited.append(float(fields[b"sent"]) - prompted[version])
    assert len(waited) >= ANSWERS
    # (the prompt's time is the server's clock when it was written; the worker read it after)
    assert min(waited) >= PACE_MS / 2000 - 0.005, waited
    # Drawn, not fixed: ten draws within a quarter of the range are a chance of 1 in 25,000.
    assert max(waited) - min(waited) > PACE_MS / 4000, waited


def test_a_pace_longer_than_the_orphan_claim_is_refused(redis_client: Redis) -> None:
    with pytest.raises(ValueError, match="pace_ms"):
        BotWorker(redis_client, ["random"], pace_ms=MAX_PACE_MS + 1)


def test_the_longest_hold_is_shorter_than_the_orphan_claim() -> None:
    # Held longer, a prompt would be claimed by the worker holding it and answered twice.
    assert MAX_PACE_MS * HOLD_SPREAD[1] <= ORPHAN_IDLE_MS - 500
