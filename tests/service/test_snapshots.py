"""Snapshots are a cache: for real games, the state loaded from a snapshot plus the tail of the
log equals the state folded from the whole log (engine `to_dict()`), at random cut points;
and a replica that starts from the service's own snapshots plays on exactly like the rest."""

from __future__ import annotations

import random

import pytest
from redis.asyncio import Redis
from service_helpers import Script, create_game, create_request, log, outcome_of, pump, send

from bots.local import play
from bots.registry import make_bot
from events.codec import codec
from events.envelope import EventEnvelope
from events.events import Event, GameCreated
from services.rules.config import ServiceConfig
from services.rules.engine import RULES_VERSION, evolve, initial_state, new_game, snapshot
from services.rules.engine.chance import SeededDealer
from services.rules.engine.state import State
from services.rules.repository import load_slot
from services.rules.service import RulesService
from services.store import EventStore

SNAPSHOT_EVERY = ServiceConfig().snapshot_every
CUTS_PER_GAME = 8


def fold(created: GameCreated, log: list[Event], version: int | None = None) -> State:
    """The state at `version` (default: the end) of a log whose first event is `created`."""
    state = initial_state(created)
    for e in log[1:version]:
        evolve(state, e)
    return state


async def store_log(store: EventStore, game_id: str, events: list[Event]) -> None:
    """Write a played game's log as the service would (one append per event, for simplicity)."""
    c = codec()

    def enc(version: int, event: Event) -> bytes:
        return c.encode(EventEnvelope(game_id=game_id, version=version, at="2026-01-01T00:00:00",
                                      command_id=f"c{version}", event=event,
                                      rules_version=RULES_VERSION))

    await store.create_game(game_id, enc(1, events[0]), {"controllers": "[]"},
                            secret={"seed": "00", "credentials": "[]"})
    for version, event in enumerate(events[1:], start=2):
        assert (await store.append(game_id, version - 1, f"c{version}", [enc(version, event)],
                                   scope="svc")).accepted


async def load_from_snapshot(store: EventStore, created: GameCreated):  # type: ignore[no-untyped-def]
    c = codec()
    return await store.load_state(
        created.game_id,
        init=lambda data: initial_state(created),
        apply=lambda state, data: evolve(state, c.decode_event_envelope(data).event),
        snapshot_decode=lambda data: snapshot.load(data, created),
        schema=snapshot.SCHEMA,
        rules_version=RULES_VERSION,
    )


@pytest.mark.parametrize(
    ("bots", "seed"),
    [(("random",) * 4, b"snap-1"), (("random", "heuristic", "random", "heuristic"), b"snap-2"),
     (("heuristic",) * 4, b"snap-3"), (("random", "heuristic", "heuristic"), b"snap-4")],
)
async def test_snapshot_plus_tail_equals_full_fold_at_random_cuts(
    bots: tuple[str, ...], seed: bytes, store: EventStore
) -> None:
    game_id = f"g-snap-{seed.decode()}"
    created = new_game(game_id, len(bots), seed, turn_limit=1000)
    game = play(created, [make_bot(b, 0) for b in bots], SeededDealer(seed))
    await store_log(store, game_id, game.log)
    full = fold(created, game.log).to_dict()
    rng = random.Random(seed)  # reproducible cut points per game
    cuts = sorted(rng.sample(range(1, len(game.log) + 1), CUTS_PER_GAME))
    for cut in cuts:  # snapshots only move forward, so in order
        at_cut = fold(created, game.log, cut)
        assert at_cut.version == cut
        assert await store.save_snapshot(game_id, cut, snapshot.SCHEMA, RULES_VERSION,
                                         snapshot.dump(at_cut))
        loaded = await load_from_snapshot(store, created)
        assert loaded is not None
        assert loaded.snapshot_version == cut  # the snapshot was used, not a full refold
        assert loaded.version == len(game.log)
        assert loaded.state.to_dict() == full, f"snapshot at {cut} + tail differs"
        # The rules service's own load path agrees.
        slot = await load_slot(store, game_id)
        assert slot is not None
        assert slot.state.to_dict() == full


async def test_a_snapshot_of_another_rules_version_is_ignored(store: EventStore) -> None:
    seed = b"snap-old"
    created = new_game("g-snap-old", 4, seed, turn_limit=1000)
    game = play(created, [make_bot("random", 0) for _ in range(4)], SeededDealer(seed))
    await store_log(store, created.game_id, game.log)
    wrong = fold(created, game.log, 5)  # a state that is not the one at version 50
    await store.save_snapshot(created.game_id, 50, snapshot.SCHEMA, "1999.1.1",
                              snapshot.dump(wrong))
    loaded = await load_from_snapshot(store, created)
    assert loaded is not None
    assert loaded.snapshot_version == 0
    assert loaded.state.to_dict() == fold(created, game.log).to_dict()


async def test_a_replica_starting_from_the_services_snapshot_plays_on_the_same(
    service: RulesService, store: EventStore, redis_client: Redis
) -> None:
    req = create_request("g-snap-service")
    script = Script.start(req, await create_game(service, req))
    while script.state.version < 2 * SNAPSHOT_EVERY + 20 and not script.state.finished:
        await send(redis_client, script.next()[0])
    await pump(service)
    snap = await store.load_snapshot(req.game_id)
    assert snap is not None
    assert snap.version >= 2 * SNAPSHOT_EVERY
    assert await store.version(req.game_id) == script.state.version

    fresh = RulesService(redis_client, "rules-fresh")
    slot = await fresh.slot(req.game_id)
    assert slot is not None
    assert slot.state.to_dict() == script.state.to_dict()
    assert [e.event for e in await log(store, req.game_id)][1:] == script.events
    # It goes on deciding exactly as the reference does.
    for _ in range(5):
        move, events = script.next()
        await send(redis_client, move)
        await pump(fresh)
        assert (await outcome_of(store, move) or {})["status"] == "accepted"
    assert [e.event for e in await log(store, req.game_id)][1:] == script.events
    assert slot.state.to_dict() == script.state.to_dict()


async def test_replicas_taking_turns_on_a_game_catch_up_from_the_tail_alone(
    service: RulesService, store: EventStore, redis_client: Redis,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two replicas judge a game's commands alternately: each finds its cache behind the log
    and folds only the events the other committed (no reload), and both stay equal to the
    reference fold, move after move."""
    req = create_request("g-catch-up")
    script = Script.start(req, await create_game(service, req))
    other = RulesService(redis_client, "rules-other")
    replicas = [service, other]
    for replica in replicas:
        assert await replica.slot(req.game_id) is not None  # both hold the game in cache
    reloads: list[str] = []
    for replica in replicas:
        original = replica.repo.reload

        async def counting(slot, original=original):  # type: ignore[no-untyped-def]
            reloads.append(slot.game_id)
            return await original(slot)

        monkeypatch.setattr(replica.repo, "reload", counting)
    for turn in range(30):
        if script.state.finished:
            break
        move, _ = script.next()
        await send(redis_client, move)
        await pump(replicas[turn % 2])
        assert (await outcome_of(store, move) or {})["status"] == "accepted"
        judged = replicas[turn % 2].slots[req.game_id]
        assert judged.state.to_dict() == script.state.to_dict()
    assert reloads == []
    assert [e.event for e in await log(store, req.game_id)][1:] == script.events


async def test_games_beyond_the_bound_leave_memory_and_play_on_when_a_command_comes(
    redis_client: Redis, store: EventStore,
) -> None:
    """A rules service keeps at most `games_in_memory` games folded: creating more drops the
    least recently used, and a dropped game's next command folds it again from the log and is
    judged exactly as the reference would (its events, its state)."""
    bounded = RulesService(redis_client, "rules-bounded",
                           config=ServiceConfig(games_in_memory=2))
    scripts = []
    for i in range(4):
        req = create_request(f"g-bound-{i}")
        scripts.append(Script.start(req, await create_game(bounded, req)))
        assert len(bounded.slots) <= 2
    assert list(bounded.slots) == ["g-bound-2", "g-bound-3"]  # the most recent two
    for turn in range(12):  # every game, dropped or not, in turn
        script = scripts[turn % 4]
        move, _ = script.next()
        await send(redis_client, move)
        await pump(bounded)
        assert (await outcome_of(store, move) or {})["status"] == "accepted"
        assert len(bounded.slots) <= 2
        assert bounded.slots[move.game_id].state.to_dict() == script.state.to_dict()
    for script in scripts:
        game_id = script.created.game_id
        assert [e.event for e in await log(store, game_id)][1:] == script.events
