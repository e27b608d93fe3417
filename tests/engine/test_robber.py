"""Rolling a 7 and the robber (docs/rules/base.md §1.6): discards of half (rounded down) for hands over 7,
then the roller moves the robber to another land hex and steals one random card from an
adjacent opponent of their choice; a Knight does the same without discards."""

from __future__ import annotations

import pytest
from engine_helpers import N, S, corner

from events.commands import DiscardResources, EndTurn, MoveRobber, PlayKnight, RollDice
from events.events import (
    CardStolen,
    DiceRolled,
    DiscardRequired,
    KnightPlayed,
    ResourcesDiscarded,
    RobberMoved,
)
from services.rules.engine import pending
from services.rules.engine.state import DISCARD, MAIN, ROBBER, ROLL
from services.rules.engine.testing import Table


def table() -> Table:
    """Seat 1 on the south and seat 2 on the north corner of the forest (1,0); seat 0 to roll."""
    t = Table()
    t.place(1, corner(t, (1, 0), S))
    t.place(2, corner(t, (1, 0), N))
    return t


def roll_seven(t: Table) -> list[object]:
    t.script("dice", (3, 4))
    return t.when(RollDice(seat=t.state.current))  # type: ignore[return-value]


def land_hexes(t: Table) -> list[int]:
    topo = t.state.board.topo
    return [h for h in range(len(topo.hexes)) if topo.hex_is_land[h]]


# --- discards -------------------------------------------------------------------------------


def test_a_seven_makes_every_seat_over_seven_cards_discard_half_rounded_down() -> None:
    t = table()
    t.give(0, ore=5, wool=4)  # 9 -> 4
    t.give(1, grain=8)  # 8 -> 4
    t.give(2, brick=7)  # 7 -> keeps all
    events = roll_seven(t)
    assert events == [DiceRolled(seat=0, d1=3, d2=4, n=0), DiscardRequired(counts=(4, 4, 0, 0))]
    assert t.state.phase == DISCARD
    asked = {p.seat: p.discard for p in pending(t.state)}
    assert asked == {0: 4, 1: 4}


def test_rejects_base_discard_count_for_the_wrong_number_of_cards() -> None:
    t = table()
    t.give(1, grain=5, ore=6)  # 11 -> 5
    roll_seven(t)
    t.rejects(DiscardResources(seat=1, resources={"grain": 4}), "base.discard.count")
    t.rejects(DiscardResources(seat=1, resources={"grain": 5, "ore": 1}), "base.discard.count")
    events = t.when(DiscardResources(seat=1, resources={"grain": 2, "ore": 3}))
    assert events == [ResourcesDiscarded(seat=1, resources={"grain": 2, "ore": 3})]
    assert t.hand(1) == {"grain": 3, "ore": 3}


def test_rejects_base_discard_not_held_for_cards_the_seat_does_not_have() -> None:
    t = table()
    t.give(1, grain=8)
    roll_seven(t)
    t.rejects(DiscardResources(seat=1, resources={"wool": 4}), "base.discard.not_held")
    t.rejects(DiscardResources(seat=1, resources={"grain": 3, "ore": 1}), "base.discard.not_held")
    t.when(DiscardResources(seat=1, resources={"grain": 4}))


def test_the_robber_waits_for_every_discard_and_a_seat_with_nothing_due_cannot_discard() -> None:
    t = table()
    t.give(0, ore=8)
    t.give(2, wool=10)
    roll_seven(t)
    t.rejects(MoveRobber(seat=0, hex=t.hex("(1,0)"), victim=1), "base.turn.wrong_phase")
    t.rejects(DiscardResources(seat=1, resources={}), "base.turn.not_your_turn")
    t.when(DiscardResources(seat=2, resources={"wool": 5}))
    assert t.state.phase == DISCARD
    t.when(DiscardResources(seat=0, resources={"ore": 4}))
    assert t.state.phase == ROBBER
    t.rejects(DiscardResources(seat=0, resources={"ore": 4}), "base.turn.wrong_phase")


def test_a_seven_without_big_hands_goes_straight_to_the_robber() -> None:
    t = table()
    t.give(1, ore=7)
    events = roll_seven(t)
    assert [type(e) for e in events] == [DiceRolled]
    assert t.state.phase == ROBBER


# --- moving the robber ----------------------------------------------------------------------


def test_rejects_base_robber_same_hex_for_leaving_the_robber_where_it_is() -> None:
    t = table()
    roll_seven(t)
    desert = t.hex("(0,0)")
    assert t.state.robber == desert
    t.rejects(MoveRobber(seat=0, hex=desert), "base.robber.same_hex")
    t.when(MoveRobber(seat=0, hex=t.hex("(-2,2)"), victim=1))
    assert t.state.robber == t.hex("(-2,2)")


def test_rejects_base_robber_not_land_for_a_sea_hex_and_base_place_unknown_off_the_map() -> None:
    t = table()
    roll_seven(t)
    topo = t.state.board.topo
    sea = next(h for h in range(len(topo.hexes)) if not topo.hex_is_land[h])
    t.rejects(MoveRobber(seat=0, hex=sea), "base.robber.not_land")
    t.rejects(MoveRobber(seat=0, hex=len(topo.hexes)), "base.place.unknown")
    t.when(MoveRobber(seat=0, hex=t.hex("(2,-2)")))


def test_the_robber_may_go_to_any_other_land_hex_the_desert_included() -> None:
    t = table()
    roll_seven(t)
    options = pending(t.state)[0].options
    assert {o.hex for o in options} == set(land_hexes(t)) - {t.state.robber}  # type: ignore[attr-defined]
    t.when(MoveRobber(seat=0, hex=t.hex("(2,-2)")))
    t.when(EndTurn(seat=0))
    roll_seven(t)
    t.when(MoveRobber(seat=1, hex=t.hex("(0,0)")))
    assert t.state.robber == t.hex("(0,0)")


def test_rejects_base_robber_hex_where_the_ruleset_narrows_the_robbers_hexes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    t = table()
    allowed = {t.hex("(2,-2)"), t.hex("(0,2)")}
    # The ruleset is shared by every game using it: monkeypatch puts the hook back afterwards.
    monkeypatch.setattr(t.state.rules.hooks, "robber_hexes", lambda state, seat: sorted(allowed))
    roll_seven(t)
    t.rejects(MoveRobber(seat=0, hex=t.hex("(1,0)"), victim=1), "base.robber.hex")
    t.when(MoveRobber(seat=0, hex=t.hex("(0,2)")))


# --- stealing -------------------------------------------------------------------------------


def test_rejects_base_robber_victim_for_a_seat_without_a_building_there_or_no_choice() -> None:
    t = table()
    t.place(0, corner(t, (1, 1), S))  # the roller's own building on (1,1)
    t.give(1, wool=2, ore=1)
    roll_seven(t)
    forest = t.hex("(1,0)")
    t.rejects(MoveRobber(seat=0, hex=forest, victim=3), "base.robber.victim")
    t.rejects(MoveRobber(seat=0, hex=forest), "base.robber.victim")
    t.rejects(MoveRobber(seat=0, hex=t.hex("(1,1)"), victim=0), "base.robber.victim")
    t.rejects(MoveRobber(seat=0, hex=forest, victim=9), "base.robber.victim")
    t.script("steal", "wool")
    events = t.when(MoveRobber(seat=0, hex=forest, victim=1))
    assert events == [
        RobberMoved(seat=0, hex=forest, victim=1),
        CardStolen(thief=0, victim=1, resource="wool", n=0),
    ]
    assert (t.hand(0), t.hand(1)) == ({"wool": 1}, {"wool": 1, "ore": 1})
    assert t.state.phase == MAIN


def test_the_robber_options_name_every_adjacent_opponent() -> None:
    t = table()
    roll_seven(t)
    options = pending(t.state)[0].options
    at_forest = sorted(o.victim for o in options if o.hex == t.hex("(1,0)"))  # type: ignore[attr-defined]
    assert at_forest == [1, 2]
    at_far = [o.victim for o in options if o.hex == t.hex("(2,-2)")]  # type: ignore[attr-defined]
    assert at_far == [None]


def test_robbing_an_empty_hand_takes_nothing() -> None:
    t = table()
    roll_seven(t)
    forest = t.hex("(1,0)")
    events = t.when(MoveRobber(seat=0, hex=forest, victim=2))
    assert events == [RobberMoved(seat=0, hex=forest, victim=2)]
    assert t.state.steals == 0


def test_the_steal_draws_only_cards_the_victim_holds() -> None:
    """The chance point of a steal weighs each resource by the victim's count of it, so a
    script asking for a resource the victim lacks is an impossible outcome."""
    t = table()
    t.give(1, ore=3)
    roll_seven(t)
    t.script("steal", "wool")
    with pytest.raises(ValueError, match="impossible"):
        t.when(MoveRobber(seat=0, hex=t.hex("(1,0)"), victim=1))
    t.script("steal", "ore")
    t.when(MoveRobber(seat=0, hex=t.hex("(1,0)"), victim=1))
    assert t.hand(0) == {"ore": 1}


# --- the Knight -----------------------------------------------------------------------------


def test_a_knight_before_the_roll_moves_the_robber_and_steals_without_discards() -> None:
    t = table()
    t.give(0, ore=9)
    t.give(1, grain=9)
    t.give_dev(0, "knight")
    events = t.when(PlayKnight(seat=0))
    assert events[0] == KnightPlayed(seat=0)
    assert t.state.phase == ROBBER
    t.script("steal", "grain")
    t.when(MoveRobber(seat=0, hex=t.hex("(1,0)"), victim=1))
    assert t.state.phase == ROLL
    assert t.state.players[0].knights == 1
    assert (t.hand(0), t.hand(1)) == ({"ore": 9, "grain": 1}, {"grain": 8})
    t.script("dice", (5, 5))
    t.when(RollDice(seat=0))
