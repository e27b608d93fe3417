"""`serve bots --pace-ms`: a bot worker that answers each prompt no sooner than the pace after
reading it, as a player who thinks (what `hexlog bench e2e --pace-ms` measures the service
under); the games still play to the same moves."""

from __future__ import annotations

from typing import Any

import pytest
from redis.asyncio import Redis
from service_helpers import create_request, wait_for

from bots.pace import MAX_PACE_MS
from bots.worker import BotWorker
from events.codec import codec
from services.client import Client
from services.protocol import prompts_key
from services.store.keys import commands_key, partition

PACE_MS = 150


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

    await wait_for(lambda: answered(6), 30, "six answers")
    prompted = {int(fields[b"version"]): int(entry_id.split(b"-")[0]) / 1000
                for entry_id, fields in await redis_client.xrange(prompts_key(p, "bot:random"))}
    waited = []
    for _, fields in await redis_client.xrange(answers):
        version = codec().decode_command_envelope(fields[b"__data__"]).expected_version
        waited.append(float(fields[b"sent"]) - prompted[version])
    assert len(waited) >= 6
    # (the prompt's time is the server's clock when it was written; the worker read it after)
    assert min(waited) >= PACE_MS / 1000 - 0.005, waited


def test_a_pace_longer_than_the_orphan_claim_is_refused(redis_client: Redis) -> None:
    with pytest.raises(ValueError, match="pace_ms"):
        BotWorker(redis_client, ["random"], pace_ms=MAX_PACE_MS + 1)
