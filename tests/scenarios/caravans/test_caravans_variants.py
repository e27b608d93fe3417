"""The Caravans with the four variants (docs/rules/caravans.md §8.9, combinations.md §13.3)."""

from __future__ import annotations

import pytest
from caravans_kit import (
    NORTH,
    SOUTH_EAST,
    SOUTH_WEST,
    bid_all,
    name,
    of,
    open_vote,
    start,
    table,
    x,
)

from events.caravans import CamelPlaced, CamelVoteDecided, PlaceSecondCamel
from events.catan_for_two import RobberSentToDesert, SendRobberToDesert
from events.commands import MoveRobber, RollDice
from events.event_cards import RobberFled
from events.events import ModuleSpec, RobberMoved, TurnEnded
from services.rules.engine import pending
from services.rules.engine.modules import RulesetError, check_combination
from services.rules.engine.scenarios.caravans import camels
from services.rules.engine.scenarios.caravans.common import SECOND
from services.rules.engine.state import NO_ONE, ROBBER
from services.rules.engine.testing import Table
from services.rules.engine.variants.catan_for_two import EXT as TWO


def two_table() -> Table:
    t = table(seats=2, variants=("catan-for-two",))
    t.state.ext[TWO].tokens = [5, 5]
    t.state.ext[TWO].step = 2
    return t


def test_caravans_combines_with_the_four_variants_as_combinations_md_says() -> None:
    for variant, seats in (("friendly-robber", (2, 3, 4)), ("event-cards", (2, 3, 4)),
                           ("harbormaster", (2, 3, 4)), ("catan-for-two", (2,))):
        for n in seats:
            check_combination((ModuleSpec(name="caravans"), ModuleSpec(name=variant)), n)
    with pytest.raises(RulesetError, match="2 seats"):
        check_combination((ModuleSpec(name="caravans"), ModuleSpec(name="catan-for-two")), 3)
    four = tuple(ModuleSpec(name=n) for n in ("caravans", "friendly-robber", "event-cards",
                                              "harbormaster", "catan-for-two"))
    check_combination(four, 2)


# --- Catan for Two --------------------------------------------------------------------------


def test_caravans_two_player_two_camels_in_two_different_caravans() -> None:
    t = two_table()
    open_vote(t, seat=0)
    bid_all(t, (2, 0), (0, 1))  # seat 0 has the majority: it places both
    events = name(t, 1, SOUTH_WEST, start(t, SOUTH_WEST))
    events = name(t, 0, NORTH, start(t, NORTH))
    decided = of(events, CamelVoteDecided)[0]
    assert decided.decider == 0
    assert decided.second == 0
    assert [e.edge for e in of(events, CamelPlaced)] == [start(t, NORTH)]
    assert t.state.phase == SECOND
    assert not of(events, TurnEnded)
    prompt = pending(t.state)[0]
    assert prompt.seat == 0
    assert {o.caravan for o in prompt.options if isinstance(o, PlaceSecondCamel)} == {SOUTH_EAST, SOUTH_WEST}
    north_next = camels.next_paths(t.state, x(t).caravans[NORTH])  # type: ignore[arg-type]
    t.rejects(PlaceSecondCamel(seat=0, caravan=NORTH, edge=north_next[0]),
              "caravans.two_player.two_camels")
    events = t.when(PlaceSecondCamel(seat=0, caravan=SOUTH_EAST, edge=start(t, SOUTH_EAST)))
    assert [type(e) for e in events] == [CamelPlaced, TurnEnded]
    assert len(x(t).camels) == 2


def test_caravans_two_player_tie_the_active_player_first_then_the_opponent() -> None:
    t = two_table()
    open_vote(t, seat=1)
    bid_all(t, (1, 0), (0, 1))  # 1 vote each: a tie
    name(t, 0, NORTH, start(t, NORTH))
    events = name(t, 1, SOUTH_EAST, start(t, SOUTH_EAST))
    decided = of(events, CamelVoteDecided)[0]
    assert decided.decider == 1
    assert decided.second == 0
    assert of(events, CamelPlaced)[0].edge == start(t, SOUTH_EAST)
    t.rejects(PlaceSecondCamel(seat=1, caravan=NORTH, edge=start(t, NORTH)), "caravans.two_player.tie")
    events = t.when(PlaceSecondCamel(seat=0, caravan=NORTH, edge=start(t, NORTH)))
    assert of(events, TurnEnded)


def test_caravans_two_player_robber_offboard_by_the_token_action() -> None:
    t = two_table()
    t.turn_of(0)
    t.state.robber = t.hex("(1,0)")
    events = t.when(SendRobberToDesert(seat=0))
    assert of(events, RobberSentToDesert)[0].hex == NO_ONE
    assert t.state.robber == NO_ONE


def test_caravans_two_player_robber_offboard_already_off_is_refused() -> None:
    t = two_table()
    t.turn_of(0)
    assert t.state.robber == NO_ONE
    t.rejects(SendRobberToDesert(seat=0), "catan_for_two.robber.at_desert")


# --- Event Cards ----------------------------------------------------------------------------


def test_caravans_event_cards_robber_flees_off_the_board() -> None:
    t = table(variants=("event-cards",))
    t.turn_of(0, rolled=False)
    t.state.robber = t.hex("(1,0)")
    t.script("eventdeck", (4, "robber_flees"))
    events = t.when(RollDice(seat=0))
    assert of(events, RobberFled) == [RobberFled(hex=NO_ONE)]
    assert t.state.robber == NO_ONE


# --- Friendly Robber ------------------------------------------------------------------------


def test_caravans_friendly_robber_offboard_when_no_hex_is_open() -> None:
    t = Table(seats=3, modules=[ModuleSpec(name="caravans"),
                                ModuleSpec(name="friendly-robber", params={"start_vp": 10})])
    board = t.state.board
    oasis = camels.geometry(board).oasis
    seat = 0
    for h in board.topo.land_hexes:
        if h == oasis or any(t.state.vertex_owner[v] != NO_ONE for v in board.topo.hex_vertices[h]):
            continue
        t.place(seat, board.topo.hex_vertices[h][0])
        seat = (seat + 1) % 3
    t.state.robber = t.hex("(1,0)")
    t.turn_of(0, rolled=False)
    t.script("dice", (3, 4))
    t.when(RollDice(seat=0))
    while t.state.phase != ROBBER:  # discards, if any
        t.when(pending(t.state)[0].default)
    options = pending(t.state)[0].options
    assert options == [MoveRobber(seat=0, hex=NO_ONE)]
    events = t.when(MoveRobber(seat=0, hex=NO_ONE))
    assert of(events, RobberMoved)[0].hex == NO_ONE
    assert t.state.robber == NO_ONE
    t.rejects(MoveRobber(seat=0, hex=NO_ONE), "base.turn.wrong_phase")
