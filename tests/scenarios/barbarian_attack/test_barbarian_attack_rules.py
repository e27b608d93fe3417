"""Barbarian Attack (docs/rules/barbarian-attack.md §9): one test per rule clause, each named
after its rule id, on the fixed layout with scripted chance (ba_helpers.py describes the board).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from ba_helpers import SPEC, barbarians, corner, ext, hx, in_main, knight, knights, side, table

from events.barbarian_attack import (
    FROM_SUPPLY,
    AttackCardDrawn,
    BarbariansLanded,
    BeginMarch,
    BuyResourceWithGold,
    CaptureByIntrigue,
    ChooseSevenVictim,
    CoastalBattleWon,
    MarchKnight,
    RaiseKnight,
    RelocateByTreason,
    SellResourceForGold,
)
from events.commands import (
    BuildCity,
    BuildRoad,
    BuildSettlement,
    BuyDevelopmentCard,
    EndTurn,
    RollDice,
)
from events.events import CardStolen, GameFinished, ResourcesProduced, StartingResourcesTaken
from services.rules.engine import (
    chance_outcomes,
    decide,
    new_game,
    pending,
    public_vp,
    total_vp,
)
from services.rules.engine.scenarios.barbarian_attack.common import (
    CARD,
    STEAL,
    geometry,
    refresh_harbors,
)
from services.rules.engine.scenarios.barbarian_attack.landing import land
from services.rules.engine.state import MAIN, NO_ONE
from services.rules.engine.testing import Table

NE_6 = ((2, 0), 1)  # the north-east corner of the 6 hex: it touches no other land hex


def settle(t: Table, seat: int, h: tuple[int, int], i: int, city: bool = False) -> int:
    v = corner(t, h, i)
    t.place(seat, v, city=city)
    return v


def dev_cost(t: Table, seat: int = 0, times: int = 1) -> None:
    t.give(seat, wool=times, grain=times, ore=times)


# --- §9.2 the board -------------------------------------------------------------------------


def test_barbarian_attack_board_layout_castle_desert_and_printed_tokens() -> None:
    tokens = {(0, -2): 8, (1, -2): 9, (2, -1): 10, (2, 0): 6, (1, 1): 5, (0, 2): 12, (-1, 2): 3,
              (-2, 1): 4, (-2, 0): 2, (-1, -1): 11, (0, -1): 10, (1, -1): 6, (1, 0): 9,
              (0, 1): 4, (-1, 1): 11, (-1, 0): 8, (0, 0): 5}
    coastal = [(0, -2), (1, -2), (2, -1), (2, 0), (1, 1), (0, 2), (-1, 2), (-2, 1), (-2, 0),
               (-1, -1)]
    for seed in (b"a", b"b", b"c"):
        t = Table(seats=3, modules=[SPEC], beginner=False, seed=seed, setup=False)
        board = t.state.board
        assert board.hex_terrain[hx(t, (-2, 2))] == "castle"
        assert board.hex_terrain[hx(t, (2, -2))] == "desert"
        for h, n in tokens.items():
            assert board.hex_number[hx(t, h)] == n
        coast = Counter(board.hex_terrain[hx(t, h)] for h in coastal)
        inner = Counter(board.hex_terrain[hx(t, h)] for h in tokens if h not in coastal)
        assert coast == {"forest": 2, "hills": 2, "pasture": 3, "mountains": 1, "fields": 2}
        assert inner == {"forest": 1, "hills": 1, "pasture": 1, "mountains": 2, "fields": 2}
        assert t.state.robber == NO_ONE  # no robber (§9.1)
    # The coastal numbers are the ten non-7 totals, one each.
    assert sorted(geometry(t.state.board).by_number) == [2, 3, 4, 5, 6, 8, 9, 10, 11, 12]


def test_barbarian_attack_board_layout_terrain_is_shuffled_within_groups() -> None:
    layouts = {tuple(Table(seats=3, modules=[SPEC], beginner=False, seed=s, setup=False)
                     .state.board.hex_terrain) for s in (b"1", b"2", b"3", b"4")}
    assert len(layouts) > 1


# --- §9.3 set-up ----------------------------------------------------------------------------


def test_barbarian_attack_setup_city_second_placement_is_a_city_with_one_card_per_hex() -> None:
    t = table(seats=3, setup=True)
    board = t.state.board
    for p in t.state.players:
        assert len(p.settlements) == 1
        assert len(p.cities) == 1
    taken = [e for e in t.log if isinstance(e, StartingResourcesTaken)]
    for e in taken:
        city = next(iter(t.state.players[e.seat].cities))
        producing = [h for h in board.topo.vertex_land_hexes[city] if board.hex_resource[h] >= 0]
        assert sum(e.resources.values()) == len(producing)  # one each, not two


def test_barbarian_attack_setup_no_landing_and_two_barbarians_at_the_start() -> None:
    t = table(seats=4, setup=True)
    assert not [e for e in t.log if isinstance(e, BarbariansLanded)]
    a = ext(t)
    assert a.barbarians[hx(t, (-2, 0))] == 1
    assert a.barbarians[hx(t, (0, 2))] == 1
    assert sum(a.barbarians) == 2
    assert a.supply == 28


# --- §9.4 landings --------------------------------------------------------------------------


def build_settlement_east(t: Table, seat: int = 0) -> list[object]:
    t.road(seat, side(t, (2, 0), 0))
    t.give(seat, lumber=1, brick=1, wool=1, grain=1)
    return list(t.when(BuildSettlement(seat=seat, vertex=corner(t, *NE_6))))


def test_barbarian_attack_landing_trigger_settlement_and_city_bring_one_landing_each() -> None:
    t = table()
    events = build_settlement_east(t)
    assert sum(isinstance(e, BarbariansLanded) for e in events) == 1
    t.give(0, grain=2, ore=3)
    events = t.when(BuildCity(seat=0, vertex=corner(t, *NE_6)))
    assert sum(isinstance(e, BarbariansLanded) for e in events) == 1
    # Roads bring none.
    t.give(0, lumber=1, brick=1)
    events = t.when(BuildRoad(seat=0, edge=side(t, (2, 0), 1)))
    assert not any(isinstance(e, BarbariansLanded) for e in events)


def test_barbarian_attack_landing_totals_three_different_totals_without_seven() -> None:
    t = table()
    t.script("landing", 2, 4, 11)
    events = build_settlement_east(t)
    landed = next(e for e in events if isinstance(e, BarbariansLanded))
    assert landed.totals == (2, 4, 11)
    assert landed.hexes == (hx(t, (-2, 0)), hx(t, (-2, 1)), hx(t, (-1, -1)))
    a = ext(t)
    assert a.barbarians[hx(t, (-2, 0))] == 2
    assert a.supply == 25
    assert a.throws == 3


def test_barbarian_attack_landing_totals_have_the_odds_of_rethrown_dice() -> None:
    t = table()
    t.road(0, side(t, (2, 0), 0))
    t.give(0, lumber=1, brick=1, wool=1, grain=1)
    first: Counter[int] = Counter()
    outcomes = chance_outcomes(t.state, BuildSettlement(seat=0, vertex=corner(t, *NE_6)))
    assert sum(p for p, _ in outcomes) == 1
    for p, events in outcomes:
        landed = next(e for e in events if isinstance(e, BarbariansLanded))
        assert len(set(landed.totals)) == 3
        assert 7 not in landed.totals
        first[landed.totals[0]] += p  # type: ignore[assignment]
    # Throwing until the total is not 7: each total's two-dice ways out of 30.
    assert first == {n: Fraction(6 - abs(n - 7), 30) for n in (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)}


def test_barbarian_attack_landing_full_hex_takes_none_and_its_total_counts() -> None:
    t = table()
    barbarians(t, {(-2, 0): 3})
    t.script("landing", 2, 4, 11)
    events = build_settlement_east(t)
    landed = next(e for e in events if isinstance(e, BarbariansLanded))
    assert landed.totals == (2, 4, 11)  # the 2 counted as one of the three totals
    assert landed.hexes == (hx(t, (-2, 1)), hx(t, (-1, -1)))
    assert ext(t).barbarians[hx(t, (-2, 0))] == 3


def test_barbarian_attack_landing_supply_stops_the_landing_and_then_nothing_lands() -> None:
    t = table()
    coastal = [(0, -2), (1, -2), (2, -1), (0, 2), (1, 1), (-1, 2), (-2, 1), (-2, 0), (-1, -1)]
    barbarians(t, {**{h: 3 for h in coastal}, (2, 0): 2})
    assert ext(t).supply == 1
    t.script("landing", 6, 3)
    events = build_settlement_east(t)
    landed = next(e for e in events if isinstance(e, BarbariansLanded))
    assert landed.totals == (6,)
    assert landed.hexes == (hx(t, (2, 0)),)
    assert ext(t).supply == 0
    t.give(0, grain=2, ore=3)
    events = t.when(BuildCity(seat=0, vertex=corner(t, *NE_6)))
    assert not any(isinstance(e, BarbariansLanded) for e in events)


def test_barbarian_attack_barbarian_coastal_only_at_most_three_per_hex() -> None:
    t = table()
    g = geometry(t.state.board)
    from services.rules.engine.chance import SeededDealer
    from services.rules.engine.scenarios.barbarian_attack.landing import evolve_landed

    dealer = SeededDealer(b"landings")
    for _ in range(15):
        evolve_landed(t.state, land(t.state, dealer))
        a = ext(t)
        assert all(a.barbarians[h] == 0 for h in range(len(a.barbarians)) if h not in g.coastal_set)
        assert max(a.barbarians) <= 3
        assert sum(a.barbarians) + a.supply == 30


# --- §9.5 conquest --------------------------------------------------------------------------


def test_barbarian_attack_conquest_production_conquered_hex_produces_nothing() -> None:
    t = table()
    settle(t, 0, *NE_6, city=True)
    barbarians(t, {(2, 0): 3})
    t.turn_of(0, rolled=False)
    t.script("dice", (3, 3))
    events = t.when(RollDice(seat=0))
    assert not any(isinstance(e, ResourcesProduced) and e.gains[0] for e in events)
    barbarians(t, {(2, 0): 2})
    t.turn_of(0, rolled=False)
    t.script("dice", (3, 3))
    events = t.when(RollDice(seat=0))
    produced = next(e for e in events if isinstance(e, ResourcesProduced))
    assert produced.gains[0] == {"ore": 2}


def test_barbarian_attack_conquest_road_no_road_on_a_conquered_hex() -> None:
    t = table()
    settle(t, 0, (2, 0), 2)
    barbarians(t, {(2, 0): 3})
    t.give(0, lumber=1, brick=1)
    t.rejects(BuildRoad(seat=0, edge=side(t, (2, 0), 1)), "barbarian_attack.conquest.road")
    options = pending(t.state)[0].options
    assert BuildRoad(seat=0, edge=side(t, (2, 0), 1)) not in options


def test_barbarian_attack_conquest_settlement_no_settlement_on_a_conquered_corner() -> None:
    t = table()
    t.road(0, side(t, (2, 0), 0))
    barbarians(t, {(2, 0): 3})
    t.give(0, lumber=1, brick=1, wool=1, grain=1)
    t.rejects(BuildSettlement(seat=0, vertex=corner(t, *NE_6)),
              "barbarian_attack.conquest.settlement")


def test_barbarian_attack_conquest_building_scores_nothing_but_still_stands() -> None:
    t = table()
    v = settle(t, 0, *NE_6)  # on the 3:1 harbor of the fixed layout
    assert t.state.players[0].ratios == [3] * 5
    assert public_vp(t.state, 0) == 1
    barbarians(t, {(2, 0): 3})
    refresh_harbors(t.state)
    assert public_vp(t.state, 0) == 0
    assert total_vp(t.state, 0) == 0
    assert t.state.players[0].ratios == [4] * 5
    assert t.state.vertex_owner[v] == 0  # still stands and blocks
    t.road(1, side(t, (2, 0), 0))
    t.give(1, lumber=1, brick=1, wool=1, grain=1)
    in_main(t, 1)
    t.rejects(BuildSettlement(seat=1, vertex=v), "base.build.occupied")
    # A building touching a free hex too is never conquered.
    w = settle(t, 1, (2, 0), 5)
    assert public_vp(t.state, 1) == 1
    assert w in t.state.players[1].settlements


def test_barbarian_attack_conquest_liberation_buildings_count_again() -> None:
    t = table()
    settle(t, 0, *NE_6)
    barbarians(t, {(2, 0): 3})
    refresh_harbors(t.state)
    assert public_vp(t.state, 0) == 0
    t.script("devcard", "intrigue")
    dev_cost(t)
    t.when(BuyDevelopmentCard(seat=0))
    t.when(CaptureByIntrigue(seat=0, hex=hx(t, (2, 0))))
    assert public_vp(t.state, 0) == 1
    assert t.state.players[0].ratios == [3] * 5


# --- §9.6 the development deck --------------------------------------------------------------


def test_barbarian_attack_dev_deck_26_cards_drawn_by_their_counts() -> None:
    t = table()
    assert ext(t).deck == [14, 4, 4, 4]
    assert sum(t.state.deck) == 0  # the base deck is not used
    dev_cost(t)
    first: Counter[str] = Counter()
    for p, events in chance_outcomes(t.state, BuyDevelopmentCard(seat=0)):
        drawn = events[0]
        assert isinstance(drawn, AttackCardDrawn)
        first[drawn.card] += p  # type: ignore[assignment]
    assert first == {"knighthood": Fraction(14, 26), "swift_knight": Fraction(4, 26),
                     "treason": Fraction(4, 26), "intrigue": Fraction(4, 26)}


def test_barbarian_attack_dev_immediate_effect_and_several_per_turn() -> None:
    t = table()
    dev_cost(t, times=2)
    t.script("devcard", "treason", "knighthood")
    t.when(BuyDevelopmentCard(seat=0))
    assert ext(t).gold[0] == 2
    assert t.state.phase == CARD
    options = pending(t.state)[0].options
    t.when(options[0])
    t.when(pending(t.state)[0].options[0])
    assert t.state.phase == MAIN
    t.when(BuyDevelopmentCard(seat=0))  # a second card in the same turn
    assert t.state.phase == CARD


def test_barbarian_attack_dev_reshuffle_when_the_deck_runs_out() -> None:
    t = table()
    ext(t).deck = [0, 0, 0, 1]
    dev_cost(t)
    events = t.when(BuyDevelopmentCard(seat=0))
    assert isinstance(events[0], AttackCardDrawn)
    assert events[0].card == "intrigue"
    assert ext(t).deck == [14, 4, 4, 4]


def test_barbarian_attack_dev_knighthood_on_a_free_castle_path_only() -> None:
    t = table()
    g = geometry(t.state.board)
    t.script("devcard", "knighthood")
    dev_cost(t)
    t.when(BuyDevelopmentCard(seat=0))
    options = pending(t.state)[0].options
    assert {o.edge for o in options if isinstance(o, RaiseKnight)} == set(g.castle_edges)
    t.rejects(RaiseKnight(seat=0, edge=side(t, (2, 0), 0)), "barbarian_attack.dev.knighthood")
    edge = min(g.castle_edges)
    t.when(RaiseKnight(seat=0, edge=edge))
    assert knights(t, 0) == {edge}
    assert t.state.phase == MAIN
    assert sum(t.state.players[0].hand) == 0  # paid


def test_barbarian_attack_dev_swift_knight_on_any_free_path() -> None:
    t = table()
    knight(t, 1, side(t, (2, 0), 0))
    t.script("devcard", "swift_knight")
    dev_cost(t)
    t.when(BuyDevelopmentCard(seat=0))
    edges = {o.edge for o in pending(t.state)[0].options if isinstance(o, RaiseKnight)}
    assert side(t, (2, 0), 0) not in edges
    assert side(t, (2, 0), 1) in edges
    assert edges == set(geometry(t.state.board).land_edges) - {side(t, (2, 0), 0)}
    t.when(RaiseKnight(seat=0, edge=side(t, (2, 0), 1)))
    assert knights(t, 0) == {side(t, (2, 0), 1)}


def test_barbarian_attack_dev_knight_lost_when_it_has_no_use() -> None:
    t = table()
    g = geometry(t.state.board)
    for e in g.castle_edges:
        knight(t, 1, e)
    t.script("devcard", "knighthood")
    dev_cost(t)
    events = t.when(BuyDevelopmentCard(seat=0))
    assert events[0] == AttackCardDrawn(seat=0, card="knighthood", n=0, lost=True)
    assert t.state.phase == MAIN
    assert not knights(t, 0)


def test_barbarian_attack_dev_treason_gold_and_two_relocations() -> None:
    t = table()
    a = ext(t)
    west, south = hx(t, (-2, 0)), hx(t, (0, 2))
    east = hx(t, (2, 0))
    t.script("devcard", "treason")
    dev_cost(t)
    t.when(BuyDevelopmentCard(seat=0))
    assert a.gold[0] == 2
    assert t.state.phase == CARD
    options = pending(t.state)[0].options
    assert all(isinstance(o, RelocateByTreason) and o.source in (west, south)
               and o.target != o.source for o in options)
    t.rejects(RelocateByTreason(seat=0, source=west, target=west), "barbarian_attack.dev.treason")
    t.when(RelocateByTreason(seat=0, source=west, target=east))
    # The second comes from another hex and goes to a hex this Treason has not used.
    t.rejects(RelocateByTreason(seat=0, source=south, target=east), "barbarian_attack.dev.treason")
    t.rejects(RelocateByTreason(seat=0, source=east, target=south), "barbarian_attack.dev.treason")
    t.when(RelocateByTreason(seat=0, source=south, target=hx(t, (1, 1))))
    assert t.state.phase == MAIN
    assert a.barbarians[east] == 1
    assert a.barbarians[hx(t, (1, 1))] == 1
    assert sum(a.barbarians) == 2


def test_barbarian_attack_dev_treason_shortfall_from_the_supply_and_conquest() -> None:
    t = table()
    barbarians(t, {(2, 0): 2})
    t.script("devcard", "treason")
    dev_cost(t)
    t.when(BuyDevelopmentCard(seat=0))
    # A conquered hex is no target; a relocation may complete a conquest.
    t.when(RelocateByTreason(seat=0, source=hx(t, (2, 0)), target=hx(t, (1, 1))))
    sources = {o.source for o in pending(t.state)[0].options if isinstance(o, RelocateByTreason)}
    assert sources == {FROM_SUPPLY}
    t.when(RelocateByTreason(seat=0, source=FROM_SUPPLY, target=hx(t, (0, 2))))
    assert ext(t).supply == 27
    assert sum(ext(t).barbarians) == 3


def test_barbarian_attack_dev_intrigue_prisoner_or_a_free_card() -> None:
    t = table()
    t.script("devcard", "intrigue")
    dev_cost(t)
    t.when(BuyDevelopmentCard(seat=0))
    t.rejects(CaptureByIntrigue(seat=0, hex=hx(t, (2, 0))), "barbarian_attack.dev.intrigue")
    t.when(CaptureByIntrigue(seat=0, hex=hx(t, (0, 2))))
    assert ext(t).prisoners[0] == 1
    assert sum(ext(t).barbarians) == 1
    barbarians(t, {})
    t.script("devcard", "intrigue", "treason")
    dev_cost(t)
    events = t.when(BuyDevelopmentCard(seat=0))
    drawn = [e for e in events if isinstance(e, AttackCardDrawn)]
    assert [(e.card, e.free, e.lost) for e in drawn] == [("intrigue", False, True),
                                                         ("treason", True, False)]
    assert sum(t.state.players[0].hand) == 0  # one price for both


# --- §9.7 knights ---------------------------------------------------------------------------


def distances(t: Table, start: int) -> dict[int, int]:
    """Walking distance over land paths (an independent search)."""
    topo = t.state.board.topo
    seen = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for e in frontier:
            for v in topo.edge_vertices[e]:
                for f in topo.vertex_edges[v]:
                    if topo.edge_is_land[f] and f not in seen:
                        seen[f] = seen[e] + 1
                        nxt.append(f)
        frontier = nxt
    return seen


def at_distance(t: Table, start: int, d: int) -> int:
    castle = geometry(t.state.board).castle_edges
    return min(e for e, n in distances(t, start).items() if n == d and e not in castle)


def test_barbarian_attack_knight_supply_six_per_player() -> None:
    t = table()
    assert t.state.rules.cache.limits["knight"] == 6
    for i in range(6):
        knight(t, 0, side(t, (1, 0), i))
    t.script("devcard", "swift_knight")
    dev_cost(t)
    events = t.when(BuyDevelopmentCard(seat=0))
    assert isinstance(events[0], AttackCardDrawn)
    assert events[0].lost


def test_barbarian_attack_knight_one_per_path() -> None:
    t = table()
    a, b = side(t, (1, 0), 0), side(t, (1, 0), 1)
    knight(t, 0, a)
    knight(t, 1, b)
    t.rejects(MarchKnight(seat=0, source=a, target=b), "barbarian_attack.knight.one_per_path")


def test_barbarian_attack_knight_move_three_paths_then_no_building() -> None:
    t = table()
    start = side(t, (1, 0), 0)
    knight(t, 0, start)
    t.rejects(MarchKnight(seat=0, source=start, target=at_distance(t, start, 6)),
              "barbarian_attack.knight.move")
    castle = side(t, (-1, 1), 3)  # the side (-1,1) shares with the castle
    knight(t, 0, side(t, (-1, 1), 4))
    t.rejects(MarchKnight(seat=0, source=side(t, (-1, 1), 4), target=castle),
              "barbarian_attack.knight.move")
    target = at_distance(t, start, 3)
    t.when(MarchKnight(seat=0, source=start, target=target))
    assert target in knights(t, 0)
    t.rejects(MarchKnight(seat=0, source=target, target=start), "barbarian_attack.knight.move")
    # Trading and building are over once the knights march.
    t.give(0, lumber=1, brick=1, wool=1, grain=1, ore=1)
    t.road(0, side(t, (2, 0), 0))
    t.rejects(BuildRoad(seat=0, edge=side(t, (2, 0), 1)), "barbarian_attack.knight.move")
    t.rejects(BuyDevelopmentCard(seat=0), "barbarian_attack.knight.move")
    options = pending(t.state)[0].options
    assert all(isinstance(o, MarchKnight | EndTurn) for o in options)
    t.when(EndTurn(seat=0))
    assert not ext(t).marching
    assert not ext(t).moved


def test_barbarian_attack_knight_boost_five_paths_for_one_grain() -> None:
    t = table()
    start = side(t, (1, 0), 0)
    knight(t, 0, start)
    far = at_distance(t, start, 5)
    t.rejects(MarchKnight(seat=0, source=start, target=far), "barbarian_attack.knight.boost")
    t.rejects(MarchKnight(seat=0, source=start, target=far, boost=True),
              "barbarian_attack.knight.boost")  # no grain
    t.give(0, grain=1)
    bank = t.state.bank[3]
    t.when(MarchKnight(seat=0, source=start, target=far, boost=True))
    assert far in knights(t, 0)
    assert t.state.players[0].hand[3] == 0
    assert t.state.bank[3] == bank + 1


def test_barbarian_attack_knight_leave_castle_before_the_turn_ends() -> None:
    t = table()
    castle = min(geometry(t.state.board).castle_edges)
    knight(t, 0, castle)
    t.rejects(EndTurn(seat=0), "barbarian_attack.knight.leave_castle")
    options = pending(t.state)[0].options
    assert not any(isinstance(o, EndTurn) for o in options)
    t.when(BeginMarch(seat=0))
    options = pending(t.state)[0].options
    assert not any(isinstance(o, EndTurn) for o in options)
    march = next(o for o in options if isinstance(o, MarchKnight) and o.source == castle)
    t.when(march)
    t.when(EndTurn(seat=0))


# --- §9.8 battles ---------------------------------------------------------------------------


def battles(events: list[object]) -> list[CoastalBattleWon]:
    return [e for e in events if isinstance(e, CoastalBattleWon)]


def test_barbarian_attack_battle_order_clockwise_from_the_castle() -> None:
    t = table()
    barbarians(t, {(2, 0): 1, (-2, 1): 1, (0, -2): 1})
    for h in ((2, 0), (-2, 1), (0, -2)):
        knight(t, 0, side(t, h, 0))
        knight(t, 0, side(t, h, 1)) if h != (-2, 1) else knight(t, 0, side(t, h, 4))
    t.script("lossdie", 3, 3, 3)
    fought = battles(t.when(EndTurn(seat=0)))
    assert [e.hex for e in fought] == [hx(t, (-2, 1)), hx(t, (0, -2)), hx(t, (2, 0))]


def test_barbarian_attack_battle_victory_needs_more_knights_than_barbarians() -> None:
    t = table()
    barbarians(t, {(2, 0): 2, (1, 1): 1})
    knight(t, 0, side(t, (2, 0), 0))
    knight(t, 1, side(t, (2, 0), 1))
    knight(t, 0, side(t, (1, 1), 3))
    assert not battles(t.when(EndTurn(seat=0)))  # 2 against 2, 1 against 1
    knight(t, 1, side(t, (2, 0), 4))
    in_main(t, 1)
    t.script("lossdie", 3)
    fought = battles(t.when(EndTurn(seat=1)))
    assert [e.hex for e in fought] == [hx(t, (2, 0))]
    assert ext(t).barbarians[hx(t, (2, 0))] == 0


def test_barbarian_attack_battle_prisoners_single_player_takes_all() -> None:
    t = table()
    barbarians(t, {(2, 0): 2})
    for i in (0, 1, 4):
        knight(t, 0, side(t, (2, 0), i))
    t.script("lossdie", 3)
    fought = battles(t.when(EndTurn(seat=0)))
    assert fought[0].prisoners == (2, 0, 0)
    assert ext(t).prisoners == [2, 0, 0]


def test_barbarian_attack_battle_prisoners_one_each_then_most_knights() -> None:
    t = table()
    barbarians(t, {(2, 0): 3})
    for i in (0, 1, 4):
        knight(t, 0, side(t, (2, 0), i))
    knight(t, 1, side(t, (2, 0), 5))
    t.script("lossdie", 3)
    fought = battles(t.when(EndTurn(seat=0)))
    assert fought[0].prisoners == (2, 1, 0)
    assert fought[0].throws == ()


def test_barbarian_attack_battle_prisoners_tie_for_the_last_one_is_thrown() -> None:
    t = table()
    barbarians(t, {(2, 0): 3})
    for i in (0, 1):
        knight(t, 0, side(t, (2, 0), i))
    for i in (4, 5):
        knight(t, 1, side(t, (2, 0), i))
    t.script("prisoners", (1,))  # the throw-off between the two: seat 1 wins
    t.script("lossdie", 2)  # sides 0 and 3: seat 0 loses the knight on side 0
    fought = battles(t.when(EndTurn(seat=0)))[0]
    assert fought.prisoners == (1, 2, 0)
    assert fought.throws == ((1,),)
    assert fought.gold == (3 + 3, 0, 0)  # the losing thrower and one lost knight


def test_barbarian_attack_battle_prisoners_fewer_barbarians_than_players_are_thrown_for() -> None:
    t = table()
    barbarians(t, {(2, 0): 1})
    knight(t, 0, side(t, (2, 0), 0))
    knight(t, 1, side(t, (2, 0), 1))
    t.script("prisoners", (1,))
    t.script("lossdie", 3)
    fought = battles(t.when(EndTurn(seat=0)))[0]
    assert fought.prisoners == (0, 1, 0)


def test_barbarian_attack_battle_compensation_three_gold_without_a_prisoner() -> None:
    t = table()
    barbarians(t, {(2, 0): 1})
    knight(t, 0, side(t, (2, 0), 0))
    knight(t, 1, side(t, (2, 0), 1))
    t.script("prisoners", (0,))
    t.script("lossdie", 3)
    fought = battles(t.when(EndTurn(seat=0)))[0]
    assert fought.prisoners == (1, 0, 0)
    assert fought.gold == (0, 3, 0)
    assert ext(t).gold == [0, 3, 0]


def test_barbarian_attack_battle_losses_colour_die_removes_two_paths() -> None:
    t = table()
    barbarians(t, {(2, 0): 1})
    for i in (1, 4, 0):
        knight(t, 0, side(t, (2, 0), i))
    t.script("lossdie", 4)  # 1 or 4: the east and west sides
    fought = battles(t.when(EndTurn(seat=0)))[0]
    assert set(fought.lost) == {(0, side(t, (2, 0), 1)), (0, side(t, (2, 0), 4))}
    assert knights(t, 0) == {side(t, (2, 0), 0)}
    assert ext(t).gold[0] == 6
    assert fought.die == 4


def test_barbarian_attack_vp_prisoners_score_in_pairs() -> None:
    t = table()
    for n, vp in ((1, 0), (2, 1), (3, 1), (5, 2)):
        ext(t).prisoners[0] = n
        assert public_vp(t.state, 0) == vp == total_vp(t.state, 0)


# --- §9.9 the 7 -----------------------------------------------------------------------------


def test_barbarian_attack_seven_steal_from_a_player_of_choice() -> None:
    t = table()
    t.give(1, ore=2)
    t.turn_of(0, rolled=False)
    t.script("dice", (3, 4))
    t.when(RollDice(seat=0))
    assert t.state.phase == STEAL
    assert pending(t.state)[0].options == [ChooseSevenVictim(seat=0, victim=1)]
    t.rejects(ChooseSevenVictim(seat=0, victim=2), "barbarian_attack.seven.steal")
    events = t.when(ChooseSevenVictim(seat=0, victim=1))
    assert any(isinstance(e, CardStolen) and e.resource == "ore" for e in events)
    assert t.state.phase == MAIN
    assert t.hand(0) == {"ore": 1}


def test_barbarian_attack_seven_steal_skipped_when_nobody_holds_cards() -> None:
    t = table()
    t.turn_of(0, rolled=False)
    t.script("dice", (3, 4))
    t.when(RollDice(seat=0))
    assert t.state.phase == MAIN


# --- §9.10 gold -----------------------------------------------------------------------------


def test_barbarian_attack_gold_buy_two_per_turn_while_the_bank_has_it() -> None:
    t = table()
    ext(t).gold[0] = 7
    t.set_bank(brick=0)
    t.rejects(BuyResourceWithGold(seat=0, resource="brick"), "barbarian_attack.gold.buy")
    t.when(BuyResourceWithGold(seat=0, resource="ore"))
    t.when(BuyResourceWithGold(seat=0, resource="ore"))
    t.rejects(BuyResourceWithGold(seat=0, resource="ore"), "barbarian_attack.gold.buy")
    assert t.hand(0) == {"ore": 2}
    assert ext(t).gold[0] == 3
    ext(t).gold[1] = 1
    in_main(t, 1)
    t.rejects(BuyResourceWithGold(seat=1, resource="ore"), "barbarian_attack.gold.buy")


def test_barbarian_attack_gold_sell_at_the_maritime_ratio() -> None:
    t = table()
    t.give(0, ore=4, wool=3)
    t.rejects(SellResourceForGold(seat=0, resource="wool"), "barbarian_attack.gold.sell")
    t.when(SellResourceForGold(seat=0, resource="ore"))
    assert ext(t).gold[0] == 1
    assert t.hand(0) == {"wool": 3}
    settle(t, 0, *NE_6)  # a 3:1 harbor
    t.when(SellResourceForGold(seat=0, resource="wool"))
    assert ext(t).gold[0] == 2
    assert t.hand(0) == {}


def test_barbarian_attack_gold_not_resource_never_discarded_or_stolen() -> None:
    t = table()
    ext(t).gold[1] = 20
    t.give(1, ore=7)
    t.turn_of(0, rolled=False)
    t.script("dice", (3, 4))
    t.when(RollDice(seat=0))
    assert t.state.phase == STEAL  # 7 cards: no discard, gold is not counted
    t.when(ChooseSevenVictim(seat=0, victim=1))
    assert ext(t).gold[1] == 20
    assert t.state.players[1].cards == 6


# --- §9.11 victory --------------------------------------------------------------------------


def test_barbarian_attack_win_target_twelve_points() -> None:
    t = table()
    assert t.state.rules.hooks.win_target(t.state, 0) == 12
    v = settle(t, 0, (1, 0), 0)  # inland: never conquered
    ext(t).prisoners[0] = 20  # 10 VP
    assert total_vp(t.state, 0) == 11
    t.give(0, grain=2, ore=3)
    t.script("landing", 2, 3, 4)
    events = t.when(BuildCity(seat=0, vertex=v))
    assert isinstance(events[-1], GameFinished)
    assert events[-1].winner == 0


def test_barbarian_attack_win_target_reached_in_the_end_of_turn_battles() -> None:
    t = table()
    settle(t, 0, (1, 0), 0, city=True)
    ext(t).prisoners[0] = 19  # 9 VP + 2 = 11
    barbarians(t, {(2, 0): 1})
    knight(t, 0, side(t, (2, 0), 0))
    knight(t, 0, side(t, (2, 0), 1))
    t.script("lossdie", 3)
    events = t.when(EndTurn(seat=0))
    assert isinstance(events[-1], GameFinished)
    assert events[-1].winner == 0


def test_seats_two_to_four() -> None:
    for seats in (2, 3, 4):
        new_game("g", seats, b"s", modules=[SPEC])


@pytest.mark.parametrize("seat", [0, 1])
def test_barbarian_attack_knight_move_prompt_lists_only_legal_commands(seat: int) -> None:
    t = table()
    in_main(t, seat)
    knight(t, seat, side(t, (1, 0), 0))
    t.give(seat, grain=1, ore=4)
    ext(t).gold[seat] = 2
    options = pending(t.state)[0].options
    assert BeginMarch(seat=seat) in options
    assert not any(isinstance(o, MarchKnight) for o in options)  # only once the march begins
    for o in options:
        decide(t.state, o, t.dealer)  # every option is accepted
    t.when(BeginMarch(seat=seat))
    t.rejects(BeginMarch(seat=seat), "barbarian_attack.knight.move")
    options = pending(t.state)[0].options
    assert {type(o) for o in options} == {MarchKnight, EndTurn}
    for o in options:
        decide(t.state, o, t.dealer)


def test_barbarian_attack_battle_prisoners_throw_offs_are_even_and_finite_for_search() -> None:
    t = table()
    barbarians(t, {(2, 0): 1})
    knight(t, 0, side(t, (2, 0), 0))
    knight(t, 1, side(t, (2, 0), 1))
    knight(t, 2, side(t, (2, 0), 4))
    won: Counter[tuple[int, ...]] = Counter()
    outcomes = chance_outcomes(t.state, EndTurn(seat=0))
    assert sum(p for p, _ in outcomes) == 1
    for p, events in outcomes:
        fought = battles(events)[0]
        won[fought.prisoners] += p  # type: ignore[assignment]
    assert won == {(1, 0, 0): Fraction(1, 3), (0, 1, 0): Fraction(1, 3), (0, 0, 1): Fraction(1, 3)}
