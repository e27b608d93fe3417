"""Barbarian Attack with variants (docs/rules/combinations.md §13.3, barbarian-attack.md §9.12):
Friendly Robber is refused (no robber); Event Cards and Catan for Two are refused until their
adjustments are built; Harbormaster plays to 13 and a conquered building counts no harbor
points (the card moves when barbarians arrive or leave); victory-points and undo combine."""

from __future__ import annotations

import pytest
from ba_helpers import SPEC, barbarians, corner, ext, hx, side, table

from events.barbarian_attack import RelocateByTreason
from events.commands import BuildSettlement, BuyDevelopmentCard
from events.events import ModuleSpec
from events.harbormaster import HarbormasterChanged
from services.rules.engine import RulesetError, new_game
from services.rules.engine.variants.harbormaster import harbor_points

HARBORMASTER = ModuleSpec(name="harbormaster")


@pytest.mark.parametrize(("variant", "reason"), [
    ("friendly-robber", "no robber"),
    ("event-cards", "not built in hexlog yet"),
    ("catan-for-two", "not built in hexlog yet"),
])
def test_refused_combinations_say_why(variant: str, reason: str) -> None:
    seats = 2 if variant == "catan-for-two" else 3
    with pytest.raises(RulesetError, match=reason):
        new_game("g", seats, b"s", modules=[SPEC, ModuleSpec(name=variant)])
    with pytest.raises(RulesetError, match=reason):
        new_game("g", seats, b"s", modules=[ModuleSpec(name=variant), SPEC])


@pytest.mark.parametrize("other", ["victory-points", "undo", "harbormaster"])
def test_combinations_that_are_offered(other: str) -> None:
    new_game("g", 3, b"s", modules=[SPEC, ModuleSpec(name=other)])


@pytest.mark.parametrize("order", ["scenario-first", "variant-first"])
def test_harbormaster_conquered_buildings_count_no_harbor_points(order: str) -> None:
    more = (HARBORMASTER,)
    t = table(more=more) if order == "scenario-first" else table()
    if order == "variant-first":
        from services.rules.engine.testing import Table

        t = Table(seats=3, modules=[HARBORMASTER, SPEC], setup=False)
        t.state.setup_pos = len(t.state.setup_order)
        t.state.turn = 1
        t.turn_of(0, rolled=True)
    assert t.state.rules.win_target(t.state, 0) == 13
    barbarians(t, {(2, 0): 2, (0, 2): 1})
    t.place(0, corner(t, (2, 0), 1), city=True)  # a 3:1 harbor: 2 points
    t.road(0, side(t, (1, -2), 5))
    t.give(0, lumber=1, brick=1, wool=1, grain=1)
    t.script("landing", (1, 1), (1, 2), (2, 2))
    events = t.when(BuildSettlement(seat=0, vertex=corner(t, (1, -2), 0)))  # the wool harbor
    assert HarbormasterChanged(holder=0, points=(3, 0, 0)) in events
    t.script("devcard", "treason")
    t.give(0, wool=1, grain=1, ore=1)
    t.when(BuyDevelopmentCard(seat=0))
    events = t.when(RelocateByTreason(seat=0, source=hx(t, (0, 2)), target=hx(t, (2, 0))))
    assert ext(t).barbarians[hx(t, (2, 0))] == 3
    assert harbor_points(t.state, 0) == 1
    assert any(isinstance(e, HarbormasterChanged) and e.holder is None for e in events)
