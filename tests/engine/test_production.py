"""Production (docs/rules/base.md §1.5; docs/rules/README.md §0.3): every hex with the rolled number pays 1 per settlement and 2
per city next to it, not under the robber; a resource the bank cannot pay everyone goes to
nobody, unless only one seat is due it (it takes what is left)."""

from __future__ import annotations

import pytest
from engine_helpers import N, S, corner

from events.commands import RollDice
from events.events import DiceRolled, ResourcesProduced
from events.types import RESOURCE_INDEX, RESOURCES
from services.rules.engine.state import CITY, NO_ONE
from services.rules.engine.testing import Table

TERRAIN = {"forest": "lumber", "hills": "brick", "pasture": "wool", "fields": "grain",
           "mountains": "ore"}  # fmt: skip


def expected_gains(t: Table, total: int) -> list[dict[str, int]]:
    """Production computed from the tiles and hex names, independently of the engine."""
    board = t.state.board
    gains: list[dict[str, int]] = [{} for _ in range(t.state.n)]
    for tile in t.created.tiles:
        if tile.number != total or tile.terrain == "sea":
            continue
        h = board.hex_id((tile.q, tile.r))
        if h == t.state.robber:
            continue
        for i in range(6):
            v = corner(t, (tile.q, tile.r), i)
            owner = t.state.vertex_owner[v]
            if owner != NO_ONE:
                r = TERRAIN[tile.terrain]
                gains[owner][r] = gains[owner].get(r, 0) + (2 if t.state.vertex_level[v] == CITY else 1)
    return gains


def table() -> Table:
    """Seat 0 has a settlement and seat 1 a city on the forest (1,0), number 3."""
    t = Table()
    t.place(0, corner(t, (1, 0), N))
    t.place(1, corner(t, (1, 0), S), city=True)
    return t


def test_a_settlement_takes_one_and_a_city_two_of_the_rolled_hexes_resource() -> None:
    t = table()
    t.script("dice", (1, 2))
    events = t.when(RollDice(seat=0))
    assert events[0] == DiceRolled(seat=0, d1=1, d2=2, n=0)
    produced = events[1]
    assert isinstance(produced, ResourcesProduced)
    assert produced.gains[0] == {"lumber": 1}
    assert produced.gains[1] == {"lumber": 2}
    # Seat 2's set-up settlement touches the mountains (-1,1), also a 3.
    assert produced.gains[2] == {"ore": 1}
    assert list(produced.gains) == expected_gains(t, 3)
    assert (t.hand(0), t.hand(1), t.hand(2)) == ({"lumber": 1}, {"lumber": 2}, {"ore": 1})


@pytest.mark.parametrize("total", [2, 3, 4, 5, 6, 8, 9, 10, 11, 12])
def test_every_number_pays_what_the_board_says(total: int) -> None:
    t = table()
    d1 = min(6, total - 1)
    t.script("dice", (d1, total - d1))
    events = t.when(RollDice(seat=0))
    gains = expected_gains(t, total)
    produced = [e for e in events if isinstance(e, ResourcesProduced)]
    if any(gains):
        assert list(produced[0].gains) == gains
    else:
        assert produced == []
    for seat in range(4):
        assert t.hand(seat) == gains[seat]


def test_the_hex_under_the_robber_produces_nothing() -> None:
    t = table()
    t.state.robber = t.hex("(1,0)")
    t.script("dice", (2, 1))
    events = t.when(RollDice(seat=0))
    assert events[1] == ResourcesProduced(gains=({}, {}, {"ore": 1}, {}))


def test_a_seven_produces_nothing() -> None:
    t = table()
    t.script("dice", (3, 4))
    events = t.when(RollDice(seat=0))
    assert [type(e) for e in events] == [DiceRolled]
    assert all(t.hand(s) == {} for s in range(4))


def drain(t: Table, resource: str, leave: int) -> None:
    """Give seat 3 all but `leave` of the bank's `resource`."""
    t.give(3, **{resource: t.state.bank[RESOURCE_INDEX[resource]] - leave})


def test_bank_shortage_when_several_seats_are_due_a_resource_nobody_gets_it() -> None:
    t = table()
    drain(t, "lumber", 2)  # seats 0 and 1 are due 1 + 2 lumber
    t.script("dice", (1, 2))
    events = t.when(RollDice(seat=0))
    assert events[1] == ResourcesProduced(gains=({}, {}, {"ore": 1}, {}), short=("lumber",))
    assert t.state.bank[RESOURCE_INDEX["lumber"]] == 2
    assert t.hand(2) == {"ore": 1}


def test_bank_shortage_when_one_seat_is_due_it_takes_what_is_left() -> None:
    t = Table()
    t.place(1, corner(t, (1, 0), S), city=True)
    drain(t, "lumber", 1)
    t.script("dice", (1, 2))
    events = t.when(RollDice(seat=0))
    assert events[1] == ResourcesProduced(gains=({}, {"lumber": 1}, {"ore": 1}, {}), short=("lumber",))
    assert t.state.bank[RESOURCE_INDEX["lumber"]] == 0


def test_a_bank_with_exactly_enough_pays_everyone() -> None:
    t = table()
    drain(t, "lumber", 3)
    t.script("dice", (1, 2))
    events = t.when(RollDice(seat=0))
    assert events[1] == ResourcesProduced(gains=({"lumber": 1}, {"lumber": 2}, {"ore": 1}, {}))
    assert t.state.bank[RESOURCE_INDEX["lumber"]] == 0


def test_resource_names_follow_the_terrain() -> None:
    assert sorted(TERRAIN.values()) == sorted(RESOURCES)
