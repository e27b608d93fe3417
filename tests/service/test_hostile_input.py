"""Hostile and broken input: nothing on a command stream is trusted until it is checked.

An entry that is signed by the seat it names but broken is answered with a clear rejection (its
outcome, with a rule id, in that seat's scope); anything that cannot be authenticated —
unreadable, unsigned, signed with the wrong key, for an unknown game — only reaches the
partition's dead-letter stream with its reason, so it can neither write into a game's record
nor occupy the id of somebody's next move. Nothing stays pending, no event is appended, and the
worker goes on to accept the next good command.

Run against the real rules app in-process, in both consumer modes (the raw XREADGROUP loop,
and FastStream subscribers, whose raw parser must let a non-UTF-8 body reach our handler), and
once against a real `hexlog serve rules` process.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from redis.asyncio import Redis
from service_helpers import (
    Script,
    Signed,
    command_ids,
    create_request,
    created_outcome,
    dead_letters,
    log,
    outcome_of,
    pump,
    rulings,
    send,
    send_create,
    send_raw,
    total_pending,
    wait_no_pending,
    wait_outcome,
    wait_started,
)

from events.auth import sign, turn_key
from events.codec import MAX_COMMAND_BYTES, codec
from events.commands import PlaceSettlement, RollDice
from events.envelope import CommandEnvelope
from events.events import ModuleSpec
from events.requests import CreateGame
from services.protocol import DATA, KIND, MAC
from services.rules.service import RulesService
from services.store import EventStore
from services.store.keys import ORGANISER, commands_key, game_keys, partition

GAME = "g-hostile"
BAD = ["bad"]  # the command id the cases use (one per case when they all run at once)


def body(script: Script, **changes: Any) -> dict[str, Any]:
    """The JSON object of the seat-to-act's next legal move, as an envelope, with `changes`."""
    raw: dict[str, Any] = json.loads(codec().encode(CommandEnvelope(
        command_id=BAD[0], game_id=GAME, expected_version=script.state.version,
        command=_legal(script))))
    raw.update(changes)
    return raw


def signed(script: Script, data: bytes | dict[str, Any], seat: int = 0, version: int | None = None,
           credential: str | None = None) -> dict[str, bytes | str]:
    """An entry whose body is signed with `seat`'s turn key (for `version`, default the
    current one), exactly as a client would sign it."""
    raw = data if isinstance(data, bytes) else json.dumps(data).encode()
    cred = script.credentials[seat] if credential is None else credential
    v = script.state.version if version is None else version
    return {DATA: raw, MAC: sign(turn_key(cred, GAME, seat, v), raw)}


def _legal(script: Script) -> Any:
    from bots.local import next_prompt
    from services.rules.engine import pending

    return next_prompt(script.state, pending(script.state)).options[0]


def other_partition_game() -> str:
    return next(g for g in (f"g-other-{i}" for i in range(100)) if partition(g) != partition(GAME))


@dataclass
class Case:
    name: str
    fields: Callable[[Script], dict[Any, Any]]
    rule_id: str | None  # the outcome of command "bad"; None: only a dead letter is possible
    ruling: bool = False  # also on the game's rulings stream
    dead_letter: str = ""  # a word the dead letter's reason must contain ("" = no dead letter)
    game: str = GAME  # whose partition stream the entry goes to
    scope: str = "s0"  # where its outcome is (the seat it is signed for, or `org`)


def nested(script: Script) -> bytes:
    """A body whose command is 3,000 arrays deep (past any parser's recursion limit)."""
    head = json.dumps({"command_id": BAD[0], "game_id": GAME,
                       "expected_version": script.state.version})[:-1]
    deep = "[" * 3000 + "]" * 3000
    return f'{head}, "command": {{"type": "PlaceSettlement", "seat": 0, "vertex": {deep}}}}}'.encode()


def roll(script: Script) -> dict[str, Any]:
    return json.loads(codec().encode(RollDice(seat=0)))


CASES = [
    Case("invalid utf-8 body", lambda s: {DATA: b"\xff\xfe{\"command_id\": \x80\x81"}, None,
         dead_letter="invalid"),
    Case("no __data__ field", lambda s: {"command_id": "bad", "game_id": GAME}, None,
         dead_letter="__data__"),
    Case("truncated json", lambda s: signed(s, json.dumps(body(s)).encode()[:60]), None,
         dead_letter="invalid"),
    Case("deeply nested json", lambda s: signed(s, nested(s)),
         "base.command.invalid", dead_letter="nested"),
    Case("oversized body", lambda s: signed(s, body(s, padding="x" * (MAX_COMMAND_BYTES + 1))),
         "base.command.invalid", dead_letter="limit"),
    Case("unknown command type",
         lambda s: signed(s, body(s, command={"type": "SummonDragon", "seat": 0})),
         "base.command.invalid", dead_letter="invalid"),
    Case("wrong field type", lambda s: signed(s, body(s, expected_version="1")),
         None, dead_letter="expected_version"),
    Case("wrong field type in the command",
         lambda s: signed(s, body(s, command={"type": "PlaceSettlement", "seat": 0, "vertex": "11"})),
         "base.command.invalid", dead_letter="vertex"),
    Case("unknown extra field", lambda s: signed(s, body(s, sneaky=True)),
         "base.command.invalid", dead_letter="sneaky"),
    Case("unknown extra field in the command",
         lambda s: signed(s, body(s, command={**body(s)["command"], "vp": 10})),
         "base.command.invalid", dead_letter="vp"),
    Case("unsigned", lambda s: {DATA: json.dumps(body(s)).encode()}, None,
         dead_letter="service.seat.credential"),
    Case("signed with a guessed credential", lambda s: signed(s, body(s), credential="guessed"),
         None, dead_letter="service.seat.credential"),
    Case("signed with another seat's credential", lambda s: signed(s, body(s), credential=s.credentials[1]),
         None, dead_letter="service.seat.credential"),
    Case("another command's signature",
         lambda s: {DATA: json.dumps(body(s)).encode(),
                    MAC: signed(s, body(s, command_id="other"))[MAC]},
         None, dead_letter="service.seat.credential"),
    Case("signed for another version", lambda s: signed(s, body(s), version=7), None,
         dead_letter="service.seat.credential"),
    Case("forged default move", lambda s: signed(s, body(s, default=True), credential=""),
         None, dead_letter="service.seat.credential"),
    Case("a seat that is not to act",
         lambda s: signed(s, body(s, command={**body(s)["command"], "seat": 1}), seat=1),
         "base.turn.not_your_turn", ruling=True, scope="s1"),
    Case("out of phase", lambda s: signed(s, body(s, command=roll(s))),
         "base.turn.wrong_phase", ruling=True),
    Case("stale expected_version", lambda s: signed(s, body(s, expected_version=0), version=0),
         "service.stale", ruling=True),
    Case("version from the future", lambda s: signed(s, body(s, expected_version=99), version=99),
         "service.stale", ruling=True),
    Case("unknown game", lambda s: signed(s, body(s, game_id="g-nowhere")), None,
         dead_letter="service.game.unknown", game="g-nowhere"),
    Case("command id that cannot be a key", lambda s: signed(s, body(s, command_id="bad id\n")),
         None, dead_letter="command id"),
    Case("wrong partition stream", lambda s: signed(s, body(s)), None, dead_letter="partition",
         game=other_partition_game()),
    Case("create with an unknown variant",
         lambda s: {DATA: codec().encode(CreateGame(
             command_id="bad", game_id="g-bad-create",
             modules=(ModuleSpec(name="no-such-variant"),))), KIND: "create"},
         "service.create.invalid", game="g-bad-create", scope=ORGANISER),
    Case("create with a seed that is not hex",
         lambda s: {DATA: codec().encode(CreateGame(command_id="bad", game_id="g-bad-seed",
                                                    seed="not hex")), KIND: "create"},
         "service.create.invalid", game="g-bad-seed", scope=ORGANISER),
    Case("create without a reply key (its credentials could only travel in the clear)",
         lambda s: {DATA: codec().encode(CreateGame(command_id="bad", game_id="g-no-key")),
                    KIND: "create"},
         "service.create.invalid", game="g-no-key", scope=ORGANISER),
    Case("create with a game id that cannot be a key",
         lambda s: {DATA: codec().encode(CreateGame(command_id="bad", game_id="g bad\n")),
                    KIND: "create"}, None, dead_letter="game id"),
    Case("create with a malformed body", lambda s: {DATA: b'{"command_id": "bad", "seats": "four"}',
                                                   KIND: "create"}, None, dead_letter="create"),
    Case("oversized create", lambda s: {DATA: json.dumps({"command_id": "bad", "game_id": "g-big",
                                                         "names": ["x" * 70_000]}).encode(),
                                       KIND: "create"}, None, dead_letter="limit"),
    Case("unsigned forfeit",
         lambda s: {DATA: json.dumps({"command_id": "bad", "game_id": GAME, "seat": 0}).encode(),
                    KIND: "forfeit"}, None, dead_letter="referee"),
    Case("unknown entry kind", lambda s: {DATA: json.dumps(body(s)).encode(), KIND: "explode"},
         None, dead_letter="kind"),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
@pytest.mark.parametrize(
    "mode", ["batched", pytest.param("faststream", marks=pytest.mark.single_server)])
async def test_hostile_input_is_answered_and_the_worker_goes_on(
    mode: str, case: Case, rules_app: Any, service: RulesService, store: EventStore,
    redis_client: Redis,
) -> None:
    script = await started_game(service)
    await rules_app(consumer_mode=mode)
    bad_entry = await send_raw(redis_client, case.game, case.fields(script))
    good, events = script.next("good")
    await send(redis_client, good)

    outcome = await wait_outcome(store, good.command_id, GAME, scope=good.scope)
    assert outcome["status"] == "accepted", outcome  # the worker is alive and went on
    await wait_no_pending(redis_client)

    bad = await store.get_outcome("bad", case.game, scope=case.scope)
    if case.rule_id is None:
        assert bad is None
    else:
        assert bad is not None
        assert bad["status"] == "rejected", bad
        assert bad["rule_id"] == case.rule_id
        assert bad["message"]
    letters = await dead_letters(redis_client, partition(case.game))
    if case.dead_letter:
        assert len(letters) == 1
        assert letters[0][b"entry"] == bad_entry
        assert case.dead_letter.lower() in letters[0][b"reason"].decode().lower()
    else:
        assert letters == []
    found = await rulings(redis_client, GAME)
    if case.ruling:
        assert [(r["command_id"], r["rule_id"]) for r in found] == [("bad", case.rule_id)]
    else:
        assert found == []
    # No event from the bad entry, anywhere.
    assert command_ids(await log(store, GAME)) == [f"create-{GAME}", good.command_id]
    if case.game != GAME:
        assert not await redis_client.exists(game_keys(case.game).ev, game_keys(case.game).meta)


async def test_a_command_id_reused_for_another_move_does_nothing(
    service: RulesService, store: EventStore, redis_client: Redis
) -> None:
    script = await started_game(service)
    good, _ = script.next("good")
    await send(redis_client, good)
    await pump(service)
    accepted = await outcome_of(store, good)
    _, credential = script.current()
    reuse = Signed(command_id=good.command_id, game_id=GAME, credential=credential,
                   expected_version=script.state.version, command=_legal(script))
    await send(redis_client, reuse)
    await pump(service)
    assert await outcome_of(store, good) == accepted
    assert command_ids(await log(store, GAME)) == [f"create-{GAME}", good.command_id]


async def test_a_poison_command_is_dead_lettered_after_too_many_deliveries(
    service: RulesService, store: EventStore, redis_client: Redis
) -> None:
    """A command whose workers keep dying (delivered more than max_deliveries times) is set
    aside and answered service.dead_letter instead of cycling through the claimer for ever."""
    script = await started_game(service)
    poison, _ = script.next("poison")
    entry = await send(redis_client, poison)
    stream = commands_key(partition(GAME))
    # Delivered to a worker that died, then claimed by one dead worker after another.
    await redis_client.xreadgroup("rules", "crashed-worker", {stream: ">"})
    for _ in range(service.max_deliveries):
        await redis_client.xclaim(stream, "rules", "crashed-worker", 0, [entry])
    claimer = RulesService(redis_client, "rules-claimer", claim_idle_ms=0)
    assert await claimer.claim_pending() == 1
    outcome = await outcome_of(store, poison)
    assert outcome is not None
    assert outcome["rule_id"] == "service.dead_letter"
    letters = await dead_letters(redis_client, partition(GAME))
    assert [entry_fields[b"entry"] for entry_fields in letters] == [entry]
    assert await total_pending(redis_client) == 0
    assert command_ids(await log(store, GAME)) == [f"create-{GAME}"]


@pytest.mark.slow
async def test_hostile_inputs_against_a_real_worker_process(
    processes: Any, service: RulesService, store: EventStore, redis_client: Redis
) -> None:
    """The whole battery at once against `hexlog serve rules`: still running afterwards,
    every bad entry answered or dead-lettered, nothing pending, the good move accepted."""
    script = await started_game(service)
    worker = processes("rules")
    await wait_started(redis_client, worker)
    expected_letters = 0
    for i, case in enumerate(CASES):
        BAD[0] = f"bad-{i}"  # one command id per case, so each outcome can be checked
        try:
            fields = case.fields(script)
        finally:
            BAD[0] = "bad"
        raw = fields.get(DATA) or b""
        if KIND in fields:  # organisers' requests name their id themselves
            fields = {**fields, DATA: raw.replace(b'"bad"', f'"bad-{i}"'.encode())}
        await send_raw(redis_client, case.game, fields)
        expected_letters += bool(case.dead_letter)
    good, _ = script.next("good")
    await send(redis_client, good)
    assert (await wait_outcome(store, good.command_id, GAME, scope=good.scope))["status"] == "accepted"
    await wait_no_pending(redis_client)
    assert worker.proc.poll() is None, worker.output()
    for i, case in enumerate(CASES):
        if case.rule_id is not None:
            outcome = await store.get_outcome(f"bad-{i}", case.game, scope=case.scope)
            assert outcome is not None
            assert outcome["rule_id"] == case.rule_id, (case.name, outcome)
    letters = [
        letter
        for p in {partition(c.game) for c in CASES}
        for letter in await dead_letters(redis_client, p)
    ]
    assert len(letters) == expected_letters
    assert command_ids(await log(store, GAME)) == [f"create-{GAME}", good.command_id]


# --- helpers ------------------------------------------------------------------------------------


async def started_game(service: RulesService) -> Script:
    """A game at version 1 (seat 0 to place a settlement), created in-process."""
    req = create_request(GAME, command_id=f"create-{GAME}")
    await send_create(service.redis, req)
    await pump(service)
    outcome = await created_outcome(service.store, req)
    assert outcome is not None
    script = Script.start(req, outcome["credentials"])
    assert isinstance(_legal(script), PlaceSettlement)
    return script

