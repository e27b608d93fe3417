"""Oil Springs (docs/rules/oil-springs.md §12): one test per rule clause, named after its id, on
the scenario's board with scripted chance (see oil_springs_helpers)."""

from __future__ import annotations

import pytest
from oil_springs_helpers import conserved, corner, ext, oil, table

from events.commands import (
    AcceptTrade,
    BuildCity,
    ConfirmTrade,
    CounterTrade,
    DiscardResources,
    EndTurn,
    MaritimeTrade,
    MoveRobber,
    PlayMonopoly,
    PlayYearOfPlenty,
    ProposeTrade,
    RejectTrade,
    RollDice,
)
from events.events import (
    CardStolen,
    GameFinished,
    LongestRoadChanged,
    ModuleSpec,
    MonopolyPlayed,
    ResourcesDiscarded,
    TradeCompleted,
    TurnEnded,
    YearOfPlentyPlayed,
)
from events.oil_springs import (
    BuildMetropolis,
    ChampionChanged,
    CityReduced,
    DisasterRolled,
    HexPolluted,
    IslandAbandoned,
    OilProduced,
    RefineOil,
    SequesterOil,
    SpringPolluted,
)
from events.pieces import PieceRemoved
from services.rules.engine import pending, public_vp, total_vp, view
from services.rules.engine.scenarios.oil_springs.common import springs
from services.rules.engine.state import MAIN, NO_ONE, ROBBER

# --- §12.2 the board ----------------------------------------------------------------------


def test_oil_springs_board_springs_replace_the_terrain_and_produce_only_oil() -> None:
    t = table()
    board = t.state.board
    hexes = springs(t.state)
    assert {board.hex_name(h): board.hex_numbers[h] for h in hexes} == {
        "(0,0)": (5,), "(2,-2)": (9,), "(2,-1)": (10,)}
    assert all(board.hex_resource[h] < 0 for h in hexes)  # no base resource
    t.place(1, corner(t, "(2,-1)"), city=True)
    t.turn_of(1, rolled=False)
    t.script("dice", (4, 6))
    events = t.when(RollDice(seat=1))
    assert [type(e) for e in events][-1] is OilProduced
    assert t.hand(1) == {"oil": 2}  # a city: 2 oil, nothing else


def test_oil_springs_robber_offboard_start() -> None:
    t = table()
    assert t.state.robber == NO_ONE
    t.state.phase = ROBBER
    t.state.robber_from = "seven"
    hexes = {o.hex for o in pending(t.state)[0].options if isinstance(o, MoveRobber)}
    assert hexes == set(t.state.board.topo.land_hexes)  # every hex, the springs included


# --- §12.3 producing oil ------------------------------------------------------------------


def test_oil_springs_oil_production_pays_round_robin_from_the_roller() -> None:
    t = table()
    t.place(0, corner(t, "(0,0)", k=0), city=True)  # owed 2
    t.place(1, corner(t, "(0,0)", k=2))  # owed 1
    t.place(2, corner(t, "(0,0)", k=4), city=True)  # owed 2
    t.set_bank(oil=3)
    t.turn_of(1, rolled=False)
    t.script("dice", (1, 4))
    events = t.when(RollDice(seat=1))
    # Rounds from the roller (seat 1): 1 → 1, 2 → 1, 0 → 1; the supply is empty.
    assert OilProduced(gains=(1, 1, 1, 0)) in events
    assert t.state.bank[ext(t).oil] == 0


def test_oil_springs_oil_production_metropolis_pays_3_and_the_robber_stops_a_spring() -> None:
    t = table()
    v = corner(t, "(0,0)")
    t.place(0, v, city=True)
    t.give(0, brick=1, grain=1, ore=1, oil=2)
    t.when(BuildMetropolis(seat=0, vertex=v))
    t.turn_of(0, rolled=False)
    t.script("dice", (2, 3))
    t.when(RollDice(seat=0))
    assert oil(t, 0) == 3
    t.when(EndTurn(seat=0))
    t.set_robber("(0,0)")
    t.turn_of(0, rolled=False)
    t.script("dice", (2, 3))
    assert not any(isinstance(e, OilProduced) for e in t.when(RollDice(seat=0)))


def test_oil_springs_oil_hand_limit_caps_production_and_theft() -> None:
    t = table()
    t.place(0, corner(t, "(0,0)"), city=True)
    t.give(0, oil=3)
    t.turn_of(0, rolled=False)
    t.script("dice", (1, 4))
    events = t.when(RollDice(seat=0))
    assert OilProduced(gains=(1, 0, 0, 0)) in events  # 2 owed, room for 1
    assert oil(t, 0) == 4
    t.place(1, corner(t, "(1,1)"))
    t.give(1, oil=1)
    t.state.phase = ROBBER
    t.state.robber_from = "seven"
    t.rejects(MoveRobber(seat=0, hex=t.hex("(1,1)"), victim=1, take="oil"),
              "oil_springs.oil.hand_limit")
    assert not any(isinstance(o, MoveRobber) and o.take for o in pending(t.state)[0].options)


def test_oil_springs_oil_supply_starts_with_15_and_is_conserved() -> None:
    t = table()
    assert t.state.bank[ext(t).oil] == 15
    assert conserved(t) == 15
    assert view(t.state, 2).ext["oil-springs"]["supply"] == 15


# --- §12.4 oil as a card ------------------------------------------------------------------


def test_oil_springs_oil_discard_counts_oil_and_may_discard_it() -> None:
    t = table()
    t.give(1, lumber=3, brick=3, oil=3)  # 9 cards: discard 4
    t.turn_of(0, rolled=False)
    t.script("dice", (3, 4))
    t.when(RollDice(seat=0))
    assert t.state.discards[1] == 4
    t.rejects(DiscardResources(seat=1, resources={"lumber": 1, "oil": 2}), "base.discard.count")
    t.rejects(DiscardResources(seat=1, resources={"oil": 4}), "base.discard.not_held")
    assert pending(t.state)[0].hand == {"lumber": 3, "brick": 3, "oil": 3}  # oil may go
    events = t.when(DiscardResources(seat=1, resources={"lumber": 2, "oil": 2}))
    assert events == [ResourcesDiscarded(seat=1, resources={"lumber": 2, "oil": 2})]
    assert t.hand(1) == {"lumber": 1, "brick": 3, "oil": 1}
    assert ext(t).marker == 0  # discarded oil does not move the marker
    assert t.state.phase == ROBBER


def test_oil_springs_oil_discard_default_keeps_oil() -> None:
    t = table()
    t.give(2, grain=5, oil=4)  # 9 cards: 4 to discard, all from the resources
    t.turn_of(0, rolled=False)
    t.script("dice", (3, 4))
    t.when(RollDice(seat=0))
    prompt = pending(t.state)[0]
    assert isinstance(prompt.default, DiscardResources)
    assert prompt.default.resources == {"grain": 4}
    assert prompt.hand == {"grain": 5, "oil": 4}


def test_oil_springs_oil_steal_is_the_thiefs_choice() -> None:
    t = table()
    t.place(1, corner(t, "(1,1)"))
    t.give(1, oil=2, ore=1)
    t.state.phase = ROBBER
    t.state.robber_from = "seven"
    h = t.hex("(1,1)")
    options = pending(t.state)[0].options
    assert MoveRobber(seat=0, hex=h, victim=1, take="oil") in options
    assert MoveRobber(seat=0, hex=h, victim=1) in options
    events = t.when(MoveRobber(seat=0, hex=h, victim=1, take="oil"))
    # Taken by choice, not drawn: no chance index (-1), and public like all oil held.
    assert CardStolen(thief=0, victim=1, resource="oil", n=-1) in events
    assert t.state.steals == 0
    assert oil(t, 0) == 1
    assert oil(t, 1) == 1
    assert t.state.phase == MAIN


def test_oil_springs_oil_steal_random_card_is_never_oil() -> None:
    t = table()
    t.place(1, corner(t, "(1,1)"))
    t.give(1, oil=2, ore=1)
    t.state.phase = ROBBER
    t.state.robber_from = "seven"
    events = t.when(MoveRobber(seat=0, hex=t.hex("(1,1)"), victim=1))
    stolen = [e for e in events if isinstance(e, CardStolen)]
    assert stolen[0].resource == "ore"
    assert oil(t, 1) == 2
    t.take_all(1)
    t.give(1, oil=1)
    t.state.phase = ROBBER
    t.set_robber(None)
    t.rejects(MoveRobber(seat=0, hex=t.hex("(1,1)"), victim=2, take="oil"), "base.robber.victim")
    t.when(MoveRobber(seat=0, hex=t.hex("(1,1)"), victim=1))
    assert oil(t, 1) == 1  # only oil held: the random card finds nothing


def test_oil_springs_oil_no_maritime_trade_gives_or_takes_oil() -> None:
    t = table()
    t.give(0, grain=4, oil=4)
    trades = [o for o in pending(t.state)[0].options if isinstance(o, MaritimeTrade)]
    assert trades
    assert all(o.get != "oil" and o.give != "oil" for o in trades)
    from events.codec import codec
    bad = codec().decode_command(b'{"type":"MaritimeTrade","seat":0,"give":"grain","get":"oil"}')
    assert bad == MaritimeTrade(seat=0, give="grain", get="oil")  # oil travels; the rule says no
    t.rejects(bad, "oil_springs.oil.no_maritime")
    t.rejects(MaritimeTrade(seat=0, give="oil", get="ore"), "oil_springs.oil.no_maritime")


# --- §12.5 using oil ----------------------------------------------------------------------


def test_oil_springs_use_own_turn_after_the_roll() -> None:
    t = table()
    t.give(0, oil=2)
    t.give(1, oil=2)
    t.turn_of(0, rolled=False)
    t.rejects(RefineOil(seat=0, resource="ore"), "oil_springs.use.own_turn")
    t.rejects(SequesterOil(seat=0), "oil_springs.use.own_turn")
    assert not any(isinstance(o, RefineOil | SequesterOil) for o in pending(t.state)[0].options)
    t.turn_of(0)
    t.rejects(RefineOil(seat=1, resource="ore"), "oil_springs.use.own_turn")
    t.rejects(SequesterOil(seat=1), "oil_springs.use.own_turn")


def test_oil_springs_use_refine_one_oil_into_two_cards() -> None:
    t = table()
    t.give(0, oil=1)
    t.when(RefineOil(seat=0, resource="ore"))
    assert t.hand(0) == {"ore": 2}
    assert ext(t).marker == 1
    assert t.state.bank[ext(t).oil] == 15  # oil used goes back to the supply
    t.give(0, oil=1)
    t.set_bank(wool=1)
    t.rejects(RefineOil(seat=0, resource="wool"), "oil_springs.use.refine")
    assert RefineOil(seat=0, resource="wool") not in pending(t.state)[0].options
    t.rejects(RefineOil(seat=0, resource="oil"), "oil_springs.use.refine")  # not into oil
    t.take_all(0)
    t.rejects(RefineOil(seat=0, resource="ore"), "oil_springs.use.refine")


def test_oil_springs_use_marker_cap_never_past_5() -> None:
    t = table()
    v = corner(t, "(1,1)")
    t.place(0, v, city=True)
    ext(t).marker = 4
    t.give(0, oil=3, brick=1, grain=1, ore=1)
    t.rejects(BuildMetropolis(seat=0, vertex=v), "oil_springs.use.marker_cap")
    assert not any(isinstance(o, BuildMetropolis) for o in pending(t.state)[0].options)
    t.when(RefineOil(seat=0, resource="lumber"))
    assert ext(t).marker == 5
    t.rejects(RefineOil(seat=0, resource="lumber"), "oil_springs.use.marker_cap")


def test_oil_springs_metropolis_cost_upgrades_a_city() -> None:
    t = table()
    v = corner(t, "(1,1)")
    s = corner(t, "(-2,2)")
    t.place(0, v, city=True)
    t.place(0, s)
    t.give(0, brick=1, grain=1, ore=1, oil=1)
    t.rejects(BuildMetropolis(seat=0, vertex=v), "oil_springs.metropolis.cost")  # 1 oil short
    t.give(0, oil=1)
    t.rejects(BuildMetropolis(seat=0, vertex=s), "oil_springs.metropolis.cost")  # a settlement
    assert BuildMetropolis(seat=0, vertex=v) in pending(t.state)[0].options
    t.when(BuildMetropolis(seat=0, vertex=v))
    assert t.hand(0) == {}
    assert ext(t).marker == 2
    assert ext(t).metropolises == {v: 0}
    assert t.state.bank[ext(t).oil] == 15
    t.give(0, brick=1, grain=1, ore=1, oil=2)
    t.rejects(BuildMetropolis(seat=0, vertex=v), "oil_springs.metropolis.cost")  # already one


def test_oil_springs_metropolis_limit_4_for_everyone() -> None:
    t = table(mode="wide_open")
    cities = [corner(t, h) for h in ("(1,1)", "(-2,2)", "(0,-1)", "(-1,2)", "(2,0)")]
    for seat, v in enumerate(cities[:4]):
        t.place(seat, v, city=True)
        t.turn_of(seat)
        t.give(seat, brick=1, grain=1, ore=1, oil=2)
        t.when(BuildMetropolis(seat=seat, vertex=v))
        ext(t).marker = 0
    t.place(0, cities[4], city=True)
    t.turn_of(0)
    t.give(0, brick=1, grain=1, ore=1, oil=2)
    t.rejects(BuildMetropolis(seat=0, vertex=cities[4]), "oil_springs.metropolis.limit")


def test_oil_springs_metropolis_value_3_vp_never_flooded() -> None:
    t = table()
    v = corner(t, "(2,-1)", coastal=True)
    t.place(0, v, city=True)
    assert public_vp(t.state, 0) == 2
    t.give(0, brick=1, grain=1, ore=1, oil=2)
    t.when(BuildMetropolis(seat=0, vertex=v))
    assert public_vp(t.state, 0) == 3
    assert t.state.vertex_level[v] == 3
    ext(t).marker = 5
    t.script("disaster", (3, 4))
    events = t.when(EndTurn(seat=0))
    assert not any(isinstance(e, PieceRemoved | CityReduced) for e in events)
    assert v in t.state.players[0].cities
    assert public_vp(t.state, 0) == 3
    # A city the metropolis sits on still counts as a city piece (4 per seat).
    t.turn_of(0)
    t.place(0, corner(t, "(1,1)"))
    t.give(0, ore=3, grain=2)
    t.when(BuildCity(seat=0, vertex=corner(t, "(1,1)")))


# --- §12.6 sequestering -------------------------------------------------------------------


def test_oil_springs_sequester_once_per_turn_without_moving_the_marker() -> None:
    t = table()
    t.give(0, oil=3)
    t.when(SequesterOil(seat=0))
    assert ext(t).sequestered == [1, 0, 0, 0]
    assert ext(t).marker == 0
    assert oil(t, 0) == 2
    t.rejects(SequesterOil(seat=0), "oil_springs.sequester.once_per_turn")
    assert SequesterOil(seat=0) not in pending(t.state)[0].options
    t.when(EndTurn(seat=0))
    t.turn_of(0)
    t.when(SequesterOil(seat=0))
    assert ext(t).sequestered[0] == 2
    assert conserved(t) == 15


def test_oil_springs_sequester_exclusive_with_the_starting_rules() -> None:
    t = table()
    t.give(0, oil=3)
    t.when(RefineOil(seat=0, resource="ore"))
    t.rejects(SequesterOil(seat=0), "oil_springs.sequester.exclusive")
    assert SequesterOil(seat=0) not in pending(t.state)[0].options
    t.when(EndTurn(seat=0))
    t.turn_of(0)
    t.when(SequesterOil(seat=0))
    t.rejects(RefineOil(seat=0, resource="ore"), "oil_springs.sequester.exclusive")


def test_oil_springs_sequester_exclusive_not_with_the_wide_open_rules() -> None:
    t = table(mode="wide_open")
    t.give(0, oil=3)
    t.when(RefineOil(seat=0, resource="ore"))
    t.when(SequesterOil(seat=0))
    t.when(RefineOil(seat=0, resource="ore"))
    assert ext(t).marker == 2
    assert ext(t).sequestered[0] == 1


def test_oil_springs_oil_mode_must_be_known() -> None:
    from services.rules.engine import RulesetError, new_game
    with pytest.raises(RulesetError, match="oil_mode"):
        new_game("g", 4, b"s", modules=[ModuleSpec(name="oil-springs", params={"oil_mode": "x"})])


def test_oil_springs_sequester_vp_every_3_is_1_vp() -> None:
    t = table()
    ext(t).sequestered[0] = 5
    assert public_vp(t.state, 0) == 1
    ext(t).sequestered[0] = 6
    assert public_vp(t.state, 0) == 2
    assert total_vp(t.state, 0) == 2


def test_oil_springs_champion_first_with_3() -> None:
    t = table()
    ext(t).sequestered[1] = 2
    t.give(0, oil=1)
    t.when(SequesterOil(seat=0))
    assert ext(t).champion == NO_ONE
    t.when(EndTurn(seat=0))
    t.turn_of(1)
    t.give(1, oil=1)
    events = t.when(SequesterOil(seat=1))
    assert ChampionChanged(holder=1, sequestered=3) in events
    assert public_vp(t.state, 1) == 2  # 3 sequestered: 1 VP, Champion: 1 VP


def test_oil_springs_champion_exceed_takes_it_over() -> None:
    t = table()
    ext(t).sequestered[:2] = [3, 3]
    ext(t).champion = 0
    t.turn_of(1)
    t.give(1, oil=1)
    events = t.when(SequesterOil(seat=1))
    assert ChampionChanged(holder=1, sequestered=4) in events
    t.when(EndTurn(seat=1))
    t.turn_of(0)
    t.give(0, oil=1)
    assert not any(isinstance(e, ChampionChanged) for e in t.when(SequesterOil(seat=0)))  # a tie
    assert ext(t).champion == 1


# --- §12.7 disasters ----------------------------------------------------------------------


def test_oil_springs_disaster_timing_at_the_end_of_the_turn_with_the_marker_at_5() -> None:
    t = table()
    ext(t).marker = 4
    t.give(0, oil=1)
    t.when(RefineOil(seat=0, resource="ore"))
    assert ext(t).marker == 5  # nothing yet
    t.script("disaster", (1, 1))
    events = t.when(EndTurn(seat=0))
    kinds = [type(e) for e in events]
    assert kinds.index(DisasterRolled) < kinds.index(TurnEnded)
    t.turn_of(1)
    ext(t).marker = 4
    assert not any(isinstance(e, DisasterRolled) for e in t.when(EndTurn(seat=1)))


def test_oil_springs_disaster_flood_removes_coastal_settlements_and_reduces_cities() -> None:
    t = table()
    settled = corner(t, "(-2,2)", coastal=True)
    city = corner(t, "(1,1)", coastal=True)
    inland = corner(t, "(0,-1)")
    t.place(1, settled)
    t.place(2, city, city=True)
    t.place(3, inland)
    road = t.state.board.topo.vertex_edges[settled][0]
    t.road(1, road)
    harbor = next(v for v in range(t.state.board.n_vertices)
                  if t.state.board.vertex_harbor[v] == "3:1")
    t.place(0, harbor)
    assert t.state.players[0].ratios[0] == 3
    ext(t).marker = 5
    t.script("disaster", (5, 2))
    events = t.when(EndTurn(seat=0))
    assert PieceRemoved(seat=1, kind="settlement", site=settled) in events
    assert PieceRemoved(seat=0, kind="settlement", site=harbor) in events
    assert CityReduced(seat=2, vertex=city) in events
    assert settled not in t.state.players[1].settlements
    assert t.state.players[2].settlements == {city}
    assert not t.state.players[2].cities
    assert t.state.players[3].settlements == {inland}  # inland: untouched
    assert road in t.state.players[1].roads  # roads stay
    assert t.state.players[0].ratios[0] == 4  # the harbor is lost with the settlement
    assert ext(t).marker == 0


def test_oil_springs_disaster_flood_recomputes_longest_road() -> None:
    t = table()
    board = t.state.board
    # Seat 1's trail of 5 roads along the coast of (-2,2)..., cut by seat 2's coastal settlement.
    v0 = corner(t, "(-2,2)", coastal=True, k=0)
    path = [v0]
    edges: list[int] = []
    while len(edges) < 6:
        v = path[-1]
        e = next(e for e in board.topo.vertex_edges[v]
                 if e not in edges and all(board.topo.vertex_is_coastal[u] for u in board.topo.edge_vertices[e])
                 and next(u for u in board.topo.edge_vertices[e] if u != v) not in path)
        edges.append(e)
        path.append(next(u for u in board.topo.edge_vertices[e] if u != v))
    for e in edges:
        t.road(1, e)
    t.place(2, path[3])  # cuts the trail 6 → 3
    assert t.state.players[1].road_length == 3
    ext(t).marker = 5
    t.script("disaster", (6, 1))
    events = t.when(EndTurn(seat=0))
    assert t.state.players[1].road_length == 6
    assert LongestRoadChanged(holder=1, length=6) in events
    assert events.index(LongestRoadChanged(holder=1, length=6)) < next(
        i for i, e in enumerate(events) if isinstance(e, TurnEnded))


def test_oil_springs_disaster_pollution_destroys_a_random_hex_with_that_number() -> None:
    t = table()
    h = t.hex("(-1,2)")  # fields 6 (the other 6 is (0,-1))
    v = corner(t, "(-1,2)")
    t.place(1, v)
    ext(t).marker = 5
    t.script("disaster", (3, 3)).script("pollution", h)
    events = t.when(EndTurn(seat=0))
    assert HexPolluted(hex=h, number=6, n=0) in events
    assert ext(t).destroyed == [h]
    t.turn_of(1, rolled=False)
    t.script("dice", (2, 4))
    t.when(RollDice(seat=1))
    assert t.hand(1) == {}  # the dead hex never produces
    assert view(t.state, 0).ext["oil-springs"]["destroyed"] == [h]


def test_oil_springs_disaster_pollution_with_no_hex_left_does_nothing() -> None:
    t = table()
    ext(t).destroyed.append(t.hex("(1,-2)"))  # the only 2
    ext(t).marker = 5
    t.script("disaster", (1, 1))
    events = t.when(EndTurn(seat=0))
    assert [type(e) for e in events] == [DisasterRolled, TurnEnded]


def test_oil_springs_disaster_spring_removes_3_oil_from_the_game() -> None:
    t = table()
    spring = t.hex("(0,0)")
    t.set_bank(oil=1)
    t.give(1, oil=1)
    t.give(2, oil=4)
    t.state.bank[ext(t).oil] = 1
    t.state.players[1].hand[ext(t).oil] = 1
    t.state.players[2].hand[ext(t).oil] = 4
    ext(t).removed = 15 - 6  # so that the 15 are all accounted for
    t.turn_of(2)
    ext(t).marker = 5
    t.script("disaster", (1, 4)).script("pollution", spring)
    events = t.when(EndTurn(seat=2))
    # 1 from the supply, then round-robin from the active seat (2): 2, 3 (none), 0 (none), 1.
    assert SpringPolluted(hex=spring, number=5, n=0, from_supply=1, taken=(0, 1, 1, 0)) in events
    assert ext(t).removed == 12
    assert conserved(t) == 15
    assert spring not in ext(t).destroyed  # the spring keeps producing


def test_oil_springs_disaster_reset_marker_returns_to_0() -> None:
    t = table()
    ext(t).marker = 5
    t.script("disaster", (2, 2))
    t.when(EndTurn(seat=0))
    assert ext(t).marker == 0
    assert ext(t).disasters == 1
    t.turn_of(1)
    assert not any(isinstance(e, DisasterRolled) for e in t.when(EndTurn(seat=1)))


def test_oil_springs_robber_destroyed_hex_is_closed() -> None:
    t = table()
    h = t.hex("(0,-1)")
    ext(t).destroyed.append(h)
    t.place(1, corner(t, "(0,-1)"))
    t.state.phase = ROBBER
    t.state.robber_from = "seven"
    assert all(o.hex != h for o in pending(t.state)[0].options if isinstance(o, MoveRobber))
    t.rejects(MoveRobber(seat=0, hex=h, victim=1), "oil_springs.robber.destroyed_hex")
    t.give(1, oil=1)
    t.rejects(MoveRobber(seat=0, hex=h, victim=1, take="oil"), "oil_springs.robber.destroyed_hex")


# --- §12.8 the end ------------------------------------------------------------------------


def test_oil_springs_win_target_is_12() -> None:
    t = table()
    assert t.state.rules.hooks.win_target(t.state, 0) == 12
    t2 = table(more=(ModuleSpec(name="harbormaster"),))
    assert t2.state.rules.hooks.win_target(t2.state, 0) == 13


def test_oil_springs_win_target_reached_on_own_turn() -> None:
    t = table()
    for h in ("(0,-1)", "(-1,0)", "(0,1)", "(-1,1)"):
        t.place(0, corner(t, h, coastal=False), city=True)  # 8 VP
    ext(t).sequestered[0] = 5  # 1 VP: 9
    s = corner(t, "(1,-1)", coastal=False)
    t.place(0, s)  # 10: the base target is not enough here
    t.give(0, brick=1, lumber=1)
    from events.commands import BuildRoad
    road = t.state.board.topo.vertex_edges[s][0]
    assert not any(isinstance(e, GameFinished) for e in t.when(BuildRoad(seat=0, edge=road)))
    ext(t).champion = 0  # 11
    t.give(0, oil=1)
    events = t.when(SequesterOil(seat=0))  # 6 sequestered: 2 VP, 12 in all
    assert isinstance(events[-1], GameFinished)
    assert events[-1].winner == 0


def test_oil_springs_win_target_a_metropolis_or_the_champion_can_bring_the_win() -> None:
    t = table(mode="wide_open")
    for h in ("(0,-1)", "(-1,0)", "(0,1)", "(-1,1)"):
        t.place(0, corner(t, h, coastal=False), city=True)  # 8 VP
    ext(t).sequestered[0] = 8  # 2 VP: 10
    t.place(0, corner(t, "(1,-1)", coastal=False))  # 11
    t.give(0, brick=1, grain=1, ore=1, oil=2)
    events = t.when(BuildMetropolis(seat=0, vertex=corner(t, "(0,-1)", coastal=False)))
    assert isinstance(events[-1], GameFinished)


def test_oil_springs_win_after_disaster_waits_for_it() -> None:
    t = table()
    inland = [corner(t, h, coastal=False) for h in ("(0,-1)", "(-1,0)", "(0,1)")]
    for v in inland:
        t.place(0, v, city=True)  # 6 VP
    coast = [corner(t, "(-2,2)", coastal=True, k=1), corner(t, "(1,1)", coastal=True, k=1)]
    for v in coast:
        t.place(0, v)  # 8
    ext(t).sequestered[0] = 9  # 11
    ext(t).marker = 5
    s = corner(t, "(1,-1)", coastal=False)
    t.place(0, s)
    t.give(0, ore=3, grain=2)
    events = t.when(BuildCity(seat=0, vertex=s))  # 12 VP, but a disaster is due
    assert not any(isinstance(e, GameFinished) for e in events)
    t.script("disaster", (4, 3))  # a flood takes the 2 coastal settlements: 10 VP
    events = t.when(EndTurn(seat=0))
    assert not any(isinstance(e, GameFinished) for e in events)
    assert t.state.current == 1
    # Next time the disaster spares the player: the win comes after it, before the turn passes.
    t.turn_of(0)
    t.place(0, corner(t, "(-1,2)", coastal=False))
    t.place(0, corner(t, "(0,-2)", coastal=False))
    ext(t).marker = 5
    t.script("disaster", (6, 6))
    events = t.when(EndTurn(seat=0))
    kinds = [type(e) for e in events]
    assert kinds[0] is DisasterRolled
    assert GameFinished in kinds
    assert TurnEnded not in kinds
    assert t.state.winner == 0


def test_oil_springs_end_abandoned_with_the_fifth_token() -> None:
    t = table()
    ext(t).destroyed.extend(t.hex(h) for h in ("(0,-2)", "(1,-2)", "(-1,-1)", "(0,-1)"))
    ext(t).champion = 2
    ext(t).marker = 5
    h = t.hex("(-1,2)")
    t.script("disaster", (2, 4)).script("pollution", h)
    events = t.when(EndTurn(seat=0))
    assert IslandAbandoned(champion=2) in events
    finished = events[-1]
    assert isinstance(finished, GameFinished)
    assert finished.winner is None
    assert finished.reason == "abandoned"
    assert t.state.finished
    assert t.state.winner == NO_ONE


# --- §12.4 development cards on oil ---------------------------------------------------------


def test_oil_springs_oil_year_of_plenty_may_take_oil() -> None:
    t = table()
    t.give_dev(0, "year_of_plenty")
    options = pending(t.state)[0].options
    assert PlayYearOfPlenty(seat=0, resources=("oil", "oil")) in options
    assert PlayYearOfPlenty(seat=0, resources=("oil", "ore")) in options
    t.set_bank(oil=1)
    t.rejects(PlayYearOfPlenty(seat=0, resources=("oil", "oil")), "base.dev.bank_short")
    t.set_bank(oil=15)
    events = t.when(PlayYearOfPlenty(seat=0, resources=("oil", "ore")))
    assert events == [YearOfPlentyPlayed(seat=0, resources={"oil": 1, "ore": 1})]
    assert t.hand(0) == {"ore": 1, "oil": 1}
    assert t.state.dev_played
    t.give_dev(0, "year_of_plenty")
    t.rejects(PlayYearOfPlenty(seat=0, resources=("oil", "oil")), "base.dev.one_per_turn")


def test_oil_springs_oil_year_of_plenty_oil_beyond_the_limit_is_not_taken() -> None:
    t = table()
    t.give(0, oil=3)
    t.give_dev(0, "year_of_plenty")
    assert PlayYearOfPlenty(seat=0, resources=("oil", "oil")) not in pending(t.state)[0].options
    events = t.when(PlayYearOfPlenty(seat=0, resources=("oil", "oil")))
    assert events == [YearOfPlentyPlayed(seat=0, resources={"oil": 1})]  # room for 1 only
    assert oil(t, 0) == 4
    assert conserved(t) == 15


def test_oil_springs_oil_monopoly_takes_single_tokens_round_from_the_next_seat() -> None:
    t = table()
    t.give(0, oil=1)
    t.give(1, oil=1)
    t.give(2, oil=3)
    t.give(3, oil=2)
    t.turn_of(0)
    t.give_dev(0, "monopoly")
    assert PlayMonopoly(seat=0, resource="oil") in pending(t.state)[0].options
    events = t.when(PlayMonopoly(seat=0, resource="oil"))
    # Room for 3: a token from seat 1, seat 2, seat 3, then the limit stops it.
    assert events == [MonopolyPlayed(seat=0, resource="oil", taken=(0, 1, 1, 1))]
    assert [oil(t, s) for s in range(4)] == [4, 0, 2, 1]
    t.give_dev(0, "monopoly", new=True)
    t.state.dev_played = False
    t.rejects(PlayMonopoly(seat=0, resource="oil"), "base.dev.bought_this_turn")


def test_oil_springs_oil_domestic_trade_within_the_limit() -> None:
    t = table()
    t.give(0, oil=2, wool=1)
    t.give(1, ore=2)
    t.give(2, ore=2, oil=3)
    t.rejects(ProposeTrade(seat=0, give={"oil": 3}, get={"ore": 1}), "base.trade.not_held")
    t.rejects(ProposeTrade(seat=0, give={"wool": 1}, get={"oil": 3}), "oil_springs.oil.domestic_trade")
    t.when(ProposeTrade(seat=0, give={"oil": 2}, get={"ore": 2}))
    assert view(t.state, 3).ext["oil-springs"]["trade_oil"] == {"give": 2, "get": 0}
    assert view(t.state, 3).trade.give == {"oil": 2}  # the offer's terms, oil included
    # Seat 2 would end with 5 oil: it may not accept; seat 1 may.
    options = {p.seat: p.options for p in pending(t.state)}
    assert AcceptTrade(seat=2) not in options[2]
    assert AcceptTrade(seat=1) in options[1]
    t.rejects(AcceptTrade(seat=2), "oil_springs.oil.domestic_trade")
    t.when(AcceptTrade(seat=1))
    events = t.when(ConfirmTrade(seat=0, partner=1))
    assert events == [TradeCompleted(seat=0, partner=1, give={"oil": 2}, get={"ore": 2})]
    assert t.hand(0) == {"ore": 2, "wool": 1}
    assert t.hand(1) == {"oil": 2}
    assert t.state.phase == MAIN
    assert conserved(t) == 15


def test_oil_springs_oil_domestic_trade_closed_on_a_counter_without_oil() -> None:
    t = table()
    t.give(0, oil=1, wool=1)
    t.give(1, ore=1)
    t.when(ProposeTrade(seat=0, give={"oil": 1}, get={"ore": 1}))
    t.when(CounterTrade(seat=1, give={"ore": 1}, get={"wool": 1}))
    for s in (2, 3):
        t.when(RejectTrade(seat=s))
    events = t.when(ConfirmTrade(seat=0, partner=1))
    assert [type(e).__name__ for e in events] == ["TradeCompleted"]
    assert t.hand(0) == {"oil": 1, "ore": 1}
