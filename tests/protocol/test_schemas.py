"""The JSON Schemas in docs/schemas/ are the code's, and real messages satisfy them.

A bot author in another language works from docs/protocol.md and these files; if a command,
event or field changes and the files are not made again (`hexlog schemas --out docs/schemas`),
this fails. Every prompt, view, command envelope and event of whole games (the base game and
every variant) must validate against its schema, so the schemas say what really travels.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import jsonschema_rs
import pytest

from bots.local import next_prompt
from bots.random_bot import RandomBot
from events.codec import CodecError, codec
from events.envelope import CommandEnvelope, EventEnvelope
from events.events import ModuleSpec
from services.rules.engine import decide, evolve, initial_state, new_game, pending, view
from services.rules.engine.chance import SeededDealer
from services.schemas import generate

SCHEMAS = Path(__file__).parents[2] / "docs" / "schemas"


def test_the_committed_schemas_are_the_codes() -> None:
    made = generate()
    committed = {p.name: p.read_text(encoding="utf-8") for p in SCHEMAS.glob("*.json")}
    assert sorted(committed) == sorted(made), "run `hexlog schemas --out docs/schemas`"
    for name, text in made.items():
        assert committed[name] == text, f"{name} differs from the code: run `hexlog schemas --out docs/schemas`"


def schema_of(name: str) -> Any:
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)  # a valid 2020-12 schema
    return schema


def validator(name: str) -> Any:
    """The reference validator (pure Python `jsonschema`)."""
    return jsonschema.Draft202012Validator(schema_of(name))


def fast_validator(name: str) -> jsonschema_rs.Draft202012Validator:
    """A second, independent validator (`jsonschema-rs`) for whole games: the same draft and
    verdicts (test_the_two_validators_agree), about a hundred times faster, which is what
    lets every message of every game here be checked in seconds."""
    return jsonschema_rs.Draft202012Validator(schema_of(name))


KINDS = ("prompt", "view", "command", "command-envelope", "event", "event-envelope")


def play_messages(modules: tuple[str, ...], seats: int, seed: bytes, turn_limit: int,
                  on_message: Callable[[str, Any], None]) -> bool:
    """Random bots play a game; every prompt, view, command, event and envelope of it goes to
    `on_message(kind, decoded JSON)`. Whether the game finished."""
    enc = codec().encode
    created = new_game("g-schema", seats, seed, modules=[ModuleSpec(name=m) for m in modules],
                       turn_limit=turn_limit)
    state = initial_state(created)
    dealer = SeededDealer(seed)
    bots = [RandomBot(seat) for seat in range(seats)]

    def ok(kind: str, obj: object) -> None:
        on_message(kind, json.loads(enc(obj)))

    ok("event", created)
    while prompts := pending(state):
        prompt = next_prompt(state, prompts)
        seen_view = view(state, prompt.seat)
        ok("prompt", prompt)
        ok("view", seen_view)
        command = bots[prompt.seat].choose(seen_view, prompt)
        ok("command", command)
        ok("command-envelope", CommandEnvelope(command_id=f"c{state.version}", game_id="g-schema",
                                               expected_version=state.version, command=command))
        for event in decide(state, command, dealer):
            ok("event", event)
            ok("event-envelope", EventEnvelope(game_id="g-schema", version=state.version + 1,
                                               at="2026-01-01T00:00:00+00:00",
                                               command_id=f"c{state.version}", event=event))
            evolve(state, event)
    return state.finished


def validate_whole_game(modules: tuple[str, ...], seats: int, seed: bytes,
                        turn_limit: int) -> tuple[bool, set[str]]:
    """Every message of a random game validated against the committed schemas. (Whether it
    finished, the message types seen.)"""
    check = {name: fast_validator(name) for name in KINDS}
    seen: set[str] = set()

    def ok(kind: str, data: Any) -> None:
        check[kind].validate(data)
        seen.add(data.get("type", kind) if isinstance(data, dict) else kind)

    return play_messages(modules, seats, seed, turn_limit, ok), seen


def spoiled(data: Any) -> list[Any]:
    """Copies of a message each broken in one way a careless bot might break it."""
    if not isinstance(data, dict):
        return []
    out: list[Any] = [dict(data, unexpected_field=1)]
    for key, value in data.items():
        out.append({k: v for k, v in data.items() if k != key})  # a field left out
        if isinstance(value, int) and not isinstance(value, bool):
            out.append(dict(data, **{key: str(value)}))  # a number sent as a string
        break  # the first field is enough per message
    return out


def test_the_two_validators_agree() -> None:
    """The fast validator the whole-game tests use gives the reference validator's verdict on
    real messages of a short game and on broken copies of them."""
    slow = {name: validator(name) for name in KINDS}
    fast = {name: fast_validator(name) for name in KINDS}
    verdicts: list[bool] = []

    def both(kind: str, data: Any) -> None:
        for message in [data, *spoiled(data)]:
            verdict = slow[kind].is_valid(message)
            assert fast[kind].is_valid(message) == verdict, (kind, message)
            verdicts.append(verdict)

    play_messages(("harbormaster", "friendly-robber"), 3, b"agree", turn_limit=2,
                  on_message=both)
    assert verdicts.count(True) > 100
    assert verdicts.count(False) > 100  # the broken copies are refused by both


@pytest.mark.parametrize(("modules", "seats"), [
    ((), 4),
    (("harbormaster", "event-cards", "friendly-robber"), 3),
    (("catan-for-two",), 2),
    (("undo",), 4),
], ids=["base", "three-variants", "catan-for-two", "undo"])
def test_every_message_of_a_game_validates(modules: tuple[str, ...], seats: int) -> None:
    finished, seen = validate_whole_game(modules, seats, b"schema-seed", turn_limit=60)
    assert finished
    assert {"GameCreated", "GameFinished", "RollDice", "BuildRoad"} <= seen


@pytest.mark.parametrize(("modules", "seats"), [
    (("fishermen",), 4),
    (("fishermen", "catan-for-two", "event-cards"), 2),
], ids=["fishermen", "fishermen-two"])
def test_every_message_of_a_scenario_game_validates(modules: tuple[str, ...], seats: int) -> None:
    """A scenario's own commands, events and view extension included (Fishermen's fish)."""
    _, seen = validate_whole_game(modules, seats, b"fish-schema", turn_limit=120)
    assert {"FishDrawn", "FishSpent", "OldBootDrawn"} <= seen


BAD_ENVELOPES = [
    {"command_id": "c", "game_id": "g", "expected_version": 3, "command": {"type": "Teleport", "seat": 0}},
    {"command_id": "c", "game_id": "g", "expected_version": 3, "command": {"type": "EndTurn"}},
    {"command_id": "c", "game_id": "g", "command": {"type": "EndTurn", "seat": 0}},
    {"command_id": "c", "game_id": "g", "expected_version": 3, "credential": "x",
     "command": {"type": "EndTurn", "seat": 0}},
]
BAD_IDS = ["unknown-type", "no-seat", "no-version", "unknown-field"]


@pytest.mark.parametrize("bad", BAD_ENVELOPES, ids=BAD_IDS)
def test_what_the_service_refuses_the_schema_refuses(bad: dict[str, Any]) -> None:
    with pytest.raises(jsonschema.ValidationError):
        validator("command-envelope").validate(bad)
    with pytest.raises(jsonschema_rs.ValidationError):
        fast_validator("command-envelope").validate(bad)
    with pytest.raises(CodecError):  # the codec (the service's decoder) refuses it too
        codec().decode_command_envelope(json.dumps(bad).encode())
