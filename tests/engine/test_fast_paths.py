"""Fast paths of the hot code against the plain definitions they replace.

The engine answers some questions in bulk or in fewer steps than their definition (every set-up
site at once, the bank check before the shortage rule, a settlement that cannot cut a road).
Each must give exactly what the definition gives, on many random boards.
"""

from __future__ import annotations

import random

import pytest

from events.commands import (
    BuildCity,
    BuildRoad,
    BuildSettlement,
    BuyDevelopmentCard,
    EndTurn,
    MoveRobber,
    PlaceRoad,
    PlaceSettlement,
    PlayKnight,
    PlayMonopoly,
    PlayRoadBuilding,
    PlayYearOfPlenty,
    RollDice,
)
from events.events import SettlementBuilt
from events.types import RESOURCES
from services.rules.engine import evolve, initial_state, new_game
from services.rules.engine.base import option_commands as oc
from services.rules.engine.base.roads import distance_ok, longest_road
from services.rules.engine.base.setup import legal_setup_vertices
from services.rules.engine.base.turn import apply_shortage
from services.rules.engine.state import MAIN, NO_ONE, State


def table(seed: int) -> State:
    return initial_state(new_game("fast", 4, f"fast paths {seed}".encode()))


@pytest.mark.parametrize("seed", range(3))
def test_every_setup_site_at_once_is_each_site_by_the_distance_rule(seed: int) -> None:
    rng = random.Random(seed)
    state = table(seed)
    land = state.board.topo.land_vertices
    for _ in range(200):
        state.vertex_owner = [NO_ONE] * len(state.vertex_owner)
        for v in rng.sample(land, rng.randrange(0, 12)):
            state.vertex_owner[v] = rng.randrange(0, 6)  # seats and a neutral owner
        expected = [v for v in land if distance_ok(state, v)]
        assert legal_setup_vertices(state, rng.randrange(4)) == expected


def shortage_by_definition(bank: list[int], gains: list[list[int]]) -> tuple[list[list[int]], list[int]]:
    gains = [g[:] for g in gains]
    short = []
    for r in range(5):
        due = [s for s in range(len(gains)) if gains[s][r]]
        if sum(gains[s][r] for s in due) <= bank[r]:
            continue
        short.append(r)
        if len(due) == 1:
            gains[due[0]][r] = bank[r]
        else:
            for s in due:
                gains[s][r] = 0
    return gains, short


@pytest.mark.parametrize("seed", range(3))
def test_the_bank_shortage_rule_with_its_quick_check(seed: int) -> None:
    rng = random.Random(seed)
    state = table(seed)
    for _ in range(2000):
        state.bank = [rng.randrange(0, 8) for _ in range(5)]
        gains = [[rng.choice((0, 0, 0, 1, 2, 3)) for _ in range(5)] for _ in range(rng.randrange(2, 5))]
        expected = shortage_by_definition(state.bank, gains)
        assert apply_shortage(state, [g[:] for g in gains]) == expected


@pytest.mark.parametrize("seed", range(3))
def test_a_settlement_recomputes_the_road_length_of_every_seat_it_can_cut(seed: int) -> None:
    """Only a seat with two roads at the vertex can lose length; the others keep theirs."""
    rng = random.Random(seed)
    topo = table(seed).board.topo
    for _ in range(150):
        state = table(seed)
        state.phase = MAIN
        for e in rng.sample(topo.land_edges, 30):
            seat = rng.randrange(4)
            state.edge_owner[e] = seat
            state.players[seat].roads.add(e)
        for p in state.players:
            p.road_length = longest_road(state, p.seat)
        v = rng.choice([v for v in topo.land_vertices if state.vertex_owner[v] == NO_ONE])
        evolve(state, SettlementBuilt(seat=rng.randrange(4), vertex=v, free=True))
        assert [p.road_length for p in state.players] == [
            longest_road(state, s) for s in range(4)
        ]


def test_shared_option_commands_equal_the_commands_they_stand_for() -> None:
    # Prompts list commands made once (base/option_commands.py): each must be the very command
    # a prompt would have built, so logs, bots and the rules service see no difference.
    for seat in range(6):
        assert oc.roll_dice(seat) == RollDice(seat=seat)
        assert oc.end_turn(seat) == EndTurn(seat=seat)
        assert oc.roll_dice(seat) is oc.roll_dice(seat)  # shared, not made again
        assert [c.edge for c in oc.roads(seat, 72)] == list(range(72))
        assert oc.roads(seat, 72)[17] == BuildRoad(seat=seat, edge=17)
        assert oc.setup_roads(seat, 72)[5] == PlaceRoad(seat=seat, edge=5)
        assert oc.settlements(seat, 54)[53] == BuildSettlement(seat=seat, vertex=53)
        assert oc.cities(seat, 54)[0] == BuildCity(seat=seat, vertex=0)
        assert oc.setup_settlements(seat, 54)[9] == PlaceSettlement(seat=seat, vertex=9)
    assert oc.roll_dice(9) == RollDice(seat=9)  # beyond the shared seats: made on demand


@pytest.mark.parametrize("seat", [0, 3, 7, 8, 11])
def test_shared_development_card_commands_equal_the_commands_they_stand_for(seat: int) -> None:
    # Seats 8 and 11 lie beyond the shared tuples: made on demand, the same command.
    assert oc.buy_development_card(seat) == BuyDevelopmentCard(seat=seat)
    assert oc.knight_command(seat) == PlayKnight(seat=seat)
    assert oc.road_building_command(seat) == PlayRoadBuilding(seat=seat)
    assert list(oc.monopolies(seat)) == [PlayMonopoly(seat=seat, resource=r) for r in RESOURCES]
    # Year of Plenty: every unordered pair, a pair of the same resource included, in bank order.
    assert [c.resources for c in oc.years_of_plenty(seat)] == [
        (RESOURCES[a], RESOURCES[b]) for a in range(5) for b in range(a, 5)
    ]
    assert all(c == PlayYearOfPlenty(seat=seat, resources=c.resources)
               for c in oc.years_of_plenty(seat))


@pytest.mark.parametrize(
    ("h", "victim"),
    [(0, None), (18, None), (3, 0), (3, 3), (-1, None), (-1, 2), (19, None), (4, 4), (4, -1)],
)
def test_a_shared_robber_move_is_the_move_asked_for_even_off_the_table(h: int, victim: int | None) -> None:
    # Hexes off the table (off the board: -1; beyond it) and victims that are no seat (a
    # module's owner ids) must still give exactly the move asked for, never a neighbour's.
    moves = oc.robber_moves(2, 19, 4)
    assert oc.robber_move(moves, 2, h, victim) == MoveRobber(seat=2, hex=h, victim=victim)
