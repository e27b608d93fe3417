"""Attack 7 (a hostile `sent` stamp) and attack 9 (input that used to be answered "internal
error"). The rest of the hostile-input battery — every malformed, oversized, unsigned or
misrouted entry, in both consumer modes and against a real process — is in
tests/service/test_hostile_input.py.

A `sent` of nan or inf once made a valid move both accepted and dead-lettered (the latency
arithmetic raised after the append) and skipped what follows the append, stalling the game.
"""

from __future__ import annotations

import msgspec
import pytest
from redis.asyncio import Redis
from service_helpers import (
    Script,
    create_request,
    created_outcome,
    dead_letters,
    outcome_of,
    pump,
    send,
    send_create,
    send_raw,
)

from events.codec import codec
from services.client import signed_fields
from services.protocol import SENT
from services.rules.service import RulesService
from services.store import EventStore
from services.store.keys import partition

GAME = "g-sent"


@pytest.mark.parametrize("sent", [b"nan", b"inf", b"-inf", b"1e308", b"-1e308", b"0x10",
                                  b"not a number", b"9" * 400])
async def test_a_hostile_sent_stamp_is_ignored_and_the_move_counts_once(
    sent: bytes, service: RulesService, store: EventStore, redis_client: Redis
) -> None:
    """`sent` only feeds the latency statistics: a value that is not a sane clock reading is
    ignored, the move is accepted once, nothing is dead-lettered, and the game goes on (the
    next seat is prompted, the next move accepted)."""
    req = create_request(GAME)
    await send_create(redis_client, req)
    await pump(service)
    script = Script.start(req, (await created_outcome(store, req) or {})["credentials"])
    good, _ = script.next("good")
    await send_raw(redis_client, GAME, {**signed_fields(good.plain(), good.credential),
                                        SENT: sent})
    second, _ = script.next("second")
    await send(redis_client, second)
    await pump(service)
    assert (await outcome_of(store, good) or {})["status"] == "accepted"
    assert (await outcome_of(store, second) or {})["status"] == "accepted"
    assert await dead_letters(redis_client, partition(GAME)) == []
    assert len(service.pipeline.latencies_us) == 1  # only the second move's sane stamp


async def test_input_that_was_an_internal_error_gets_its_reason(
    service: RulesService, redis_client: Redis, store: EventStore
) -> None:
    """Deeply nested JSON, a seed that is not hex and a game id that cannot be a key: each set
    aside (or refused) with the field that is wrong, never "internal error"."""
    deep = b'{"command_id": "c", "game_id": "' + GAME.encode() + b'", "command": ' + \
        b"[" * 5000 + b"]" * 5000 + b"}"
    await send_raw(redis_client, GAME, {"__data__": deep})
    bad_seed = msgspec.structs.replace(create_request("g-hexless"), seed="zz")
    await send_create(redis_client, bad_seed)
    bad_id = create_request("bad id\n", command_id="c-ok")
    await send_raw(redis_client, GAME, {"__data__": codec().encode(bad_id), "kind": "create"})
    await pump(service)
    letters = {d[b"reason"].decode() for d in await dead_letters(redis_client, partition(GAME))}
    assert any("nested too deeply" in r for r in letters), letters
    assert any("game id" in r for r in letters), letters
    assert not any("internal error" in r for r in letters), letters
    refused = await created_outcome(store, bad_seed) or {}
    assert refused["rule_id"] == "service.create.invalid"
    assert refused["message"].startswith("seed:")
