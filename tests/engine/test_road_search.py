"""The longest-road search (base/roads.py) against an independent one (`longest_path`).

`longest_road` searches from a few start vertices per piece of the network, and the evolvers
keep a seat's length incrementally: a new road gives max(length before, the longest trail
through it) (`longest_road_through`, memoised for the second of the two evolves of one
`decide`). Random road sets — connected networks grown road by road, loose sets, loops around
hexes — with random buildings of the seat, of opponents and of a neutral owner must give the
lengths a plain depth-first search over every trail gives.
"""

from __future__ import annotations

import random

import pytest
from engine_helpers import longest_path

from services.rules.engine import initial_state, new_game
from services.rules.engine.base.roads import longest_road, longest_road_through
from services.rules.engine.state import NO_ONE, State

SEAT = 0


def table() -> State:
    return initial_state(new_game("roads", 4, b"road search"))


def put_roads(state: State, roads: set[int]) -> None:
    state.players[SEAT].roads = set(roads)
    state.edge_owner = [SEAT if e in roads else NO_ONE for e in range(len(state.edge_owner))]


def random_owners(state: State, rng: random.Random) -> None:
    for v in range(len(state.vertex_owner)):
        x = rng.random()
        # opponents, the seat itself, and an owner beyond the seats (catan-for-two's neutral)
        state.vertex_owner[v] = 1 if x < 0.08 else SEAT if x < 0.14 else 5 if x < 0.16 else NO_ONE


def grown_network(state: State, rng: random.Random, size: int) -> set[int]:
    topo = state.board.topo
    roads = {rng.choice(topo.land_edges)}
    while len(roads) < size:
        v = rng.choice(topo.edge_vertices[rng.choice(sorted(roads))])
        f = rng.choice(topo.vertex_edges[v])
        if topo.edge_is_land[f]:
            roads.add(f)
        if rng.random() < 0.05:  # now and then a road elsewhere: several pieces
            roads.add(rng.choice(topo.land_edges))
    return roads


@pytest.mark.parametrize("seed", range(4))
def test_the_longest_road_is_the_longest_trail(seed: int) -> None:
    rng = random.Random(seed)
    state = table()
    land = state.board.topo.land_edges
    for _ in range(400):
        size = rng.choice([1, 2, 3, 5, 8, 12, 15, 20, 30])
        roads = set(rng.sample(land, size)) if rng.random() < 0.3 else grown_network(state, rng, size)
        put_roads(state, roads)
        random_owners(state, rng)
        assert longest_road(state, SEAT) == longest_path(state, SEAT), sorted(roads)


@pytest.mark.parametrize("seed", range(4))
def test_a_new_road_lengthens_the_road_by_the_longest_trail_through_it(seed: int) -> None:
    rng = random.Random(100 + seed)
    state = table()
    topo = state.board.topo
    for _ in range(400):
        roads = grown_network(state, rng, rng.choice([1, 2, 3, 5, 8, 12, 15, 20]))
        random_owners(state, rng)
        put_roads(state, roads)
        before = longest_path(state, SEAT)
        touching = [f for f in topo.land_edges if f not in roads and any(
            g in roads for v in topo.edge_vertices[f] for g in topo.vertex_edges[v])]
        e = rng.choice(touching or [f for f in topo.land_edges if f not in roads])
        put_roads(state, roads | {e})
        for _ in range(2):  # the second answer comes from the memo
            assert max(before, longest_road_through(state, SEAT, e)) == longest_path(state, SEAT)


def test_loops_around_a_hex_with_and_without_buildings_on_them() -> None:
    state = table()
    topo = state.board.topo
    for h in topo.land_hexes:
        put_roads(state, set(topo.hex_edges[h]))
        state.vertex_owner = [NO_ONE] * len(state.vertex_owner)
        assert longest_road(state, SEAT) == 6
        for v in topo.hex_vertices[h]:  # opponents settle round the loop one by one
            state.vertex_owner[v] = 1
            assert longest_road(state, SEAT) == longest_path(state, SEAT)
