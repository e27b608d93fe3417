"""`hexlog bench engine` plays its games in a loop of fastcatan's shape (`bench.random_game`:
the seat's `rng.choice` over the prompt's options, no bot call around it). Its games must be the
ones the random bots play through `bots.local.play`, or the benchmark measures other games than
the ones every other figure describes."""

from __future__ import annotations

import pytest

from bots.local import play
from bots.random_bot import RandomBot
from events.events import ModuleSpec
from services.cli.bench import random_game
from services.rules.engine import new_game
from services.rules.engine.chance import SeededDealer
from services.rules.engine.snapshot import dump


@pytest.mark.parametrize(("ruleset", "variant", "seats"), [
    ("base", "", 4), ("base", "", 3), ("base", "event-cards", 4), ("base", "catan-for-two", 2),
    ("traders-and-barbarians", "", 4), ("pirate-islands", "", 4),
])
def test_the_benchmark_loop_plays_the_random_bots_games(
        ruleset: str, variant: str, seats: int) -> None:
    specs = (ModuleSpec(name=variant),) if variant else ()
    for g in range(3):
        seed = f"bench-loop:{ruleset}:{variant}:{g}".encode()

        created = new_game(f"loop-{g}", seats, seed, modules=specs, ruleset=ruleset,
                           turn_limit=300)
        bots = [RandomBot(g * 10 + s) for s in range(seats)]
        state, decisions = random_game(created, bots, SeededDealer(seed))
        bots = [RandomBot(g * 10 + s) for s in range(seats)]
        game = play(created, bots, SeededDealer(seed), deterministic=False)
        assert decisions == game.decisions
        assert state.version == game.state.version == len(game.log)
        assert dump(state) == dump(game.state)
