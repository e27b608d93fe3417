"""Prompts list only legal commands: every option of sampled prompts of random games is accepted
by the decider; and `chance_outcomes` (search bots) covers the scenario's chance exactly."""

from __future__ import annotations

from fractions import Fraction

from pirate_helpers import PIRATES, pirate, places, sail_to_fortress, table

from bots.random_bot import RandomBot
from events.commands import RollDice
from events.pirate_islands import AttackFortress, FleetLooted, FortressAttacked
from services.rules.engine import (
    chance_outcomes,
    decide,
    evolve,
    initial_state,
    new_game,
    next_prompt,
    pending,
)
from services.rules.engine.chance import SeededDealer


def test_every_prompted_option_is_legal() -> None:
    stages: set[str] = set()
    for i in range(12):
        seats = 3 + i % 2
        seed = f"legal-{i}".encode()
        state = initial_state(new_game("g", seats, seed, modules=[PIRATES], turn_limit=150))
        dealer = SeededDealer(seed)
        bots = [RandomBot(i * 5 + k) for k in range(seats)]
        n = 0
        while not state.finished:
            prompts = pending(state)
            if n % 7 == 0:
                for prompt in prompts:
                    stages.add(prompt.stage)
                    for option in prompt.options:
                        decide(state, option, dealer)  # raises Rejected if illegal
            prompt = next_prompt(state, prompts)
            for e in decide(state, bots[prompt.seat].choose(None, prompt), dealer):
                evolve(state, e)
            n += 1
    assert {"pirate_islands.steal", "main", "roll"} <= stages


def test_chance_outcomes_of_a_roll_and_a_fortress_attack() -> None:
    t = table()
    t.give(0, ore=2, wool=1)
    pirate(t).fleet = 11  # a 2 as the smaller die stops beside seat 0: loot is drawn
    t.turn_of(0, rolled=False)
    outcomes = chance_outcomes(t.state, RollDice(seat=0))
    assert sum(p for p, _ in outcomes) == 1
    looted = [(p, es) for p, es in outcomes
              if any(isinstance(e, FleetLooted) for e in es)]
    assert looted
    t.turn_of(0)
    sail_to_fortress(t, 0)
    pirate(t).warships[0] = 3
    attack = chance_outcomes(t.state, AttackFortress(seat=0, fortress=places(t, 0).fortress))
    assert len(attack) == 6
    hits = sum(p for p, es in attack
               if any(isinstance(e, FortressAttacked) and e.result == "hit" for e in es))
    assert hits == Fraction(2, 6)  # a 1 or a 2 against 3 warships


def test_a_snapshot_round_trips_the_scenario_state() -> None:
    from services.rules.engine import snapshot

    seed = b"snapshot"
    created = new_game("g", 4, seed, modules=[PIRATES], turn_limit=200)
    state = initial_state(created)
    dealer = SeededDealer(seed)
    bots = [RandomBot(k) for k in range(4)]
    checked = decisions = 0
    while not state.finished:
        prompt = next_prompt(state, pending(state))
        for e in decide(state, bots[prompt.seat].choose(None, prompt), dealer):
            evolve(state, e)
        decisions += 1
        if decisions % 97 == 0:
            again = snapshot.load(snapshot.dump(state), created)
            assert again.to_dict() == state.to_dict()
            assert [p.options for p in pending(again)] == [p.options for p in pending(state)]
            checked += 1
    assert checked > 3
