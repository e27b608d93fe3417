"""The catanatron bridge's translation (benchmarks/catanatron_bridge.py), without catanatron.

A board is described the way catanatron describes it (cube coordinates; per land tile, its
corners by name with node ids; ports by sea hex, direction and resource), here made from
hexlog's own beginner layout with node ids of our choosing, so the mapping must come back to
exactly those tiles, harbors and vertices. Positions are then given as `Snapshot`s (what our
seat sees) and must become hexlog states whose prompts and views say the same, and commands
must become the keys of the catanatron actions that mean the same.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from events.commands import (
    BuildRoad,
    BuildSettlement,
    EndTurn,
    MaritimeTrade,
    MoveRobber,
    PlaceRoad,
    PlaceSettlement,
    PlayYearOfPlenty,
)
from services.rules.engine.board import Board
from services.rules.engine.layout import beginner
from services.rules.engine.state import MAIN, ROBBER, SETUP

BRIDGE = Path(__file__).resolve().parents[2] / "benchmarks" / "catanatron_bridge.py"


def load_bridge() -> ModuleType:
    spec = importlib.util.spec_from_file_location("catanatron_bridge", BRIDGE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["catanatron_bridge"] = module
    spec.loader.exec_module(module)
    return module


cb = load_bridge()
CORNER_NAMES = {i: name for name, i in cb.CORNER.items()}
DIRECTION_OF = {step: name for name, step in cb.STEP.items()}
CAT_NAME = {"lumber": "WOOD", "brick": "BRICK", "wool": "SHEEP", "grain": "WHEAT", "ore": "ORE"}
TERRAIN_RESOURCE = {"forest": "WOOD", "hills": "BRICK", "pasture": "SHEEP", "fields": "WHEAT",
                    "mountains": "ORE", "desert": None}


def cube(q: int, r: int) -> tuple[int, int, int]:
    return (q, -q - r, r)


@pytest.fixture(scope="module")
def described() -> dict[str, Any]:
    """hexlog's beginner board as catanatron would describe it, node ids shuffled."""
    tiles, harbors = beginner()
    board = Board(tiles, harbors)
    topo = board.topo
    ids = list(range(len(topo.land_vertices)))
    random.Random(7).shuffle(ids)
    node_of = dict(zip(topo.land_vertices, ids, strict=True))
    land = []
    for t in tiles:
        if t.terrain == "sea":
            continue
        h = topo.hex_index[(t.q, t.r)]
        nodes = {CORNER_NAMES[i]: node_of[v] for i, v in enumerate(topo.hex_vertices[h])}
        land.append(cb.LandTileData(cube(t.q, t.r), TERRAIN_RESOURCE[t.terrain], t.number, nodes))
    ports = [cb.PortData(cube(*h.sea), DIRECTION_OF[(h.land[0] - h.sea[0], h.land[1] - h.sea[1])],
                         None if h.kind == "3:1" else CAT_NAME[h.kind]) for h in harbors]
    sea = [cube(t.q, t.r) for t in tiles if t.terrain == "sea"]
    return {"tiles": tiles, "harbors": harbors, "land": land, "ports": ports, "sea": sea,
            "node_of": node_of, "board": board}


@pytest.fixture(scope="module")
def bmap(described: dict[str, Any]) -> Any:
    return cb.map_board(described["land"], described["ports"], described["sea"])


def test_the_board_maps_back_to_the_same_tiles_harbors_and_vertices(
        described: dict[str, Any], bmap: Any) -> None:
    key = lambda t: (t.r, t.q)  # noqa: E731
    assert sorted(bmap.tiles, key=key) == sorted(described["tiles"], key=key)
    assert sorted(bmap.harbors, key=str) == sorted(described["harbors"], key=str)
    assert bmap.vertex_of == {n: v for v, n in described["node_of"].items()}
    assert len(bmap.edge_of) == 72
    topo = bmap.base.board.topo
    for nodes, e in bmap.edge_of.items():
        a, b = topo.edge_vertices[e]
        assert nodes == frozenset((described["node_of"][a], described["node_of"][b]))
    desert = next(t for t in described["tiles"] if t.terrain == "desert")
    assert bmap.robber == (desert.q, desert.r)


def test_a_wrong_corner_naming_is_refused(described: dict[str, Any]) -> None:
    mirrored = [cb.LandTileData(t.cube, t.resource, t.number,
                                {CORNER_NAMES[(6 - cb.CORNER[ref]) % 6]: n
                                 for ref, n in t.nodes.items()})
                for t in described["land"]]
    with pytest.raises(cb.BridgeError):
        cb.map_board(mirrored, described["ports"], described["sea"])


def land_edge(bmap: Any, v: int) -> int:
    return next(e for e in bmap.base.board.topo.vertex_edges[v] if e in bmap.nodes_of_edge)


def snapshot(bmap: Any, **kw: Any) -> Any:
    """A main-phase position: seat 0 (ours) and seat 2 have a settlement and a road each."""
    topo = bmap.base.board.topo
    v0 = topo.land_vertices[10]
    e0 = land_edge(bmap, v0)
    v2 = topo.land_vertices[40]
    e2 = land_edge(bmap, v2)
    no = [[] for _ in range(4)]
    base: dict[str, Any] = dict(
        seat=0, phase=MAIN, current=0, turn=9,
        hand=[1, 1, 1, 1, 4], dev={"year_of_plenty": 1},
        cards=[8, 3, 5, 0], dev_cards=[1, 2, 0, 0],
        played=[{}, {"knight": 1}, {}, {}],
        settlements=[[bmap.node_of[v0]], [], [bmap.node_of[v2]], []], cities=list(no),
        roads=[[bmap.nodes_of_edge[e0]], [], [bmap.nodes_of_edge[e2]], []],
        road_length=[1, 0, 1, 0], robber=cube(*bmap.robber),
        bank=[16, 17, 17, 18, 11], dev_deck=21, rolled=True, last_roll=8)
    base.update(kw)
    return cb.Snapshot(**base)


def test_a_main_phase_position_gives_our_cards_exactly_and_the_others_as_counts(bmap: Any) -> None:
    snap = snapshot(bmap)
    state = cb.build_state(bmap, snap)
    assert state.players[0].hand == [1, 1, 1, 1, 4]
    assert [p.cards for p in state.players] == [8, 3, 5, 0]
    assert [sum(p.dev) for p in state.players] == [1, 2, 0, 0]
    assert sum(state.deck) == 21
    # Conservation: 19 of each resource between the bank and the hands.
    for r in range(5):
        assert state.bank[r] + sum(p.hand[r] for p in state.players) == 19
    assert state.players[1].knights == 1
    seat_view = cb.view(state, 0)
    assert seat_view.players[0].hand == {"lumber": 1, "brick": 1, "wool": 1, "grain": 1, "ore": 4}
    assert all(p.hand is None and p.dev_hand is None for p in seat_view.players[1:])
    assert [p.cards for p in seat_view.players] == [8, 3, 5, 0]
    prompt = cb.our_prompt(state, 0)
    assert prompt.stage == MAIN
    assert not prompt.may_trade  # catanatron 3.2.1 has no domestic trade
    kinds = {type(o) for o in prompt.options}
    assert {EndTurn, BuildRoad, MaritimeTrade, PlayYearOfPlenty} <= kinds
    road = next(o for o in prompt.options if isinstance(o, BuildRoad))
    assert cb.command_key(road, bmap) == ("BUILD_ROAD", bmap.nodes_of_edge[road.edge])
    trade = next(o for o in prompt.options if isinstance(o, MaritimeTrade))
    assert trade.give == "ore"
    assert cb.command_key(trade, bmap) == ("MARITIME_TRADE", "ORE", cb.CAT_RESOURCE[trade.get])


def test_set_up_asks_for_the_road_of_the_settlement_just_placed(bmap: Any) -> None:
    topo = bmap.base.board.topo
    v = topo.land_vertices[20]
    no: list[list[Any]] = [[] for _ in range(4)]
    snap = cb.Snapshot(
        seat=1, phase=SETUP, current=1, turn=1, hand=[0] * 5, dev={}, cards=[0] * 4,
        dev_cards=[0] * 4, played=[{}] * 4, settlements=[[], [bmap.node_of[v]], [], []],
        cities=list(no), roads=[[bmap.nodes_of_edge[land_edge(bmap, topo.land_vertices[0])]],
                                [], [], []],
        road_length=[1, 0, 0, 0], robber=cube(*bmap.robber), bank=[19] * 5, dev_deck=25,
        setup_pos=1, setup_node=bmap.node_of[v])
    prompt = cb.our_prompt(cb.build_state(bmap, snap), 1)
    assert prompt.stage == "setup_road"
    assert {o.edge for o in prompt.options if isinstance(o, PlaceRoad)} == {
        e for e in topo.vertex_edges[v] if topo.edge_is_land[e]}
    first = cb.Snapshot(**{**snap.__dict__, "settlements": [[], [], [], []], "setup_node": None})
    settle = cb.our_prompt(cb.build_state(bmap, first), 1)
    assert all(isinstance(o, PlaceSettlement) for o in settle.options)
    assert cb.command_key(settle.options[0], bmap) == (
        "BUILD_SETTLEMENT", bmap.node_of[settle.options[0].vertex])


def test_the_robber_translates_to_cube_coordinates_and_an_empty_hand_to_no_victim(bmap: Any) -> None:
    state = cb.build_state(bmap, snapshot(bmap, phase=ROBBER))
    prompt = cb.our_prompt(state, 0)
    moves = [o for o in prompt.options if isinstance(o, MoveRobber)]
    assert moves
    topo = bmap.base.board.topo
    for m in moves:
        q, r = topo.hexes[m.hex]
        assert cb.command_key(m, bmap) == ("MOVE_ROBBER", (q, -q - r, r), m.victim)
    # hexlog lets a seat rob an empty hand (nothing is stolen); catanatron offers no victim.
    keyed = {("MOVE_ROBBER", (1, -1, 0), None): "action"}
    assert cb.resolve(("MOVE_ROBBER", (1, -1, 0), 3), keyed) == "action"
    assert cb.resolve(("BUILD_CITY", 4), keyed) is None


def test_catanatron_action_keys_match_command_keys(bmap: Any) -> None:
    colors = ("RED", "BLUE", "ORANGE", "WHITE")
    assert cb.action_key("BUILD_ROAD", (5, 3), colors) == ("BUILD_ROAD", frozenset((3, 5)))
    assert cb.action_key("MARITIME_TRADE", ("ORE", "ORE", "ORE", None, "WOOD"), colors) == (
        "MARITIME_TRADE", "ORE", "WOOD")
    assert cb.action_key("MOVE_ROBBER", ((1, -1, 0), "ORANGE", None), colors) == (
        "MOVE_ROBBER", (1, -1, 0), 2)
    yop = PlayYearOfPlenty(seat=0, resources=("ore", "lumber"))
    assert cb.command_key(yop, bmap) == cb.action_key(
        "PLAY_YEAR_OF_PLENTY", ("WOOD", "ORE"), colors)
    assert cb.command_key(BuildSettlement(seat=0, vertex=bmap.vertex_of[3]), bmap) == (
        "BUILD_SETTLEMENT", 3)


def test_wilson_interval() -> None:
    lo, hi = cb.wilson(222, 400)
    assert round(lo, 3) == 0.506
    assert round(hi, 3) == 0.603


def test_exact_binomial_against_parity() -> None:
    # The pod tournament's figure (benchmarks/search_bot.md): 222 of 400 against 25%.
    assert f"{cb.binomial_p(222, 400):.3g}" == "1.74e-38"
    assert cb.binomial_p(1, 4) == 1.0


# --- card counting (HandCounter): what our seat can know of the others' hands ----------------

WOOD, BRICK, SHEEP, WHEAT, ORE = range(5)


def gain(seats: int, seat: int, *pairs: tuple[int, int]) -> list[list[int]]:
    deltas = [[0] * 5 for _ in range(seats)]
    for r, k in pairs:
        deltas[seat][r] += k
    return deltas


def test_public_changes_keep_every_hand_exact() -> None:
    counter = cb.HandCounter(4, me=0, particles=16, seed=1)
    counter.public(gain(4, 1, (WOOD, 2), (ORE, 1)))
    counter.public(gain(4, 1, (WOOD, -1)))
    assert all(hands[1] == [1, 0, 0, 0, 1] for hands in counter.particles)
    assert counter.distinct(1) == 1


def test_an_unseen_steal_is_a_guess_until_a_later_payment_settles_it() -> None:
    counter = cb.HandCounter(4, me=0, particles=32, seed=2)
    counter.public(gain(4, 2, (WOOD, 1), (ORE, 1)))
    counter.hidden_steal(thief=3, victim=2)
    # Either card may have gone: the guesses differ, and each keeps both seats' counts.
    assert counter.distinct(3) == 2
    assert all(sum(h[2]) == 1 and sum(h[3]) == 1 for h in counter.particles)
    # Seat 2 then pays an ore in public: only the guesses where the wood was stolen live.
    counter.public(gain(4, 2, (ORE, -1)))
    assert all(h[2] == [0] * 5 and h[3] == [1, 0, 0, 0, 0] for h in counter.particles)
    assert counter.mended == 0


def test_a_record_no_guess_explains_is_mended_keeping_counts_and_totals() -> None:
    counter = cb.HandCounter(3, me=2, particles=1, seed=3)
    counter.public([[1, 1, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 1, 0, 0]])
    counter.hidden_steal(thief=1, victim=0)  # the only guess picks one of wood and brick
    took = counter.particles[0][1].index(1)
    other = BRICK if took == WOOD else WOOD
    counter.public(gain(3, 1, (other, -1)))  # seat 1 pays with the card the guess did not give
    assert counter.mended == 1
    # The mend swaps the guess: seat 1 stole the card it paid, seat 0 kept the other.
    expected_0 = [0] * 5
    expected_0[took] = 1
    assert counter.particles[0] == [expected_0, [0] * 5, [0, 0, 1, 0, 0]]


def test_a_mend_never_changes_our_own_hand() -> None:
    # Our seat (0) holds a wood, as seat 1 does: the mend must take seat 1's, whatever the order.
    for seed in range(8):
        counter = cb.HandCounter(3, me=0, particles=1, seed=seed)
        counter.public([[1, 0, 0, 0, 0], [1, 1, 0, 0, 0], [0, 0, 0, 0, 0]])
        counter.hidden_steal(thief=2, victim=1)
        took = counter.particles[0][2].index(1)
        other = BRICK if took == WOOD else WOOD
        counter.public(gain(3, 2, (other, -1)))
        assert counter.mended == 1
        expected_1 = [0] * 5
        expected_1[took] = 1
        assert counter.particles[0] == [[1, 0, 0, 0, 0], expected_1, [0] * 5]
