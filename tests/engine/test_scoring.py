"""Victory points, Longest Road, Largest Army and the win (docs/rules/README.md §0.3; docs/rules/base.md §1.8, §1.9, §1.11).

Roads are laid on three parallel zig-zag lines across the east of the beginner board, six roads
each: T along the north of the row r=-1, M between the rows r=-1 and r=0, B along the south of
the row r=0. They share no vertex, so each is one seat's road."""

from __future__ import annotations

from engine_helpers import NE, NW, SE, SW, N, S, corner, longest_path

from events.commands import (
    BuildCity,
    BuildRoad,
    BuildSettlement,
    BuyDevelopmentCard,
    EndTurn,
    MoveRobber,
    PlayKnight,
)
from events.events import (
    GameFinished,
    KnightPlayed,
    LargestArmyChanged,
    LongestRoadChanged,
    ModuleSpec,
    SettlementBuilt,
    TurnEnded,
)
from services.rules.engine import public_vp, score
from services.rules.engine.testing import Table

Vertex = int


def line(t: Table, row: int, top: bool) -> list[Vertex]:
    """The seven vertices of the zig-zag along the north (top) or south edge of hexes
    (0,row), (1,row), (2,row), west to east."""
    out = []
    for q in range(3):
        h = (q, row)
        out += [corner(t, h, NW), corner(t, h, N)] if top else [corner(t, h, SW), corner(t, h, S)]
    out.append(corner(t, (2, row), NE if top else SE))
    return out


def edge(t: Table, a: Vertex, b: Vertex) -> int:
    topo = t.state.board.topo
    (e,) = set(topo.vertex_edges[a]) & set(topo.vertex_edges[b])
    return e


def path_edges(t: Table, vertices: list[Vertex]) -> list[int]:
    return [edge(t, a, b) for a, b in zip(vertices, vertices[1:], strict=False)]


def lay_road(t: Table, seat: int, vertices: list[Vertex]) -> list[object]:
    """A settlement at the first vertex, free roads along the path but the last, which is
    built by command so that the award is decided as in play. Returns its events."""
    t.place(seat, vertices[0])
    edges = path_edges(t, vertices)
    for e in edges[:-1]:
        t.road(seat, e)
    t.turn_of(seat)
    t.give(seat, brick=1, lumber=1)
    return t.when(BuildRoad(seat=seat, edge=edges[-1]))  # type: ignore[return-value]


def north(t: Table) -> list[Vertex]:
    """Line T, built from its east end."""
    return line(t, -1, top=True)[::-1]


def middle(t: Table) -> list[Vertex]:
    """Line M, built from its west end."""
    return line(t, 0, top=True)


def south(t: Table) -> list[Vertex]:
    """Line B, built from its east end."""
    return line(t, 0, top=False)[::-1]


def break_at(t: Table, seat: int, v: Vertex) -> list[object]:
    """`seat` builds a settlement on `v` from a road of its own on the third edge there."""
    topo = t.state.board.topo
    spur = next(e for e in topo.vertex_edges[v] if t.state.edge_owner[e] == -1 and topo.edge_is_land[e])
    t.road(seat, spur)
    t.turn_of(seat)
    t.give(seat, brick=1, lumber=1, wool=1, grain=1)
    return t.when(BuildSettlement(seat=seat, vertex=v))  # type: ignore[return-value]


# --- victory points -------------------------------------------------------------------------


def test_settlements_count_one_cities_two_and_vp_cards_one_hidden() -> None:
    t = Table()
    assert score(t.state) == (2, 2, 2, 2)
    home = next(iter(t.state.players[0].settlements))
    t.turn_of(0)
    t.give(0, ore=3, grain=2)
    t.when(BuildCity(seat=0, vertex=home))
    t.give_dev(0, "victory_point")
    t.give_dev(0, "victory_point")
    assert score(t.state) == (5, 2, 2, 2)
    assert public_vp(t.state, 0) == 3


# --- Longest Road ---------------------------------------------------------------------------


def test_longest_road_goes_to_the_first_road_of_five_not_four() -> None:
    t = Table()
    four = lay_road(t, 1, north(t)[:5])
    assert not any(isinstance(e, LongestRoadChanged) for e in four)
    assert t.state.players[1].road_length == 4
    t.give(1, brick=1, lumber=1)
    events = t.when(BuildRoad(seat=1, edge=edge(t, north(t)[4], north(t)[5])))
    assert events[1] == LongestRoadChanged(holder=1, length=5)
    assert score(t.state)[1] == 3 + 2


def test_a_longer_road_takes_longest_road_and_an_equal_one_does_not() -> None:
    t = Table()
    lay_road(t, 1, north(t)[:6])
    assert t.state.longest_holder == 1
    tie = lay_road(t, 2, south(t)[:6])
    assert t.state.players[2].road_length == 5
    assert not any(isinstance(e, LongestRoadChanged) for e in tie)
    t.give(2, brick=1, lumber=1)
    events = t.when(BuildRoad(seat=2, edge=edge(t, south(t)[5], south(t)[6])))
    assert events[1] == LongestRoadChanged(holder=2, length=6)
    assert (score(t.state)[1], score(t.state)[2]) == (3, 5)


def test_an_opponents_settlement_breaks_a_road_and_the_holder_keeps_it_while_co_longest() -> None:
    t = Table()
    lay_road(t, 1, north(t))
    lay_road(t, 2, south(t)[:6])
    assert [p.road_length for p in t.state.players][1:3] == [6, 5]
    events = break_at(t, 0, north(t)[5])  # leaves 5 + 1
    assert t.state.players[1].road_length == 5
    assert not any(isinstance(e, LongestRoadChanged) for e in events)
    assert t.state.longest_holder == 1


def test_a_broken_holder_loses_longest_road_to_the_sole_longest() -> None:
    t = Table()
    lay_road(t, 1, north(t))
    lay_road(t, 2, south(t)[:6])
    events = break_at(t, 0, north(t)[3])  # 3 + 3
    assert t.state.players[1].road_length == 3
    assert events[1:] == [LongestRoadChanged(holder=2, length=5)]


def test_a_broken_holder_sets_longest_road_aside_when_others_tie() -> None:
    t = Table()
    lay_road(t, 1, north(t))
    lay_road(t, 2, south(t)[:6])
    lay_road(t, 3, middle(t)[:6])
    assert [p.road_length for p in t.state.players][1:] == [6, 5, 5]
    events = break_at(t, 0, north(t)[3])
    assert events[1:] == [LongestRoadChanged(holder=None, length=5)]
    assert score(t.state)[1:] == (3, 3, 3)
    # The next seat to get ahead takes it.
    t.turn_of(3)
    t.give(3, brick=1, lumber=1)
    events = t.when(BuildRoad(seat=3, edge=edge(t, middle(t)[5], middle(t)[6])))
    assert events[1] == LongestRoadChanged(holder=3, length=6)


def test_a_broken_road_below_five_sets_longest_road_aside() -> None:
    t = Table()
    lay_road(t, 1, north(t)[:6])
    events = break_at(t, 0, north(t)[2])  # 2 + 3
    assert events[1:] == [LongestRoadChanged(holder=None, length=3)]
    assert t.state.longest_holder == -1


def test_a_seats_own_settlement_does_not_break_its_road() -> None:
    t = Table()
    lay_road(t, 1, north(t))
    events = break_at(t, 1, north(t)[3])
    assert t.state.players[1].road_length == 6
    assert [type(e) for e in events] == [SettlementBuilt]


def test_road_length_is_the_longest_trail_through_loops_and_branches_no_road_counted_twice() -> None:
    t = Table()
    hexagon = [corner(t, (1, 0), i) for i in range(6)]
    for e in path_edges(t, hexagon + hexagon[:1]):
        t.road(1, e)
    assert t.state.players[1].road_length == 6  # a closed loop counts every road
    spur_far = next(v for v in t.state.board.topo.vertex_neighbours[hexagon[0]] if v not in hexagon)
    t.road(1, edge(t, hexagon[0], spur_far))
    assert t.state.players[1].road_length == 7  # the loop and a tail
    # A second tail on the opposite corner: four vertices of odd degree, so no trail uses all
    # 8 roads; the best is a tail and the whole loop (7).
    spur = next(v for v in t.state.board.topo.vertex_neighbours[hexagon[3]] if v not in hexagon)
    t.road(1, edge(t, hexagon[3], spur))
    assert t.state.players[1].road_length == 7
    assert longest_path(t.state, 1) == 7
    # Lengthen that tail to two roads: the two-road tail and the whole loop make 8.
    far = next(v for v in t.state.board.topo.vertex_neighbours[spur] if v != hexagon[3])
    t.road(1, edge(t, spur, far))
    assert t.state.players[1].road_length == longest_path(t.state, 1) == 8


def test_a_settlement_on_a_loop_opens_it_without_shortening_it() -> None:
    t = Table()
    hexagon = [corner(t, (1, 0), i) for i in range(6)]
    for e in path_edges(t, hexagon + hexagon[:1]):
        t.road(1, e)
    t.place(0, hexagon[2])
    assert t.state.players[1].road_length == 6  # from the settlement round to it again


# --- Largest Army ---------------------------------------------------------------------------


def play_knight(t: Table, seat: int) -> list[object]:
    t.turn_of(seat, rolled=False)
    t.state.dev_played = False
    t.give_dev(seat, "knight")
    events = t.when(PlayKnight(seat=seat))
    target = "(2,-2)" if t.state.robber != t.hex("(2,-2)") else "(0,2)"
    t.when(MoveRobber(seat=seat, hex=t.hex(target)))
    return events  # type: ignore[return-value]


def test_largest_army_goes_to_the_first_seat_with_three_knights() -> None:
    t = Table()
    assert play_knight(t, 0) == [KnightPlayed(seat=0)]
    play_knight(t, 0)
    events = play_knight(t, 0)
    assert events == [KnightPlayed(seat=0), LargestArmyChanged(holder=0, knights=3)]
    assert score(t.state)[0] == 4


def test_another_seat_must_play_more_knights_than_the_holder_to_take_largest_army() -> None:
    t = Table()
    for _ in range(3):
        play_knight(t, 0)
    for _ in range(3):
        assert not any(isinstance(e, LargestArmyChanged) for e in play_knight(t, 2))
    assert t.state.army_holder == 0
    events = play_knight(t, 2)
    assert events[-1] == LargestArmyChanged(holder=2, knights=4)
    assert (score(t.state)[0], score(t.state)[2]) == (2, 4)


# --- the win --------------------------------------------------------------------------------


def test_base_win_own_turn_a_seat_reaching_ten_in_its_turn_wins_at_once() -> None:
    t = Table()
    t.place(0, corner(t, (2, -2), N))  # a third settlement
    for _ in range(5):
        t.give_dev(0, "victory_point")
    home = sorted(t.state.players[0].settlements)
    t.turn_of(0)
    t.give(0, ore=6, grain=4)
    t.when(BuildCity(seat=0, vertex=home[0]))
    assert score(t.state)[0] == 9
    assert not t.state.finished
    events = t.when(BuildCity(seat=0, vertex=home[1]))
    assert events[-1] == GameFinished(winner=0, scores=(10, 2, 2, 2), reason="victory", seed=events[-1].seed)  # type: ignore[attr-defined]
    assert t.state.finished
    assert public_vp(t.state, 0) == 5  # the hidden cards make the win


def test_base_win_own_turn_a_seat_reaching_ten_in_another_turn_wins_when_its_turn_begins() -> None:
    t = Table()
    lay_road(t, 2, north(t))  # seat 2 holds Longest Road with 6
    lay_road(t, 1, south(t)[:6])  # seat 1: 3 settlements and a road of 5
    for _ in range(5):
        t.give_dev(1, "victory_point")
    assert score(t.state)[1] == 8
    events = break_at(t, 0, north(t)[3])  # seat 0's turn: Longest Road passes to seat 1
    assert events[1:] == [LongestRoadChanged(holder=1, length=5)]
    assert score(t.state)[1] == 10
    assert not t.state.finished
    events = t.when(EndTurn(seat=0))
    assert events[0] == TurnEnded(seat=0, next=1)
    assert events[1] == GameFinished(winner=1, scores=score(t.state), reason="victory",
                                     seed=events[1].seed)  # type: ignore[attr-defined]


def test_base_win_own_turn_nine_points_do_not_win_and_a_vp_card_bought_now_does() -> None:
    t = Table()
    t.place(0, corner(t, (2, -2), N))
    for _ in range(4):
        t.give_dev(0, "victory_point")
    home = sorted(t.state.players[0].settlements)
    t.turn_of(0)
    t.give(0, ore=7, grain=5, wool=1)
    t.when(BuildCity(seat=0, vertex=home[0]))
    t.when(BuildCity(seat=0, vertex=home[1]))
    assert score(t.state)[0] == 10 - 1
    assert not t.state.finished
    t.script("devcard", "victory_point")
    events = t.when(BuyDevelopmentCard(seat=0))
    assert isinstance(events[-1], GameFinished)
    assert events[-1].winner == 0


def test_base_win_own_turn_the_target_comes_from_the_ruleset() -> None:
    t = Table(modules=[ModuleSpec("victory-points", {"target": 12})])
    t.place(0, corner(t, (2, -2), N))
    for _ in range(5):
        t.give_dev(0, "victory_point")
    home = sorted(t.state.players[0].settlements)
    t.turn_of(0)
    t.give(0, ore=6, grain=4)
    t.when(BuildCity(seat=0, vertex=home[0]))
    t.when(BuildCity(seat=0, vertex=home[1]))
    assert score(t.state)[0] == 10
    assert not t.state.finished
