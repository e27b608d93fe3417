"""A prompt read off a stream is the prompt the engine made: every option and the default back
as their own command types (a bot picks one and sends it as it is), under every rule module."""

from __future__ import annotations

import random

import pytest

from events.codec import codec
from events.events import ModuleSpec
from services.rules.engine import decide, evolve, initial_state, new_game, pending
from services.rules.engine.chance import SeededDealer
from services.rules.engine.rules import Rejected

MODULES = ["", "barbarian-attack", "caravans", "fishermen", "oil-springs", "pirate-islands",
           "rivers", "traders-and-barbarians", "event-cards", "harbormaster"]


@pytest.mark.parametrize("module", MODULES)
def test_prompts_decode_to_what_the_engine_made(module: str) -> None:
    created = new_game("g-prompts", seed=f"seed-{module}".encode(),
                       modules=[ModuleSpec(name=module)] if module else [])
    state = initial_state(created)
    dealer = SeededDealer(b"dice")
    rng = random.Random(module)
    c = codec()
    seen = 0
    for _ in range(400):
        prompts = pending(state)
        if not prompts or state.finished:
            break
        for prompt in prompts:
            back = c.decode_prompt(c.encode(prompt))
            assert back == prompt
            assert [type(o) for o in back.options] == [type(o) for o in prompt.options]
            seen += 1
        first = prompts[0]
        try:
            events = decide(state, rng.choice(first.options) if first.options else first.default,
                            dealer)
        except Rejected:
            events = decide(state, first.default, dealer)
        for event in events:
            evolve(state, event)
    assert seen > 50
