"""The standard map (docs/rules/README.md §0.1, §0.2; docs/rules/base.md §1.1, §1.2): counts, the beginner layout, harbors and the
variable layout (terrain shuffle, tokens A–R on the counter-clockwise spiral, seeded)."""

from __future__ import annotations

from collections import Counter

import pytest

from events.events import GameCreated
from services.rules.engine import initial_state, new_game
from services.rules.engine.board import Board
from services.rules.engine.geometry import Hex, corners, distance, neighbours, sides

LAND = [(q, r) for r in range(-2, 3) for q in range(-2, 3) if distance((q, r), (0, 0)) <= 2]
TERRAIN_COUNTS = {"forest": 4, "pasture": 4, "fields": 4, "hills": 3, "mountains": 3, "desert": 1}
TOKENS_A_TO_R = [5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11]

# §1.2, row-major north to south.
BEGINNER = {
    (0, -2): ("mountains", 10), (1, -2): ("pasture", 2), (2, -2): ("forest", 9),
    (-1, -1): ("fields", 12), (0, -1): ("hills", 6), (1, -1): ("pasture", 4), (2, -1): ("hills", 10),
    (-2, 0): ("fields", 9), (-1, 0): ("forest", 11), (0, 0): ("desert", 0), (1, 0): ("forest", 3),
    (2, 0): ("mountains", 8),
    (-2, 1): ("forest", 8), (-1, 1): ("mountains", 3), (0, 1): ("fields", 4), (1, 1): ("pasture", 5),
    (-2, 2): ("hills", 5), (-1, 2): ("fields", 6), (0, 2): ("pasture", 11),
}  # fmt: skip

# §1.2 harbor table: sea hex -> (land hex, fixed-layout kind).
HARBORS = {
    (0, -3): ((0, -2), "3:1"),
    (2, -3): ((1, -2), "wool"),
    (3, -2): ((2, -1), "3:1"),
    (3, 0): ((2, 0), "3:1"),
    (1, 2): ((1, 1), "brick"),
    (-1, 3): ((-1, 2), "lumber"),
    (-3, 3): ((-2, 2), "3:1"),
    (-3, 1): ((-2, 1), "grain"),
    (-2, -1): ((-1, -1), "ore"),
}

# §1.2: the counter-clockwise token walk from the top-left corner.
SPIRAL_FROM_TL = [
    (0, -2), (-1, -1), (-2, 0), (-2, 1), (-2, 2), (-1, 2), (0, 2), (1, 1), (2, 0), (2, -1),
    (2, -2), (1, -2),
    (0, -1), (-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1),
    (0, 0),
]  # fmt: skip


def rotate_ccw(h: Hex) -> Hex:
    """Rotate a hex 60° counter-clockwise about the centre (cube (x, y, z) -> (-y, -z, -x))."""
    q, r = h
    x, z = q, r
    y = -x - z
    return (-y, -x)


def board_of(created: GameCreated) -> Board:
    return initial_state(created).board


def land_tiles(created: GameCreated) -> dict[Hex, tuple[str, int]]:
    return {(t.q, t.r): (t.terrain, t.number) for t in created.tiles if t.terrain != "sea"}


# --- the standard island --------------------------------------------------------------------


def test_the_standard_map_has_19_land_hexes_54_land_vertices_and_72_land_edges_30_of_them_coastal() -> None:
    board = board_of(new_game("g", 4, b"seed", beginner=True))
    topo = board.topo
    land = [topo.hexes[i] for i in range(len(topo.hexes)) if topo.hex_is_land[i]]
    assert sorted(land) == sorted(LAND)
    assert sum(topo.vertex_is_land) == len(topo.land_vertices) == 54
    assert sum(topo.edge_is_land) == len(topo.land_edges) == 72
    coastal = [e for e in topo.land_edges if topo.edge_is_sea[e]]
    assert len(coastal) == 30


def test_land_vertices_and_edges_counted_independently_from_the_hex_names() -> None:
    land = set(LAND)
    vertices = {v for h in LAND for v in corners(h)}
    edges = {e for h in LAND for e in sides(h)}
    coastal = {e for e in edges if not set(e) <= land}
    assert (len(vertices), len(edges), len(coastal)) == (54, 72, 30)
    board = board_of(new_game("g", 4, b"seed", beginner=True))
    assert {board.topo.vertices[v] for v in board.topo.land_vertices} == vertices
    assert {board.topo.edges[e] for e in board.topo.land_edges} == edges


def test_every_land_hex_has_six_corners_and_six_sides_and_every_land_vertex_two_or_three_roads() -> None:
    board = board_of(new_game("g", 4, b"seed", beginner=True))
    topo = board.topo
    for h in LAND:
        i = board.hex_id(h)
        assert len(set(topo.hex_vertices[i])) == 6
        assert len(set(topo.hex_edges[i])) == 6
    for v in topo.land_vertices:
        land_edges = [e for e in topo.vertex_edges[v] if topo.edge_is_land[e]]
        assert len(land_edges) in (2, 3)
        assert len(topo.vertex_land_hexes[v]) in (1, 2, 3)


def test_vertex_and_edge_names_round_trip_and_ids_are_stable_between_games() -> None:
    a = board_of(new_game("a", 4, b"one", beginner=True))
    b = board_of(new_game("b", 3, b"two"))
    assert a.topo.vertices == b.topo.vertices
    assert a.topo.edges == b.topo.edges
    for v in a.topo.land_vertices:
        assert a.parse_vertex(a.vertex_name(v)) == v
    for e in a.topo.land_edges:
        assert a.parse_edge(a.edge_name(e)) == e
    # docs/rules/README.md §0.1's example: the north corner of (0,0) is {(0,0),(0,-1),(1,-1)}.
    assert a.vertex_id((0, 0), (0, -1), (1, -1)) == a.parse_vertex("(1,-1)/(0,0)/(0,-1)")


def test_the_sea_frame_has_18_hexes_and_the_corners_of_the_ring_touch_one_land_hex() -> None:
    created = new_game("g", 4, b"seed", beginner=True)
    sea = [(t.q, t.r) for t in created.tiles if t.terrain == "sea"]
    assert len(sea) == 18
    assert all(distance(h, (0, 0)) == 3 for h in sea)
    touching = [sum(n in set(LAND) for n in neighbours(h)) for h in sea]
    assert touching == [1 if i % 3 == 0 else 2 for i in range(18)]


# --- the beginner layout --------------------------------------------------------------------


def test_the_beginner_layout_matches_rules_section_1_2() -> None:
    created = new_game("g", 4, b"seed", beginner=True)
    assert land_tiles(created) == BEGINNER
    assert created.robber == (0, 0)


def test_the_beginner_layout_has_the_component_counts_of_section_1_1() -> None:
    tiles = land_tiles(new_game("g", 4, b"seed", beginner=True))
    assert Counter(t for t, _ in tiles.values()) == TERRAIN_COUNTS
    assert sorted(n for _, n in tiles.values() if n) == sorted(TOKENS_A_TO_R)


def test_nine_harbors_on_the_decided_slots_each_serving_the_two_ends_of_its_coast_edge() -> None:
    created = new_game("g", 4, b"seed", beginner=True)
    assert {h.sea: (h.land, h.kind) for h in created.harbors} == HARBORS
    board = board_of(created)
    served = [v for pair in board.harbor_vertices for v in pair]
    assert len(served) == len(set(served)) == 18
    for hb, (a, b) in zip(created.harbors, board.harbor_vertices, strict=True):
        edge = board.edge_id(hb.sea, hb.land)
        assert set(board.topo.edge_vertices[edge]) == {a, b}
        assert board.vertex_harbor[a] == board.vertex_harbor[b] == hb.kind
        assert board.topo.vertex_is_coastal[a]
        assert board.topo.vertex_is_coastal[b]
    kinds = Counter(h.kind for h in created.harbors)
    assert kinds == {"3:1": 4, "lumber": 1, "brick": 1, "wool": 1, "grain": 1, "ore": 1}


# --- the variable layout --------------------------------------------------------------------


def token_corner(created: GameCreated) -> int | None:
    """How many 60° counter-clockwise turns of the §1.2 walk lay this game's tokens A..R."""
    tiles = land_tiles(created)
    for turns in range(6):
        walk = SPIRAL_FROM_TL
        for _ in range(turns):
            walk = [rotate_ccw(h) for h in walk]
        laid = [tiles[h][1] for h in walk if tiles[h][0] != "desert"]
        if laid == TOKENS_A_TO_R:
            return turns
    return None


def test_rotating_the_walk_counter_clockwise_visits_the_corners_counter_clockwise() -> None:
    corners_ccw = [(0, -2), (-2, 0), (-2, 2), (0, 2), (2, 0), (2, -2)]
    walk = SPIRAL_FROM_TL
    starts = []
    for _ in range(6):
        starts.append(walk[0])
        walk = [rotate_ccw(h) for h in walk]
    assert starts == corners_ccw
    assert walk == SPIRAL_FROM_TL
    # The walk itself goes counter-clockwise: each step is to a neighbour, the ring then the
    # inner ring then the centre.
    for a, b in zip(SPIRAL_FROM_TL, SPIRAL_FROM_TL[1:], strict=False):
        assert b in neighbours(a)


@pytest.mark.parametrize("seed", [b"alpha", b"beta", b"gamma", b"delta", b"epsilon", b"zeta"])
def test_the_variable_layout_is_a_permutation_of_the_terrain_and_harbor_counts(seed: bytes) -> None:
    created = new_game("g", 4, seed)
    tiles = land_tiles(created)
    assert sorted(tiles) == sorted(LAND)
    assert Counter(t for t, _ in tiles.values()) == TERRAIN_COUNTS
    desert = [h for h, (t, _) in tiles.items() if t == "desert"]
    assert len(desert) == 1
    assert tiles[desert[0]][1] == 0
    assert created.robber == desert[0]
    assert {h.sea: h.land for h in created.harbors} == {s: land for s, (land, _) in HARBORS.items()}
    assert Counter(h.kind for h in created.harbors) == Counter(k for _, k in HARBORS.values())


def test_variable_tokens_follow_the_counter_clockwise_spiral_from_a_corner_skipping_the_desert() -> None:
    seen = set()
    for i in range(80):
        created = new_game("g", 4, f"layout-{i}".encode())
        turns = token_corner(created)
        assert turns is not None, f"seed {i}: tokens do not follow the spiral from any corner"
        seen.add(turns)
    assert seen == set(range(6)), "every corner can be the start"


def test_the_same_seed_gives_the_same_layout_and_different_seeds_differ() -> None:
    one = new_game("a", 4, b"same seed")
    again = new_game("b", 3, b"same seed")
    assert (one.tiles, one.harbors, one.robber) == (again.tiles, again.harbors, again.robber)
    layouts = {(new_game("g", 4, f"s{i}".encode()).tiles) for i in range(20)}
    assert len(layouts) == 20
    harbors = {new_game("g", 4, f"s{i}".encode()).harbors for i in range(20)}
    assert len(harbors) > 1


def test_the_variable_layout_is_not_always_the_beginner_one_and_the_desert_moves() -> None:
    deserts = set()
    for i in range(40):
        tiles = land_tiles(new_game("g", 4, f"d{i}".encode()))
        deserts.update(h for h, (t, _) in tiles.items() if t == "desert")
    assert len(deserts) > 5
