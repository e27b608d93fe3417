"""The Pirate Islands with the variants (docs/rules/combinations.md §13.3): Friendly Robber,
Event Cards and Catan for Two are refused with their reasons; Harbormaster (target 11),
victory-points and undo combine, and such games play to the end."""

from __future__ import annotations

import pytest
from pirate_helpers import PIRATES, pirate, places, sail

from bots.heuristic import HeuristicBot
from bots.local import play
from bots.random_bot import RandomBot
from events.disputes import ApproveUndo, ProposeUndo
from events.events import GameFinished, ModuleSpec
from events.pirate_islands import BuildShip
from services.rules.engine import RulesetError, new_game
from services.rules.engine.chance import SeededDealer
from services.rules.engine.scenarios.pirate_islands.ships import ship_edges
from services.rules.engine.testing import Table


@pytest.mark.parametrize(("variant", "seats", "reason"), [
    ("friendly-robber", 4, "there is no robber"),
    ("event-cards", 4, "smaller of two dice"),
    ("catan-for-two", 3, "3 or 4 players|played with 2 seats"),
    ("catan-for-two", 2, "played with 3 or 4 seats|played by 3 or 4"),
])
def test_refused_combinations_say_why(variant: str, seats: int, reason: str) -> None:
    for modules in ([PIRATES, ModuleSpec(name=variant)], [ModuleSpec(name=variant), PIRATES]):
        with pytest.raises(RulesetError, match=reason):
            new_game("g", seats, b"s", modules=modules)


@pytest.mark.parametrize("variant", [
    ModuleSpec(name="harbormaster"),
    ModuleSpec(name="victory-points", params={"target": 8}),
    ModuleSpec(name="undo"),
], ids=["harbormaster", "victory-points", "undo"])
def test_allowed_combinations_play_to_the_end(variant: ModuleSpec) -> None:
    for i, seats in enumerate((3, 4)):
        seed = f"combo-{variant.name}-{seats}".encode()
        created = new_game("g", seats, seed, modules=[PIRATES, variant], turn_limit=300)
        bots = [HeuristicBot(i) if k % 2 == 0 else RandomBot(i + k) for k in range(seats)]
        game = play(created, bots, SeededDealer(seed))
        last = game.log[-1]
        assert isinstance(last, GameFinished)
        if last.winner is not None:
            assert pirate_strength(game.state, last.winner) == 0


def pirate_strength(state: object, seat: int) -> int:
    from services.rules.engine.scenarios.pirate_islands.common import pirate as ext

    return ext(state).strength[seat]  # type: ignore[arg-type]


def test_victory_points_sets_the_target_and_the_fortress_still_counts() -> None:
    t = Table(seats=3, modules=[PIRATES, ModuleSpec(name="victory-points",
                                                    params={"target": 8})])
    assert t.state.rules.hooks.win_target(t.state, 0) == 8


def test_undo_takes_back_a_ship() -> None:
    t = Table(seats=3, modules=[PIRATES, ModuleSpec(name="undo")])
    t.turn_of(0)
    before = t.state.version
    route = list(pirate(t).routes[0])
    t.give(0, lumber=1, wool=1)
    t.when(BuildShip(seat=0, edge=ship_edges(t.state, 0)[0]))
    t.when(ProposeUndo(seat=0, to_version=before))
    for seat in (1, 2):
        t.when(ApproveUndo(seat=seat))
    assert pirate(t).routes[0] == route
    assert t.state.players[0].pieces["ship"] == {places(t, 0).first_ship}
    assert t.state.players[0].hand[0] >= 1  # the lumber is back
    sail(t, 0, 1)
