"""Traders & Barbarians: every option a prompt lists is a legal command (decide accepts it),
and a state mid-game survives a snapshot (the scenario state as plain JSON and back)."""

from __future__ import annotations

import random

from tb_helpers import TB

from bots.random_bot import RandomBot
from events.events import ModuleSpec
from services.rules.engine import decide, evolve, initial_state, new_game, next_prompt, pending
from services.rules.engine.chance import SeededDealer
from services.rules.engine.snapshot import dump, load
from services.rules.engine.state import State

PROBES = 12  # options decided per prompt


def games(seeds: int, seats: int = 4, extra: tuple[ModuleSpec, ...] = ()) -> list[State]:
    """Random games, each probed at every prompt; the states met every 50 commands."""
    kept = []
    for i in range(seeds):
        seed = f"tb-legal-{seats}-{i}".encode()
        created = new_game(f"l{i}", seats, seed, modules=[TB, *extra], turn_limit=60)
        state = initial_state(created)
        dealer = SeededDealer(seed)
        bots = [RandomBot(i * 4 + s) for s in range(seats)]
        rng = random.Random(i)
        n = 0
        while not state.finished:
            prompt = next_prompt(state, pending(state))
            for option in rng.sample(prompt.options, min(PROBES, len(prompt.options))):
                decide(state, option, SeededDealer(b"probe"))  # raises if it is not legal
            command = bots[prompt.seat].choose(None, prompt)
            for e in decide(state, command, dealer):
                evolve(state, e)
            n += 1
            if n % 50 == 0:
                kept.append(state.copy())
    return kept


def test_every_prompt_option_is_legal() -> None:
    assert games(3)
    assert games(2, seats=2, extra=(ModuleSpec(name="catan-for-two"),))


def test_a_snapshot_keeps_the_scenario_state() -> None:
    for state in games(1)[::5]:
        created = new_game("l0", 4, b"tb-legal-4-0", modules=[TB], turn_limit=60)
        again = load(dump(state), created)
        assert again.to_dict() == state.to_dict()
