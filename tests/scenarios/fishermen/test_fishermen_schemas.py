"""Every message of Fishermen games validates against the committed JSON Schemas (docs/schemas/):
prompts, views (with the scenario's view extension), commands and their envelopes, events and
theirs, the fish commands and events included."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from bots.local import next_prompt
from bots.random_bot import RandomBot
from events.codec import codec
from events.envelope import CommandEnvelope, EventEnvelope
from events.events import ModuleSpec
from services.rules.engine import decide, evolve, initial_state, new_game, pending, view
from services.rules.engine.chance import SeededDealer

SCHEMAS = Path(__file__).parents[3] / "docs" / "schemas"


def validator(name: str) -> Any:
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


@pytest.mark.parametrize(("variants", "seats"), [((), 4), (("catan-for-two", "event-cards"), 2)],
                         ids=["plain", "two"])
def test_every_message_of_a_fishermen_game_validates(variants: tuple[str, ...], seats: int) -> None:
    check = {name: validator(name) for name in
             ("prompt", "view", "command", "command-envelope", "event", "event-envelope")}
    enc = codec().encode
    specs = [ModuleSpec(name="fishermen"), *(ModuleSpec(name=v) for v in variants)]
    created = new_game("g-fish", seats, b"fish-schema", modules=specs, turn_limit=120)
    state = initial_state(created)
    dealer = SeededDealer(b"fish-schema")
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
        ok("command-envelope", CommandEnvelope(command_id=f"c{state.version}", game_id="g-fish",
                                               expected_version=state.version, command=command))
        for event in decide(state, command, dealer):
            ok("event", event)
            ok("event-envelope", EventEnvelope(game_id="g-fish", version=state.version + 1,
                                               at="2026-01-01T00:00:00+00:00",
                                               command_id=f"c{state.version}", event=event))
            evolve(state, event)
    assert {"FishDrawn", "FishSpent", "OldBootDrawn"} <= seen
