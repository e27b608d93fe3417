"""The JSON Schemas in docs/schemas/ are the code's, and real messages satisfy them.

A bot author in another language works from docs/protocol.md and these files; if a command,
event or field changes and the files are not made again (`hexlog schemas --out docs/schemas`),
this fails. Every prompt, view, command envelope and event of whole games (the base game and
every variant) must validate against its schema, so the schemas say what really travels.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
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


def validator(name: str) -> Any:
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def validate_whole_game(modules: tuple[str, ...], seats: int, seed: bytes,
                        turn_limit: int) -> tuple[bool, set[str]]:
    """Random bots play a game; every prompt, view, command, event and envelope of it is
    validated against the committed schemas. (Whether it finished, the message types seen.)"""
    check = {name: validator(name) for name in
             ("prompt", "view", "command", "command-envelope", "event", "event-envelope")}
    enc = codec().encode
    created = new_game("g-schema", seats, seed, modules=[ModuleSpec(name=m) for m in modules],
                       turn_limit=turn_limit)
    state = initial_state(created)
    dealer = SeededDealer(seed)
    bots = [RandomBot(seat) for seat in range(seats)]
    seen: set[str] = set()

    def ok(kind: str, obj: object) -> None:
        data = json.loads(enc(obj))
        check[kind].validate(data)
        seen.add(data.get("type", kind) if isinstance(data, dict) else kind)

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
    return state.finished, seen


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


@pytest.mark.parametrize("bad", [
    {"command_id": "c", "game_id": "g", "expected_version": 3, "command": {"type": "Teleport", "seat": 0}},
    {"command_id": "c", "game_id": "g", "expected_version": 3, "command": {"type": "EndTurn"}},
    {"command_id": "c", "game_id": "g", "command": {"type": "EndTurn", "seat": 0}},
    {"command_id": "c", "game_id": "g", "expected_version": 3, "credential": "x",
     "command": {"type": "EndTurn", "seat": 0}},
], ids=["unknown-type", "no-seat", "no-version", "unknown-field"])
def test_what_the_service_refuses_the_schema_refuses(bad: dict[str, Any]) -> None:
    with pytest.raises(jsonschema.ValidationError):
        validator("command-envelope").validate(bad)
    with pytest.raises(CodecError):  # the codec (the service's decoder) refuses it too
        codec().decode_command_envelope(json.dumps(bad).encode())
