"""Barbarian Attack with variants (docs/rules/combinations.md §13.3, barbarian-attack.md §9.12):
Friendly Robber is refused (no robber); Catan for Two combines (its rules:
test_barbarian_attack_two_player.py); Harbormaster plays to 13 and a conquered building counts no harbor points (the card moves
when barbarians arrive or leave); with Event Cards, Robber Flees does nothing, Robber Attacks is
the scenario's 7 and Conflict and Tournament count knights on the board; victory-points and undo
combine."""

from __future__ import annotations

import pytest
from ba_helpers import SPEC, barbarians, corner, ext, hx, knight, side, table

from events.barbarian_attack import ChooseSevenVictim, RelocateByTreason
from events.commands import BuildSettlement, BuyDevelopmentCard, DiscardResources, RollDice
from events.event_cards import EventChoiceRequired, RobberFled
from events.events import CardStolen, ModuleSpec
from events.harbormaster import HarbormasterChanged
from services.rules.engine import RulesetError, new_game, pending
from services.rules.engine.scenarios.barbarian_attack.common import ATTACK, STEAL
from services.rules.engine.state import MAIN, NO_ONE
from services.rules.engine.variants.harbormaster import harbor_points

HARBORMASTER = ModuleSpec(name="harbormaster")


def test_refused_combinations_say_why() -> None:
    with pytest.raises(RulesetError, match="no robber"):
        new_game("g", 3, b"s", modules=[SPEC, ModuleSpec(name="friendly-robber")])
    with pytest.raises(RulesetError, match="no robber"):
        new_game("g", 3, b"s", modules=[ModuleSpec(name="friendly-robber"), SPEC])


@pytest.mark.parametrize("other", ["victory-points", "undo", "harbormaster", "event-cards",
                                   "catan-for-two"])
def test_combinations_that_are_offered(other: str) -> None:
    seats = 2 if other == "catan-for-two" else 3
    new_game("g", seats, b"s", modules=[SPEC, ModuleSpec(name=other)])
    new_game("g", seats, b"s", modules=[ModuleSpec(name=other), SPEC])


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
    assert t.state.rules.hooks.win_target(t.state, 0) == 13
    barbarians(t, {(2, 0): 2, (0, 2): 1})
    t.place(0, corner(t, (2, 0), 1), city=True)  # a 3:1 harbor: 2 points
    t.road(0, side(t, (1, -2), 5))
    t.give(0, lumber=1, brick=1, wool=1, grain=1)
    t.script("landing", 2, 3, 4)
    events = t.when(BuildSettlement(seat=0, vertex=corner(t, (1, -2), 0)))  # the wool harbor
    assert HarbormasterChanged(holder=0, points=(3, 0, 0)) in events
    t.script("devcard", "treason")
    t.give(0, wool=1, grain=1, ore=1)
    t.when(BuyDevelopmentCard(seat=0))
    events = t.when(RelocateByTreason(seat=0, source=hx(t, (0, 2)), target=hx(t, (2, 0))))
    assert ext(t).barbarians[hx(t, (2, 0))] == 3
    assert harbor_points(t.state, 0) == 1
    assert any(isinstance(e, HarbormasterChanged) and e.holder is None for e in events)


EC = ModuleSpec(name="event-cards")


def test_barbarian_attack_event_cards_robber_flees_has_no_effect() -> None:
    t = table(more=(EC,))
    t.turn_of(0, rolled=False)
    t.script("eventdeck", (4, "robber_flees"))
    events = t.when(RollDice(seat=0))
    assert not any(isinstance(e, RobberFled) for e in events)
    assert t.state.robber == NO_ONE
    assert t.state.phase == MAIN


def test_barbarian_attack_event_cards_robber_attacks_is_the_scenarios_seven() -> None:
    t = table(more=(EC,))
    t.give(1, ore=9)
    t.turn_of(0, rolled=False)
    t.script("eventdeck", (7, "robber_attacks"))
    t.when(RollDice(seat=0))
    t.when(DiscardResources(seat=1, resources={"ore": 4}))
    assert t.state.phase == STEAL
    events = t.when(ChooseSevenVictim(seat=0, victim=1))
    assert any(isinstance(e, CardStolen) for e in events)
    assert t.state.phase == MAIN
    assert t.state.robber == NO_ONE


def test_barbarian_attack_event_cards_knights_conflict_and_tournament() -> None:
    t = table(more=(EC,))
    knight(t, 1, side(t, (1, 0), 0))
    knight(t, 1, side(t, (1, 0), 1))
    knight(t, 2, side(t, (1, 0), 3))
    t.give(0, ore=2)
    for card, seats in (((3, "conflict"), (1,)), ((5, "tournament"), (1,))):
        t.turn_of(0, rolled=False)
        t.script("eventdeck", card)
        events = t.when(RollDice(seat=0))
        required = next(e for e in events if isinstance(e, EventChoiceRequired))
        assert required.seats == seats
        t.when(pending(t.state)[0].default)


def test_undo_takes_a_knights_march_back() -> None:
    from events.barbarian_attack import MarchKnight
    from events.disputes import ApproveUndo, ProposeUndo

    t = table(more=(ModuleSpec(name="undo"),))
    start = side(t, (1, 0), 0)
    knight(t, 0, start)
    v = t.state.version
    before = ATTACK.dump(ATTACK.copy(ext(t)))
    target = side(t, (1, 0), 2)
    t.when(MarchKnight(seat=0, source=start, target=target))
    assert ext(t).marching
    t.when(ProposeUndo(seat=1, to_version=v))
    t.when(ApproveUndo(seat=0))
    t.when(ApproveUndo(seat=2))
    assert ATTACK.dump(ext(t)) == before
    assert t.state.players[0].pieces["knight"] == {start}
