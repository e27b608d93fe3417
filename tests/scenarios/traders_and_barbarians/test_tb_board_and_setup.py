"""Traders & Barbarians: the board, set-up and the roll (docs/rules/traders-and-barbarians.md
§10.2–§10.4)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from tb_helpers import (
    CORNER,
    QUARRY,
    QUARRY_PLAZA,
    SEA_ONLY,
    SEA_SIDE,
    SPOKE,
    TB,
    table,
    tb,
)

from events.commands import BuildRoad, BuildSettlement, PlaceSettlement, RollDice
from events.events import DiceRolled
from services.rules.engine import chance_outcomes, initial_state, new_game, pending
from services.rules.engine.scenarios.traders_and_barbarians.common import new_turn, places
from services.rules.engine.state import CITY, SETUP
from services.rules.engine.testing import Table

TRADE = {(2, -2): "quarry", (0, 2): "castle", (-2, 0): "glassworks"}


@pytest.mark.parametrize("seed", [b"a", b"b", b"c", b"d", b"e", b"f"])
def test_traders_and_barbarians_board_layout(seed: bytes) -> None:
    created = new_game("g", 4, seed, modules=[TB])
    state = initial_state(created)
    board = state.board
    terrains: Counter[str] = Counter()
    numbers: Counter[int] = Counter()
    for h in board.topo.land_hexes:
        q, r = board.topo.hexes[h]
        terrain = board.hex_terrain[h]
        if (q, r) in TRADE:
            assert terrain == TRADE[(q, r)]
            assert board.hex_numbers[h] == ()  # the token walk skips the trade hexes
        else:
            terrains[terrain] += 1
            numbers[board.hex_number[h]] += 1
    assert terrains == {"forest": 4, "hills": 3, "pasture": 3, "fields": 3, "mountains": 3}
    assert numbers[2] == numbers[12] == 0
    assert sum(numbers.values()) == 16
    assert state.robber == -1  # no robber


def test_traders_and_barbarians_board_layout_start_corner_is_not_a_trade_hex() -> None:
    starts = set()
    for i in range(30):
        created = new_game("g", 4, f"corner{i}".encode(), modules=[TB])
        board = initial_state(created).board
        # The first token (5) lies on the walk's start corner.
        starts |= {board.topo.hexes[h] for h in board.number_hexes[5]
                   if board.topo.hexes[h] in {(0, -2), (-2, 2), (2, 0)}}
    assert starts
    assert not starts & set(TRADE)


def test_traders_and_barbarians_board_trade_hex_places() -> None:
    t = table()
    at = places(t.state.board)
    assert len(at.plazas) == 3
    assert len(at.sea_only) == 6
    assert len(at.sea_sides) == 9
    plaza = t.vertex(QUARRY_PLAZA)
    # A plaza is joined to the four land corners of its hex by spokes.
    ends = {t.state.board.vertex_name(w) for w in t.state.board.topo.vertex_neighbours[plaza]}
    assert ends == {"(1,-2)/(2,-3)/(2,-2)", "(1,-2)/(1,-1)/(2,-2)", "(1,-1)/(2,-2)/(2,-1)",
                    "(2,-2)/(2,-1)/(3,-2)"}
    assert t.state.board.hex_resource[t.hex(QUARRY)] == -1  # trade hexes produce nothing


def test_traders_and_barbarians_board_trade_hex_refuses_plaza_sea_corner_and_sea_side() -> None:
    t = table()
    t.turn_of(0)
    t.give(0, lumber=3, brick=3, wool=1, grain=1)
    t.rejects(BuildSettlement(seat=0, vertex=t.vertex(QUARRY_PLAZA)),
              "traders_and_barbarians.board.trade_hex")
    # A road reaching the sea-only corner's neighbour, then the sea side itself.
    t.road(0, t.edge("(1,-2)/(2,-2)"))
    t.road(0, t.edge("(1,-2)/(1,-1)"))
    t.rejects(BuildRoad(seat=0, edge=t.edge(SEA_SIDE)), "traders_and_barbarians.board.trade_hex")
    t.rejects(BuildSettlement(seat=0, vertex=t.vertex(SEA_ONLY)),
              "traders_and_barbarians.board.trade_hex")


def test_traders_and_barbarians_board_trade_hex_spokes_take_roads_and_corners_settlements() -> None:
    t = table()
    t.turn_of(0)
    t.give(0, lumber=4, brick=4, wool=1, grain=1)
    t.road(0, t.edge("(1,-1)/(2,-1)"))
    t.road(0, t.edge("(1,-1)/(1,0)"))
    t.place(0, t.vertex("(0,0)/(1,-1)/(1,0)"))
    t.when(BuildRoad(seat=0, edge=t.edge(SPOKE)))  # a spoke takes a road
    t.when(BuildSettlement(seat=0, vertex=t.vertex(CORNER)))  # Decision: land corners are sites
    assert t.vertex(CORNER) in t.state.players[0].settlements


def test_traders_and_barbarians_board_trade_hex_set_up_never_offers_plaza_or_sea_corner() -> None:
    t = Table(modules=[TB], setup=False)
    at = places(t.state.board)
    options = pending(t.state)[0].options
    sites = {o.vertex for o in options if isinstance(o, PlaceSettlement)}
    assert sites
    assert not sites & (set(at.plazas) | at.sea_only)


def test_traders_and_barbarians_setup_city() -> None:
    t = Table(modules=[TB], setup=False)
    while t.state.phase == SETUP:
        t.when(pending(t.state)[0].default)
    for p in t.state.players:
        assert len(p.settlements) == 1
        assert len(p.cities) == 1
        (city,) = p.cities
        assert t.state.vertex_level[city] == CITY
        producing = [h for h in t.state.board.topo.vertex_land_hexes[city]
                     if t.state.board.hex_resource[h] >= 0]
        assert p.cards == len(producing)  # one resource per adjacent producing hex


def test_traders_and_barbarians_setup_wagon() -> None:
    t = table()
    for p in t.state.players:
        (city,) = p.cities
        assert tb(t).wagon[p.seat] == city
        assert tb(t).level[p.seat] == 1
        assert tb(t).cargo[p.seat] == ""


def test_traders_and_barbarians_setup_gold() -> None:
    assert tb(table()).gold == [5, 5, 5, 5]
    assert tb(table(seats=3)).gold == [5, 5, 5]


def test_traders_and_barbarians_roll_reroll() -> None:
    t = table()
    t.turn_of(0, rolled=False)
    outcomes = chance_outcomes(t.state, RollDice(seat=0))
    assert sum(p for p, _ in outcomes) == 1
    totals: dict[int, Fraction] = {}
    for p, events in outcomes:
        rolled = next(e for e in events if isinstance(e, DiceRolled))
        total = rolled.d1 + rolled.d2
        totals[total] = totals.get(total, Fraction(0)) + p
    assert 2 not in totals
    assert 12 not in totals
    # Re-throwing 2 and 12 until another total comes up: each other total by its own weight.
    assert totals[7] == Fraction(6, 34)
    assert totals[3] == Fraction(2, 34)


def test_traders_and_barbarians_roll_reroll_many_rolls_never_show_2_or_12() -> None:
    t = table()
    seen = set()
    for _ in range(200):
        t.turn_of(0, rolled=False)
        new_turn(tb(t))
        events = t.when(RollDice(seat=0))
        rolled = next(e for e in events if isinstance(e, DiceRolled))
        seen.add(rolled.d1 + rolled.d2)
        if t.state.phase != "main":  # a 7: leave its stages
            t.state.phase = "main"
            for s in range(4):
                t.state.discards[s] = 0
    assert seen == set(range(3, 12))
