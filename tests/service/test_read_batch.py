"""One read of the command streams is judged in one pass (services/rules/batch.py): every
game's move decided, its append sent with the others' in one pipeline, each settled on its
own; what is not the common case (a stale version, a move the rules refuse, a conflict with
another replica) gets the same outcome and ruling as when judged alone."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from redis.asyncio import Redis
from service_helpers import (
    Script,
    create_game,
    create_request,
    envelope,
    log,
    outcome_of,
    pump,
    rulings,
    send,
    total_pending,
)

from events.commands import RollDice
from services.client import signed_fields
from services.rules.service import RulesService
from services.store import EventStore
from services.store.connect import is_cluster
from services.store.keys import commands_key, partition


class AppendBatches:
    """Records the size of each `append_many` call (and calls it)."""

    def __init__(self, store: EventStore, monkeypatch: pytest.MonkeyPatch) -> None:
        self.sizes: list[int] = []
        append_many = store.append_many

        async def recorded(calls: Any, after: Any = None) -> Any:
            self.sizes.append(len(calls))
            return await append_many(calls, after)

        monkeypatch.setattr(store, "append_many", recorded)


async def test_moves_of_many_games_in_one_read_are_accepted_each_and_appended_together(
    service: RulesService, store: EventStore, redis_client: Redis,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scripts = []
    for i in range(4):
        req = create_request(f"g-batch-{i}")
        scripts.append(Script.start(req, await create_game(service, req)))
    moves = [script.next() for script in scripts]
    batches = AppendBatches(service.store, monkeypatch)
    for env, _ in moves:
        await send(redis_client, env)
    await pump(service)

    for script, (env, events) in zip(scripts, moves, strict=True):
        outcome = await outcome_of(store, env)
        assert outcome is not None
        assert outcome["status"] == "accepted", outcome
        assert [e.event for e in (await log(store, env.game_id))[1:]] == events
        slot = service.slots[env.game_id]
        assert slot.version == script.state.version
        assert slot.prompted  # the next prompt was written with the append
    if not is_cluster(redis_client):
        # Four games (in different partitions), one read: their appends in one pipeline.
        assert batches.sizes == [4]
    assert await total_pending(redis_client) == 0


async def test_in_one_read_a_stale_and_an_illegal_move_are_refused_and_the_rest_accepted(
    service: RulesService, store: EventStore, redis_client: Redis,
) -> None:
    """service.stale and a rule's refusal (base.*) keep their outcome and ruling in a read
    that also carries an accepted move, and change nothing of their games."""
    good, stale, illegal = (create_request(f"g-mixed-{name}") for name in ("good", "stale", "bad"))
    scripts = [Script.start(req, await create_game(service, req)) for req in (good, stale, illegal)]
    good_move, good_events = scripts[0].next()
    stale_move, _ = scripts[1].next()
    stale_move = envelope(stale_move.game_id, "stale-one", stale_move.credential,
                          stale_move.expected_version + 5, stale_move.command)
    seat, credential = scripts[2].current()
    version = scripts[2].state.version
    rolled = envelope(illegal.game_id, "roll-in-setup", credential, version, RollDice(seat=seat))
    for env in (good_move, stale_move, rolled):
        await send(redis_client, env)
    await pump(service)

    accepted = await outcome_of(store, good_move)
    assert accepted is not None
    assert accepted["status"] == "accepted"
    assert [e.event for e in (await log(store, good.game_id))[1:]] == good_events
    for env, game, rule in ((stale_move, stale.game_id, "service.stale"),
                            (rolled, illegal.game_id, None)):
        outcome = await outcome_of(store, env)
        assert outcome is not None
        assert outcome["status"] == "rejected", outcome
        if rule is not None:
            assert outcome["rule_id"] == rule
        else:
            assert outcome["rule_id"].startswith("base."), outcome
        assert len(await log(store, game)) == 1  # only GameCreated
        assert [r["command_id"] for r in await rulings(redis_client, game)] == [env.command_id]
    assert await total_pending(redis_client) == 0


async def test_a_conflict_in_the_pass_is_decided_again_on_the_log(
    service: RulesService, replica: RulesService, store: EventStore, redis_client: Redis,
) -> None:
    """The service's cache is a version behind (another replica accepted a move): a second
    move signed for that version passes the quick check, meets the append's compare-and-set,
    and is refused as stale once the game is reloaded; the log keeps the replica's move."""
    req = create_request("g-batch-conflict")
    script = Script.start(req, await create_game(service, req))
    before = script.state.version
    move, events = script.next()
    await send(redis_client, move)
    await pump(replica)  # the replica takes it: the log moves on, this service's cache does not
    assert service.slots[req.game_id].version == before

    rival = envelope(req.game_id, "rival", move.credential, before, move.command)
    await send(redis_client, rival)
    await pump(service)

    outcome = await outcome_of(store, rival)
    assert outcome is not None
    assert outcome["status"] == "rejected", outcome
    assert outcome["rule_id"] == "service.stale"
    assert [e.event for e in (await log(store, req.game_id))[1:]] == events
    assert service.slots[req.game_id].version == script.state.version


async def test_a_game_moved_on_while_its_lock_was_handed_over_is_judged_on_its_new_version(
    service: RulesService, store: EventStore,
) -> None:
    """A lock just released with a task waiting for it looks free, but the waiter takes it
    first and may move the game on: a move signed for the old version is then refused as
    stale, not applied to the new one."""
    req = create_request("g-batch-handover")
    script = Script.start(req, await create_game(service, req))
    before = script.state.version
    move, events = script.next()
    rival = envelope(req.game_id, "rival", move.credential, before, move.command)
    slot = service.slots[req.game_id]

    async def waiter() -> None:
        async with slot.lock:  # queued behind the test's hold; plays `move` once it gets in
            await service.pipeline.apply(slot, move.plain(), move.scope, 0.0)

    await slot.lock.acquire()
    waiting = asyncio.create_task(waiter())
    await asyncio.sleep(0)  # the waiter is queued on the lock
    slot.lock.release()  # free now, the waiter not yet run
    stream = commands_key(partition(req.game_id))
    fields: Any = signed_fields(rival.plain(), rival.credential)
    encoded = {k.encode(): v if isinstance(v, bytes) else v.encode() for k, v in fields.items()}
    await service.handle_read([(stream, [(b"1-0", encoded)])])
    await waiting

    outcome = await outcome_of(store, rival)
    assert outcome is not None
    assert outcome["status"] == "rejected", outcome
    assert outcome["rule_id"] == "service.stale"
    assert [e.event for e in (await log(store, req.game_id))[1:]] == events


async def test_a_games_later_moves_in_the_same_read_follow_its_first(
    service: RulesService, store: EventStore, redis_client: Redis,
) -> None:
    """Three moves of one game in one read: the first is judged in the pass, the others after
    it, in stream order, each on the version the one before made."""
    req = create_request("g-batch-three")
    script = Script.start(req, await create_game(service, req))
    moves = script.moves(3)
    for env, _ in moves:
        await send(redis_client, env)
    await pump(service)

    for env, _ in moves:
        outcome = await outcome_of(store, env)
        assert outcome is not None
        assert outcome["status"] == "accepted", outcome
    assert [e.event for e in (await log(store, req.game_id))[1:]] == script.events
    assert await total_pending(redis_client) == 0
