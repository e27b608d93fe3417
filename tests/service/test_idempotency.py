"""A command delivered more than once is applied once, and every delivery gets the first
outcome: sent twice in a row, handled concurrently, or handled by two replicas at once."""

from __future__ import annotations

import asyncio
import json

from redis.asyncio import Redis
from service_helpers import (
    Script,
    Signed,
    assert_gap_free,
    command_ids,
    create_game,
    create_request,
    created_outcome,
    log,
    outcome_of,
    pump,
    rulings,
    send,
    send_create,
    total_pending,
)

from events.envelope import CommandEnvelope
from services.protocol import deadlines_key, prompts_key
from services.rules.repository import credential_hash
from services.rules.service import RulesService
from services.store import EventStore
from services.store.keys import RULES_GROUP, commands_key, partition


async def test_same_command_twice_in_sequence_is_applied_once(
    service: RulesService, store: EventStore, redis_client: Redis
) -> None:
    req = create_request("g-dup-seq")
    script = Script.start(req, await create_game(service, req))
    (first, first_events), (second, second_events) = script.moves(2)

    await send(redis_client, first)
    await send(redis_client, first)
    await pump(service)
    outcome = await outcome_of(store, first)
    assert outcome is not None
    assert outcome["status"] == "accepted"
    assert (outcome["from"], outcome["to"]) == (2, 1 + len(first_events))

    # A late duplicate, after the game moved on, changes nothing either.
    await send(redis_client, second)
    await send(redis_client, first)
    await pump(service)

    envelopes = await log(store, req.game_id)
    assert [e.event for e in envelopes[1:]] == first_events + second_events
    assert command_ids(envelopes) == [req.command_id, first.command_id, second.command_id]
    assert await outcome_of(store, first) == outcome
    assert await assert_gap_free(redis_client, req.game_id) == 1 + len(first_events + second_events)
    assert await total_pending(redis_client) == 0


async def test_a_rejected_command_stays_rejected_when_delivered_again(
    service: RulesService, store: EventStore, redis_client: Redis
) -> None:
    """A command refused as stale is not accepted by a later delivery, even once the game has
    reached the version it named: the first outcome stands."""
    req = create_request("g-dup-rejected")
    script = Script.start(req, await create_game(service, req))
    (move, _), (early, _) = script.moves(2)
    await send(redis_client, early)  # names version 2 + n while the game is still at 1
    await pump(service)
    refused = await outcome_of(store, early)
    assert refused is not None
    assert refused["rule_id"] == "service.stale"

    await send(redis_client, move)
    await send(redis_client, early)  # now it would fit
    await pump(service)
    assert await outcome_of(store, early) == refused
    assert command_ids(await log(store, req.game_id)) == [req.command_id, move.command_id]
    # Ruled on once; the replay is noted as answered by that first outcome.
    assert [r["rule_id"] for r in await rulings(redis_client, req.game_id)] == [
        "service.stale", "service.command.duplicate"]


async def test_same_command_handled_concurrently_is_applied_once(
    service: RulesService, store: EventStore, redis_client: Redis
) -> None:
    req = create_request("g-dup-conc")
    script = Script.start(req, await create_game(service, req))
    for _ in range(5):
        env, events = script.next()
        before = await store.version(req.game_id)
        stream, ids = await deliver_twice(redis_client, env, service.consumer, service.consumer)
        fields = await entry_fields(redis_client, stream, ids)
        await asyncio.gather(*(service.handle_batch(stream, [i], [f]) for i, f in zip(ids, fields, strict=True)))
        assert await store.version(req.game_id) == before + len(events)
    assert len(command_ids(await log(store, req.game_id))) == 6
    assert await total_pending(redis_client) == 0


async def test_same_command_on_two_replicas_is_applied_once(
    service: RulesService, replica: RulesService, store: EventStore, redis_client: Redis
) -> None:
    """Two rules replicas (own connections, own consumer names) each get one delivery of the
    same command at the same moment; across several games and moves, exactly one applies it
    and both deliveries leave the same outcome."""
    games = [create_request(f"g-dup-rep-{i}") for i in range(6)]
    scripts = [Script.start(req, await create_game(service, req)) for req in games]
    for _ in range(4):
        rounds = []
        for script in scripts:
            env, events = script.next()
            stream, ids = await deliver_twice(redis_client, env, service.consumer, replica.consumer)
            rounds.append((env, events, stream, ids, await entry_fields(redis_client, stream, ids)))
        await asyncio.gather(*(
            handler.handle_batch(stream, [entry_id], [fields])
            for _, _, stream, ids, fields in rounds
            for handler, entry_id, fields in zip((service, replica), ids, fields, strict=True)
        ))
        for env, _, _, _, _ in rounds:
            outcome = await outcome_of(store, env)
            assert outcome is not None
            assert outcome["status"] == "accepted", outcome
    for script in scripts:
        envelopes = await log(store, script.created.game_id)
        assert len(command_ids(envelopes)) == 5
        assert await assert_gap_free(redis_client, script.created.game_id) == script.state.version
        assert [e.event for e in envelopes[1:]] == script.events
    assert await total_pending(redis_client) == 0


async def test_stale_command_on_a_replica_with_an_old_cache_is_answered(
    service: RulesService, replica: RulesService, store: EventStore, redis_client: Redis
) -> None:
    """Replica B holds the game in memory; replica A moves it on. B must still answer a stale
    command (service.stale) and accept a current one: its cache is never the authority."""
    req = create_request("g-stale-cache")
    script = Script.start(req, await create_game(service, req))
    assert await replica.slot(req.game_id) is not None  # B's cache: version 1
    move, _ = script.next()
    await send(redis_client, move)
    await pump(service)  # A applies it
    _, credential = script.current()
    stale = Signed(command_id="stale-on-b", game_id=req.game_id, credential=credential,
                            expected_version=1, command=move.command)
    await send(redis_client, stale)
    await pump(replica)
    outcome = await outcome_of(store, stale)
    assert outcome is not None
    assert outcome["rule_id"] == "service.stale", outcome

    current, _ = script.next()
    await send(redis_client, current)
    await pump(replica)
    assert (await outcome_of(store, current) or {}).get("status") == "accepted"
    assert command_ids(await log(store, req.game_id))[1:] == [move.command_id, current.command_id]


async def test_create_delivered_twice_makes_one_game_with_one_set_of_credentials(
    service: RulesService, replica: RulesService, store: EventStore, redis_client: Redis
) -> None:
    req = create_request("g-dup-create")
    stream = commands_key(partition(req.game_id))
    await send_create(redis_client, req)
    await send_create(redis_client, req)
    deliveries = []
    for handler in (service, replica):  # one delivery each, handled at the same time
        reply = await redis_client.xreadgroup(RULES_GROUP, handler.consumer, {stream: ">"}, count=1)
        entry_id, fields = reply[0][1][0]
        deliveries.append(handler.handle_batch(stream, [entry_id], [fields]))
    await asyncio.gather(*deliveries)
    await send_create(redis_client, req)  # and once more, later
    await pump(service)
    outcome = await created_outcome(store, req)
    assert outcome is not None
    assert outcome["status"] == "created"
    meta = await store.meta(req.game_id)
    assert meta is not None
    assert json.loads(meta["cred_hashes"]) == [credential_hash(c) for c in outcome["credentials"]]
    assert command_ids(await log(store, req.game_id)) == [req.command_id]
    # The credentials handed out work.
    script = Script.start(req, outcome["credentials"])
    move, _ = script.next()
    await send(redis_client, move)
    await pump(replica)
    assert (await outcome_of(store, move) or {}).get("status") == "accepted"


async def test_a_create_redelivered_after_a_crash_before_its_first_prompt_is_prompted(
    service: RulesService, store: EventStore, redis_client: Redis
) -> None:
    """The game and the create's outcome are one script: a replica killed right after it (the
    first prompt not sent) leaves a request whose redelivery gets the original outcome, not
    "exists", and sends the missing prompt."""
    req = create_request("g-create-crash")
    await send_create(redis_client, req)
    await pump(service)
    first = await created_outcome(store, req)
    assert first is not None
    assert first["status"] == "created"
    prompts = prompts_key(partition(req.game_id), "human")
    await redis_client.delete(prompts, deadlines_key(partition(req.game_id)))
    await send_create(redis_client, req)
    await pump(service)
    assert await created_outcome(store, req) == first
    assert await redis_client.xlen(prompts) == 1


# --- helpers ------------------------------------------------------------------------------------


async def deliver_twice(redis: Redis, env: CommandEnvelope, consumer_a: str,
                        consumer_b: str) -> tuple[str, list[bytes]]:
    """XADD the command twice and read one delivery as each consumer (pending for each)."""
    stream = commands_key(partition(env.game_id))
    await send(redis, env)
    await send(redis, env)
    ids = []
    for consumer in (consumer_a, consumer_b):
        reply = await redis.xreadgroup(RULES_GROUP, consumer, {stream: ">"}, count=1)
        ids.append(reply[0][1][0][0])
    return stream, ids


async def entry_fields(redis: Redis, stream: str, ids: list[bytes]) -> list[dict[bytes, bytes]]:
    return [(await redis.xrange(stream, i, i))[0][1] for i in ids]
