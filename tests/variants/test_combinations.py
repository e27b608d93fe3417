"""Catan for Two + Event Cards (docs/rules/event-cards.md §3 DECISIONS "Catan for Two", §13 row 5): two event
cards per turn instead of two rolls; a second card with the first card's number is kept (no
card drawn again, the number applies twice); the events of both cards are resolved. Rule id
`catan_for_two.event_cards.two_draws`, implemented in the pair's combination module
(engine/combinations/catan_for_two_event_cards.py), which provides Catan for Two's `SECOND_ROLL`.

Every such test runs with the modules in both orders (`--variant catan-for-two --variant
event-cards` and the reverse). Beginner board, 2 seats after the default set-up: a 9 gives
seat 0 two grain, a 12 one grain; a 5 gives seat 1 one brick, an 8 one lumber; desert (0,0).

At the end, the other clauses that only arise when two of the four variants meet: the event
deck's 7 is the Friendly Robber's 7, neutral pieces are never protected and earn no harbor
points, and the event cards never let a neutral act or receive.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from bots.heuristic import HeuristicBot
from bots.local import play
from events.catan_for_two import DiceRerolled
from events.commands import EndTurn, MoveRobber, PlayKnight, RollDice
from events.event_cards import (
    EventCardDrawn,
    EventChoiceRequired,
    EventResourcesGranted,
    RobberFled,
    TakeResource,
)
from events.events import (
    DiceRolled,
    DiscardRequired,
    Event,
    ModuleSpec,
    ResourcesProduced,
    RobberMoved,
)
from services.rules.engine import RULES, new_game
from services.rules.engine.capabilities import SECOND_ROLL
from services.rules.engine.chance import SeededDealer
from services.rules.engine.state import MAIN, ROBBER, ROLL
from services.rules.engine.testing import Table

C42 = ModuleSpec(name="catan-for-two")
EC = ModuleSpec(name="event-cards")
ORDERS = pytest.mark.parametrize(
    "modules", [(C42, EC), (EC, C42)], ids=["c42-then-ec", "ec-then-c42"]
)


def table(modules: Sequence[ModuleSpec]) -> Table:
    t = Table(seats=2, modules=modules)
    t.state.ext["catan-for-two"].tokens = [5, 5]
    t.state.ext["catan-for-two"].supply = 10
    return t


def draw(t: Table, *cards: tuple[int, str]) -> list[Event]:
    t.script("eventdeck", *cards)
    return t.when(RollDice(seat=t.state.current))


def of(events: Sequence[Event], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def step(t: Table) -> int:
    value: int = t.state.ext["catan-for-two"].step
    return value


def test_catan_for_two_event_cards_two_draws_rule_is_registered() -> None:
    assert "catan_for_two.event_cards.two_draws" in RULES
    assert Table(seats=2, modules=[C42]).state.rules.capability(SECOND_ROLL) is None
    both = Table(seats=2, modules=[C42, ModuleSpec(name="event-cards")]).state.rules
    assert both.capability(SECOND_ROLL) is not None


@ORDERS
def test_catan_for_two_event_cards_two_draws_two_cards_replace_the_two_rolls(
        modules: Sequence[ModuleSpec]) -> None:
    t = table(modules)
    first = draw(t, (5, "none"))
    assert [(c.number, c.index) for c in of(first, EventCardDrawn)] == [(5, 0)]
    assert of(first, ResourcesProduced)[0].gains[1] == {"brick": 1}
    assert t.state.phase == ROLL
    assert step(t) == 1
    assert t.state.ext["catan-for-two"].first == 5
    second = draw(t, (8, "none"))
    assert [(c.number, c.index) for c in of(second, EventCardDrawn)] == [(8, 1)]
    assert t.state.phase == MAIN
    assert t.hand(1) == {"brick": 1, "lumber": 1}
    assert not of(first + second, DiceRolled)
    assert not of(first + second, DiceRerolled)
    t.rejects(RollDice(seat=0), "base.roll.already")
    t.when(EndTurn(seat=0))
    assert step(t) == 0
    assert t.state.phase == ROLL


@ORDERS
def test_catan_for_two_event_cards_two_draws_a_repeated_number_is_applied_twice(
        modules: Sequence[ModuleSpec]) -> None:
    t = table(modules)
    draw(t, (9, "none"))
    second = draw(t, (9, "none"))
    cards = of(second, EventCardDrawn)
    assert [(c.number, c.index) for c in cards] == [(9, 1)]  # no card drawn again
    assert t.state.ext["event_cards"].index == 2
    assert t.hand(0) == {"grain": 4}  # 2 grain for each of the two 9s
    assert t.state.phase == MAIN


@ORDERS
def test_catan_for_two_event_cards_two_draws_a_repeated_seven_resolves_the_robber_twice(
        modules: Sequence[ModuleSpec]) -> None:
    t = table(modules)
    t.give(1, ore=17)
    first = draw(t, (7, "robber_attacks"))
    assert of(first, DiscardRequired)[0].counts == (0, 8)
    t.when(next_discard(t))
    assert t.state.phase == ROBBER
    t.when(MoveRobber(seat=0, hex=t.hex("(2,0)")))
    assert t.state.phase == ROLL
    second = draw(t, (7, "robber_attacks"))
    assert of(second, DiscardRequired)[0].counts == (0, 4)  # 9 cards left after the first
    t.when(next_discard(t))
    t.when(MoveRobber(seat=0, hex=t.hex("(-2,0)")))
    assert t.state.phase == MAIN
    assert len([e for e in t.log if isinstance(e, RobberMoved)]) == 2


def next_discard(t: Table) -> Any:
    from bots.local import next_prompt
    from services.rules.engine import pending

    return next_prompt(t.state, pending(t.state)).default


@ORDERS
def test_catan_for_two_event_cards_two_draws_the_events_of_both_cards_are_resolved(
        modules: Sequence[ModuleSpec]) -> None:
    t = table(modules)
    t.state.robber = t.hex("(1,0)")
    t.state.players[0].knights = 1
    first = draw(t, (4, "robber_flees"))
    assert of(first, RobberFled)[0].hex == t.hex("(0,0)")
    assert t.state.phase == ROLL
    second = draw(t, (5, "tournament"))
    assert of(second, EventChoiceRequired)[0].seats == (0,)
    assert t.state.phase == "event_cards.grant"
    done = t.when(TakeResource(seat=0, resource="ore"))
    granted = of(done, EventResourcesGranted)[0]
    assert granted.gains[0] == {"ore": 1}
    # The event first, then the production of the card's number (seat 1's brick from the 5).
    assert type(done[-1]) is ResourcesProduced
    assert t.hand(1) == {"brick": 1}
    assert t.state.phase == MAIN


@ORDERS
def test_catan_for_two_event_cards_two_draws_a_stage_on_the_first_card_comes_back_to_the_second_draw(
        modules: Sequence[ModuleSpec]) -> None:
    t = table(modules)
    t.state.players[1].knights = 1
    draw(t, (5, "tournament"))
    assert t.state.phase == "event_cards.grant"
    t.when(TakeResource(seat=1, resource="wool"))
    assert t.state.phase == ROLL
    assert step(t) == 1
    draw(t, (12, "calm_sea"))
    if t.state.phase == "event_cards.grant":  # whoever sits at the most harbors takes a card
        for s in list(t.state.ext["event_cards"].waiting):
            t.when(TakeResource(seat=s, resource="lumber"))
    assert t.state.phase == MAIN


@ORDERS
def test_catan_for_two_event_cards_two_draws_new_year_on_the_second_draw_still_draws_one_number_card(
        modules: Sequence[ModuleSpec]) -> None:
    t = table(modules)
    draw(t, (6, "none"))
    x = t.state.ext["event_cards"]
    x.index = x.per_cycle  # the deck is spent: the next reveal is New Year
    second = draw(t, (10, "none"))
    cards = of(second, EventCardDrawn)
    assert [(c.number, c.event, c.cycle, c.index) for c in cards] == [
        (0, "new_year", 0, x.per_cycle), (10, "none", 1, 0)]
    assert t.state.phase == MAIN


@ORDERS
def test_catan_for_two_event_cards_two_draws_a_knight_between_the_draws_returns_to_the_second(
        modules: Sequence[ModuleSpec]) -> None:
    t = table(modules)
    t.give_dev(0, "knight")
    draw(t, (5, "none"))
    t.when(PlayKnight(seat=0))
    t.when(MoveRobber(seat=0, hex=t.hex("(2,0)")))
    assert t.state.phase == ROLL
    draw(t, (8, "none"))
    assert t.state.phase == MAIN


def test_catan_for_two_event_cards_two_draws_the_module_order_does_not_change_a_game() -> None:
    """The same seed and bots give the same events whichever module is listed first."""
    logs = []
    for modules in ((C42, EC), (EC, C42)):
        seed = b"c42-ec-order"
        created = new_game("order", 2, seed, modules=modules, turn_limit=500)
        game = play(created, [HeuristicBot(s) for s in range(2)], SeededDealer(seed))
        logs.append(game.log[1:])
        assert not of(game.log, DiceRolled)
        assert game.state.finished
    assert logs[0] == logs[1]


# --- other clauses that only arise in a combination ------------------------------------------

FR = ModuleSpec(name="friendly-robber")
HM = ModuleSpec(name="harbormaster")
A, B = 2, 3  # catan-for-two's neutral owners


def test_friendly_robber_with_event_cards_robber_attacks_obeys_the_protection() -> None:
    """Seed §2①: "when the dice total 7" — the event deck's 7 (Robber Attacks) is that 7."""
    t = Table(seats=4, modules=[FR, EC])  # after set-up everybody has 2 VP: all protected
    draw(t, (7, "robber_attacks"))
    assert t.state.phase == ROBBER
    options = [o for o in pending_of(t) if isinstance(o, MoveRobber)]
    # Only the east of the island, away from every seat's buildings, and nobody to rob.
    assert {t.state.board.hex_name(o.hex) for o in options} == {
        "(0,-1)", "(0,1)", "(0,2)", "(1,-2)", "(1,-1)", "(1,0)", "(1,1)", "(2,-2)", "(2,-1)",
        "(2,0)"}
    assert all(o.victim is None for o in options)
    t.rejects(MoveRobber(seat=0, hex=t.hex("(-1,-1)")), "friendly_robber.hex.protected")
    t.when(MoveRobber(seat=0, hex=t.hex("(2,0)")))
    assert t.state.phase == MAIN


def pending_of(t: Table) -> list[Any]:
    from services.rules.engine import pending

    return list(pending(t.state)[0].options)


def test_friendly_robber_with_catan_for_two_neutral_pieces_are_never_protected() -> None:
    """Only players are protected (docs/rules/friendly-robber.md §2.1 `protected(p)`); neutrals are no players."""
    t = Table(seats=2, modules=[C42, FR])  # both seats at 2 VP: protected
    t.script("dice", (3, 4))
    t.when(RollDice(seat=0))
    hexes = {o.hex for o in pending_of(t) if isinstance(o, MoveRobber)}
    assert t.hex("(0,-1)") in hexes  # next to neutral A only
    assert t.hex("(1,1)") in hexes  # next to neutral B only
    t.rejects(MoveRobber(seat=0, hex=t.hex("(-1,-1)")), "friendly_robber.hex.protected")
    t.when(MoveRobber(seat=0, hex=t.hex("(0,-1)")))  # nobody to rob there
    assert t.state.phase == ROLL


def test_harbormaster_with_catan_for_two_neutral_buildings_earn_no_harbor_points() -> None:
    t = Table(seats=2, modules=[C42, HM])
    before = view_points(t)
    a, b = t.state.board.harbor_vertices[0]
    t.place(A, a)  # a neutral settlement on a harbor
    assert view_points(t) == before
    assert len(view_points(t)) == 2
    assert t.state.ext["harbormaster"] == -1
    assert t.state.rules.hooks.win_target(t.state, 0) == 11  # Catan for Two's 10, plus 1


def view_points(t: Table) -> list[int]:
    from services.rules.engine import view

    points: list[int] = view(t.state, None).ext["harbormaster"]["points"]
    return points


def test_event_cards_with_catan_for_two_trade_advantage_does_nothing_when_a_neutral_holds_longest_road() -> None:
    """DECISION (ours): a neutral holding Longest Road is a holder (the card is claimed), and
    a neutral never takes cards (catan.de FAQ), so nobody acts."""
    t = table((C42, EC))
    t.state.longest_holder = A
    t.give(1, ore=2)
    events = draw(t, (5, "trade_advantage"))
    assert of(events, EventChoiceRequired)[0].seats == ()
    assert t.state.phase == ROLL
    assert t.hand(1) == {"ore": 2, "brick": 1}  # untouched, plus the 5's brick


def test_event_cards_with_catan_for_two_good_neighbors_goes_to_the_other_player_not_a_neutral() -> None:
    from events.event_cards import GiveToNeighbor, NeighborsGifted

    t = table((EC, C42))
    t.give(0, ore=1)
    t.give(1, wool=1)
    draw(t, (6, "good_neighbors"))
    t.when(GiveToNeighbor(seat=0, resource="ore"))
    done = t.when(GiveToNeighbor(seat=1, resource="wool"))
    gifted = of(done, NeighborsGifted)[0]
    assert gifted.receivers == (1, 0)
    assert t.hand(0) == {"wool": 1}
    assert t.hand(1) == {"ore": 1}
    assert t.state.players[A].hand == [0] * 5
