"""The Rivers of Catan (docs/rules/rivers.md §7): one test per rule clause, named after its
rule id, on the map's fixed layout with scripted chance."""

from __future__ import annotations

from collections import Counter

import pytest
from rivers_helpers import (
    BRIDGE_SITE,
    DRY_EDGE,
    DRY_VERTEX,
    NEAR_SITE,
    RIVER_PATH,
    RIVER_VERTEX,
    RIVERS,
    gold,
    paid_up,
    table,
)

from events.commands import (
    AcceptTrade,
    BuildCity,
    BuildRoad,
    BuildSettlement,
    ConfirmTrade,
    CounterTrade,
    DiscardResources,
    EndTurn,
    MoveRobber,
    PlaceRoad,
    PlaceSettlement,
    PlayMonopoly,
    PlayRoadBuilding,
    ProposeTrade,
    RejectTrade,
    RollDice,
)
from events.events import (
    CardStolen,
    DiscardRequired,
    GameFinished,
    LongestRoadChanged,
    ModuleSpec,
    ResourcesProduced,
    TradeAnswered,
    TradeCompleted,
    TradeProposed,
)
from events.rivers import (
    BridgeBuilt,
    BuildBridge,
    BuyWithGold,
    GoldEarned,
    GoldSpent,
    ResourcesSoldForGold,
    SellForGold,
)
from services.rules.engine import new_game, pending, public_vp, view
from services.rules.engine.base.setup import legal_setup_edges
from services.rules.engine.board import Board
from services.rules.engine.geometry import format_hex
from services.rules.engine.scenarios.rivers.common import RIVER_HEXES, places
from services.rules.engine.state import NO_ONE, ROAD_BUILDING, SETUP

RIVER_TERRAIN = {(1, -1): "mountains", (0, 0): "hills", (-1, 1): "pasture", (-2, 2): "swamp",
                 (1, 0): "mountains", (0, 1): "hills", (0, 2): "swamp"}
FREE_TERRAIN = Counter(forest=4, fields=4, hills=1, mountains=1, pasture=2)


def board_of(seed: bytes) -> Board:
    from services.rules.engine import initial_state

    return initial_state(new_game("g", 4, seed, modules=[RIVERS])).board


def land(b: Board) -> dict[tuple[int, int], tuple[str, tuple[int, ...]]]:
    return {b.topo.hexes[h]: (b.hex_terrain[h], b.hex_numbers[h]) for h in b.topo.land_hexes}


# --- 7.2 the board ----------------------------------------------------------------------------


def test_rivers_board_layout_keeps_the_rivers_and_shuffles_the_twelve_others() -> None:
    layouts = set()
    for i in range(12):
        hexes = land(board_of(f"layout-{i}".encode()))
        assert len(hexes) == 19
        for h, terrain in RIVER_TERRAIN.items():
            assert hexes[h][0] == terrain
        free = Counter(t for h, (t, _) in hexes.items() if h not in RIVER_HEXES)
        assert free == FREE_TERRAIN
        assert "desert" not in {t for t, _ in hexes.values()}
        layouts.add(tuple(sorted((h, t) for h, (t, _) in hexes.items())))
    assert len(layouts) > 1


def test_rivers_board_tokens_skip_the_swamps_and_the_2_joins_the_12() -> None:
    for i in range(12):
        hexes = land(board_of(f"tokens-{i}".encode()))
        numbers = sorted(n for _, ns in hexes.values() for n in ns)
        assert numbers == sorted([2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12])
        assert all(ns == () for t, ns in hexes.values() if t == "swamp")
        assert [ns for ns in hexes.values() if 12 in ns[1]] == [
            next(v for v in hexes.values() if 2 in v[1])]
        assert next(ns for _, ns in hexes.values() if 12 in ns) == (12, 2)
        producing = [h for h, (t, ns) in hexes.items() if ns]
        assert len(producing) == 17


def test_rivers_board_tokens_a_2_produces_on_the_12s_hex_and_a_swamp_never() -> None:
    t = table()
    mountains12 = t.vertex("(2,-1)/(2,0)/(3,-1)")
    t.place(1, mountains12)
    swamp = t.vertex("(-2,2)/(-1,2)/(-2,3)")
    t.place(2, swamp)
    t.state.phase, t.state.rolled = "roll", False
    t.script("dice", (1, 1))
    events = t.when(RollDice(seat=0))
    produced = next(e for e in events if isinstance(e, ResourcesProduced))
    assert produced.gains[1] == {"ore": 1}  # the 12's mountains produce on the 2
    assert produced.gains[2] == {}  # the swamp and the 10 fields: nothing on a 2


def test_rivers_robber_swamp_start() -> None:
    t = table()
    assert t.state.board.topo.hexes[t.state.robber] == (-2, 2)
    assert t.state.board.hex_terrain[t.state.robber] == "swamp"
    c = new_game("g", 4, b"any seed", modules=[RIVERS])
    assert c.robber == (-2, 2)


# --- 7.3 bridge sites and bridges ---------------------------------------------------------------


def test_rivers_road_bridge_site_no_road_on_a_bridge_site() -> None:
    t = table()
    t.place(0, t.vertex(NEAR_SITE))
    t.give(0, lumber=1, brick=1)
    t.rejects(BuildRoad(seat=0, edge=t.edge(BRIDGE_SITE)), "rivers.road.bridge_site")
    options = pending(t.state)[0].options
    assert BuildRoad(seat=0, edge=t.edge(BRIDGE_SITE)) not in options


def test_rivers_road_bridge_site_not_even_in_setup() -> None:
    t = table(setup=False)
    t.state.phase = SETUP
    seat = t.state.current
    t.when(PlaceSettlement(seat=seat, vertex=t.vertex(NEAR_SITE)))
    t.rejects(PlaceRoad(seat=seat, edge=t.edge(BRIDGE_SITE)), "rivers.road.bridge_site")
    assert t.edge(BRIDGE_SITE) not in legal_setup_edges(t.state)
    assert all(o.edge != t.edge(BRIDGE_SITE) for o in pending(t.state)[0].options)  # type: ignore[attr-defined]


def test_rivers_road_bridge_site_every_land_vertex_keeps_a_setup_road() -> None:
    t = table()
    topo = t.state.board.topo
    sites = places(t.state).bridge_sites
    for v in topo.land_vertices:
        assert any(topo.edge_is_land[e] and e not in sites for e in topo.vertex_edges[v])


def test_rivers_bridge_site_a_bridge_only_on_a_bridge_site() -> None:
    t = table()
    t.place(0, t.vertex(RIVER_VERTEX))
    t.give(0, lumber=1, brick=2)
    t.rejects(BuildBridge(seat=0, edge=t.edge(RIVER_PATH)), "rivers.bridge.site")
    assert len(places(t.state).bridge_sites) == 7
    names = {t.state.board.edge_name(e) for e in places(t.state).bridge_sites}
    assert names == {"(0,0)/(1,-1)", "(-1,1)/(0,0)", "(-2,2)/(-1,1)", "(-3,3)/(-2,2)",
                     "(0,1)/(1,0)", "(0,1)/(0,2)", "(0,2)/(0,3)"}


def test_rivers_bridge_cost_one_lumber_two_brick() -> None:
    t = table()
    t.place(0, t.vertex(NEAR_SITE))
    paid_up(t)
    t.give(0, lumber=1, brick=1)
    t.rejects(BuildBridge(seat=0, edge=t.edge(BRIDGE_SITE)), "rivers.bridge.cost")
    t.give(0, brick=1, wool=1)
    bank = t.state.bank[:]
    t.when(BuildBridge(seat=0, edge=t.edge(BRIDGE_SITE)))
    assert t.hand(0) == {"wool": 1}
    assert t.state.bank[0] == bank[0] + 1
    assert t.state.bank[1] == bank[1] + 2


def test_rivers_bridge_connect_to_a_building_or_a_road_not_through_an_opponent() -> None:
    t = table()
    t.give(0, lumber=3, brick=6)
    t.rejects(BuildBridge(seat=0, edge=t.edge(BRIDGE_SITE)), "rivers.bridge.connect")
    # Through an opponent's settlement: refused.
    t.road(0, t.edge("(1,-1)/(1,0)"))
    t.place(1, t.vertex(NEAR_SITE))
    paid_up(t)
    t.rejects(BuildBridge(seat=0, edge=t.edge(BRIDGE_SITE)), "rivers.bridge.connect")
    # To an own road: fine.
    t.road(0, t.edge("(0,-1)/(1,-1)"))
    paid_up(t)
    events = t.when(BuildBridge(seat=0, edge=t.edge(BRIDGE_SITE)))
    assert isinstance(events[0], BridgeBuilt)
    # To an own settlement (the mouth of river B).
    t.place(0, t.vertex("(0,2)/(0,3)/(1,2)"))
    paid_up(t)
    t.when(BuildBridge(seat=0, edge=t.edge("(0,2)/(0,3)")))


def test_rivers_bridge_limit_three_per_player() -> None:
    t = table()
    t.give(0, lumber=4, brick=8)
    ends = {"(0,0)/(1,-1)": "(0,0)/(1,-1)/(1,0)", "(-1,1)/(0,0)": "(-1,1)/(0,0)/(0,1)",
            "(0,1)/(1,0)": "(0,1)/(1,0)/(1,1)", "(0,2)/(0,3)": "(0,2)/(0,3)/(1,2)"}
    for v in ends.values():
        t.state.vertex_owner[t.vertex(v)] = 0
        t.state.players[0].settlements.add(t.vertex(v))
    paid_up(t)
    for e in list(ends)[:3]:
        t.when(BuildBridge(seat=0, edge=t.edge(e)))
    assert view(t.state, 0).players[0].pieces_left["bridge"] == 0
    t.rejects(BuildBridge(seat=0, edge=t.edge("(0,2)/(0,3)")), "rivers.bridge.limit")
    assert not any(isinstance(o, BuildBridge) for o in pending(t.state)[0].options)


def test_rivers_bridge_not_free_road_building_builds_no_bridge() -> None:
    t = table()
    t.place(0, t.vertex(NEAR_SITE))
    paid_up(t)
    t.give_dev(0, "road_building")
    t.when(PlayRoadBuilding(seat=0))
    assert t.state.phase == ROAD_BUILDING
    t.give(0, lumber=1, brick=2)
    t.rejects(BuildBridge(seat=0, edge=t.edge(BRIDGE_SITE)), "rivers.bridge.not_free")
    t.rejects(BuildRoad(seat=0, edge=t.edge(BRIDGE_SITE)), "rivers.road.bridge_site")
    options = pending(t.state)[0].options
    assert all(not isinstance(o, BuildBridge) for o in options)
    assert all(getattr(o, "edge", None) != t.edge(BRIDGE_SITE) for o in options)


def test_rivers_bridge_route_a_bridge_is_a_road_for_connection_longest_road_and_blocking() -> None:
    t = table()
    t.place(0, t.vertex("(0,-1)/(1,-2)/(1,-1)"))
    for e in ("(0,-1)/(1,-2)", "(0,-1)/(1,-1)"):
        t.road(0, t.edge(e))
    paid_up(t)
    t.give(0, lumber=2, brick=3)
    t.when(BuildBridge(seat=0, edge=t.edge(BRIDGE_SITE)))  # across river A, on from the road
    # A road beyond the bridge connects through it.
    t.when(BuildRoad(seat=0, edge=t.edge("(1,-1)/(1,0)")))
    assert t.state.players[0].road_length == 4
    # Longest Road: five pieces, the bridge among them.
    t.give(0, lumber=1, brick=1)
    events = t.when(BuildRoad(seat=0, edge=t.edge("(1,0)/(2,-1)")))
    assert any(isinstance(e, LongestRoadChanged) and e.holder == 0 and e.length == 5 for e in events)
    # Blocking: nobody else builds on it.
    t.place(1, t.vertex("(0,0)/(1,-1)/(0,-1)"))
    t.turn_of(1)
    t.give(1, lumber=1, brick=2)
    t.rejects(BuildBridge(seat=1, edge=t.edge(BRIDGE_SITE)), "base.build.occupied")


# --- 7.4 gold ---------------------------------------------------------------------------------


def earned(events: list, reason: str) -> list[GoldEarned]:  # type: ignore[type-arg]
    return [e for e in events if isinstance(e, GoldEarned) and e.reason == reason]


def test_rivers_gold_road_on_a_river_path_earns_1() -> None:
    t = table()
    t.place(0, t.vertex(RIVER_VERTEX))
    paid_up(t)
    t.give(0, lumber=2, brick=2)
    events = t.when(BuildRoad(seat=0, edge=t.edge(RIVER_PATH)))
    assert [(e.seat, e.gold) for e in earned(events, "road")] == [(0, 1)]
    events = t.when(BuildRoad(seat=0, edge=t.edge("(0,-1)/(1,-2)")))  # no side of a river hex
    assert earned(events, "road") == []
    assert gold(t).gold[0] == 1


def test_rivers_gold_road_in_setup_and_from_road_building() -> None:
    t = table(setup=False)
    t.state.phase = SETUP
    seat = t.state.current
    t.when(PlaceSettlement(seat=seat, vertex=t.vertex(DRY_VERTEX)))
    events = t.when(PlaceRoad(seat=seat, edge=t.edge(DRY_EDGE)))
    assert earned(events, "road") == []
    t2 = table()
    t2.place(0, t2.vertex(RIVER_VERTEX))
    paid_up(t2)
    t2.give_dev(0, "road_building")
    t2.when(PlayRoadBuilding(seat=0))
    events = t2.when(BuildRoad(seat=0, edge=t2.edge(RIVER_PATH)))
    assert [e.gold for e in earned(events, "road")] == [1]


def test_rivers_gold_settlement_on_a_river_vertex_in_setup_and_after_not_for_a_city() -> None:
    t = table(setup=False)
    t.state.phase = SETUP
    seat = t.state.current
    events = t.when(PlaceSettlement(seat=seat, vertex=t.vertex(RIVER_VERTEX)))
    assert [(e.seat, e.gold) for e in earned(events, "settlement")] == [(seat, 1)]
    events = t.when(PlaceRoad(seat=seat, edge=t.edge(RIVER_PATH)))
    assert [e.gold for e in earned(events, "road")] == [1]
    assert gold(t).gold[seat] == 2
    # After set-up: a settlement by a river earns 1, one away from the rivers nothing.
    t2 = table()
    t2.road(0, t2.edge(RIVER_PATH))
    t2.road(0, t2.edge("(0,-1)/(1,-2)"))
    paid_up(t2)
    t2.give(0, lumber=2, brick=2, wool=2, grain=4, ore=3)
    events = t2.when(BuildSettlement(seat=0, vertex=t2.vertex(RIVER_VERTEX)))
    assert [e.gold for e in earned(events, "settlement")] == [1]
    events = t2.when(BuildCity(seat=0, vertex=t2.vertex(RIVER_VERTEX)))
    assert not any(isinstance(e, GoldEarned) for e in events)
    events = t2.when(BuildSettlement(seat=0, vertex=t2.vertex("(0,-2)/(0,-1)/(1,-2)")))
    assert not any(isinstance(e, GoldEarned) for e in events)


def test_rivers_gold_bridge_earns_3() -> None:
    t = table()
    t.place(0, t.vertex(NEAR_SITE))
    paid_up(t)
    t.give(0, lumber=1, brick=2)
    events = t.when(BuildBridge(seat=0, edge=t.edge(BRIDGE_SITE)))
    assert [(e.seat, e.gold, e.place) for e in earned(events, "bridge")] == [(0, 3, t.edge(BRIDGE_SITE))]
    assert not earned(events, "road")
    assert gold(t).gold == [3, 0, 0]


def test_rivers_gold_buy_two_gold_a_resource_twice_a_turn_while_the_bank_has_it() -> None:
    t = table()
    gold(t).gold[0] = 7
    t.when(BuyWithGold(seat=0, resource="ore"))
    assert t.hand(0) == {"ore": 1}
    assert gold(t).gold[0] == 5
    t.set_bank(wool=0)
    t.rejects(BuyWithGold(seat=0, resource="wool"), "rivers.gold.buy")
    assert BuyWithGold(seat=0, resource="wool") not in pending(t.state)[0].options
    t.when(BuyWithGold(seat=0, resource="grain"))
    t.rejects(BuyWithGold(seat=0, resource="ore"), "rivers.gold.buy")  # a third purchase
    assert not any(isinstance(o, BuyWithGold) for o in pending(t.state)[0].options)
    t.when(EndTurn(seat=0))
    t.turn_of(0)
    t.when(BuyWithGold(seat=0, resource="ore"))  # a new turn, new purchases
    gold(t).gold[0] = 1
    t.rejects(BuyWithGold(seat=0, resource="ore"), "rivers.gold.buy")
    t.turn_of(1)
    t.rejects(BuyWithGold(seat=0, resource="ore"), "base.turn.not_your_turn")


def test_rivers_gold_buy_with_gold_just_received() -> None:
    t = table()
    gold(t).gold[0] = 1
    t.give(0, ore=4)
    t.when(SellForGold(seat=0, resource="ore"))
    events = t.when(BuyWithGold(seat=0, resource="brick"))
    assert isinstance(events[0], GoldSpent)
    assert gold(t).gold[0] == 0
    assert t.hand(0) == {"brick": 1}


def test_rivers_gold_sell_at_4_3_or_2_by_harbor() -> None:
    t = table()
    t.give(0, ore=3)
    t.rejects(SellForGold(seat=0, resource="ore"), "rivers.gold.sell")
    t.give(0, ore=1)
    events = t.when(SellForGold(seat=0, resource="ore"))
    assert isinstance(events[0], ResourcesSoldForGold)
    assert events[0].count == 4
    assert gold(t).gold[0] == 1
    assert t.hand(0) == {}
    board = t.state.board
    generic = next(v for v, k in enumerate(board.vertex_harbor) if k == "3:1")
    wool = next(v for v, k in enumerate(board.vertex_harbor) if k == "wool")
    t.place(0, generic)
    t.give(0, grain=3)
    t.when(SellForGold(seat=0, resource="grain"))
    assert gold(t).gold[0] == 2
    assert t.hand(0) == {}
    t.place(0, wool)
    t.give(0, wool=2)
    assert SellForGold(seat=0, resource="wool") in pending(t.state)[0].options
    t.when(SellForGold(seat=0, resource="wool"))
    assert gold(t).gold[0] == 3
    assert t.hand(0) == {}


def test_rivers_gold_not_resource_never_stolen_discarded_counted_or_monopolised() -> None:
    t = table()
    gold(t).gold[:] = [0, 9, 0]
    t.place(1, t.vertex("(0,-1)/(0,-2)/(-1,-1)"))  # on the 5 forest (0,-2)
    t.give(1, ore=8)
    t.state.phase, t.state.rolled = "roll", False
    t.script("dice", (3, 4))
    events = t.when(RollDice(seat=0))
    required = next(e for e in events if isinstance(e, DiscardRequired))
    assert required.counts[1] == 4  # 8 cards: the 9 gold are not counted
    t.when(DiscardResources(seat=1, resources={"ore": 4}))
    t.script("steal", "ore")
    events = t.when(MoveRobber(seat=0, hex=t.hex("(0,-2)"), victim=1))
    assert any(isinstance(e, CardStolen) for e in events)
    assert gold(t).gold == [0, 9, 0]
    t.give_dev(0, "monopoly")
    t.when(PlayMonopoly(seat=0, resource="ore"))
    assert gold(t).gold == [0, 9, 0]
    # A hand of gold only: the robber finds nothing to steal.
    t.take_all(1)
    t.turn_of(2)
    t.state.phase = "robber"
    events = t.when(MoveRobber(seat=2, hex=t.hex("(-1,-1)"), victim=1))
    assert not any(isinstance(e, CardStolen) and e.resource is not None for e in events)
    assert gold(t).gold == [0, 9, 0]
    assert t.hand(1) == {}


# --- 7.5 the Settlers -------------------------------------------------------------------------


def test_rivers_wealthiest_sole_leader_holds_plus_1_and_a_tie_nobody() -> None:
    t = table()  # an empty board: the Settlers are all the VP there are
    gold(t).gold[:] = [5, 3, 3]
    assert [public_vp(t.state, s) for s in range(3)] == [1, -2, -2]
    assert view(t.state, None).ext["rivers"]["wealthiest"] == 0
    gold(t).gold[:] = [5, 5, 3]
    assert [public_vp(t.state, s) for s in range(3)] == [0, 0, -2]
    assert view(t.state, 2).ext["rivers"]["wealthiest"] is None


def test_rivers_poor_minimum_every_player_tied_for_least_everybody_when_all_equal() -> None:
    t = table(seats=4)  # an empty board, nobody has gold: everybody is poor
    assert [public_vp(t.state, s) for s in range(4)] == [-2, -2, -2, -2]
    assert view(t.state, 1).ext["rivers"]["poor"] == [0, 1, 2, 3]
    gold(t).gold[:] = [2, 1, 1, 4]
    assert view(t.state, 1).ext["rivers"]["poor"] == [1, 2]
    vps = [view(t.state, None).players[s].public_vp for s in range(4)]
    assert vps == [0, -2, -2, 1]


def test_rivers_poor_minimum_everybody_poor_at_the_start() -> None:
    t = table(setup=True)  # set-up by defaults; gold as earned
    g = gold(t).gold
    for s in range(3):
        poor = s in [i for i, x in enumerate(g) if x == min(g)]
        rich = g.count(max(g)) == 1 and g[s] == max(g)
        p = t.state.players[s]
        assert public_vp(t.state, s) == len(p.settlements) + 2 * len(p.cities) + rich - 2 * poor


# --- 7.6 victory ------------------------------------------------------------------------------


def _near_win(t, vp: int) -> None:  # type: ignore[no-untyped-def]
    """Seat 0 at `vp` points from settlements and cities (no gold bonus)."""
    vertices = [t.vertex(v) for v in ("(-1,-1)/(-1,0)/(0,-1)", "(1,-2)/(2,-2)/(2,-3)",
                                      "(-2,0)/(-2,1)/(-3,1)", "(2,0)/(2,1)/(3,0)",
                                      "(-1,2)/(-1,3)/(0,2)")]
    for i, v in enumerate(vertices[: (vp + 1) // 2]):
        t.place(0, v, city=i < vp // 2 and 2 * (i + 1) <= vp)
    paid_up(t)


def test_rivers_win_target_10_counting_the_wealthiest() -> None:
    t = table()
    _near_win(t, 9)
    gold(t).gold[:] = [1, 1, 1]  # everybody poor: 9 - 2
    assert public_vp(t.state, 0) == 7
    t.give(0, ore=4)
    events = t.when(SellForGold(seat=0, resource="ore"))  # 2 gold: sole leader, +1, no penalty
    assert isinstance(events[-1], GameFinished)
    assert events[-1].winner == 0
    assert public_vp(t.state, 0) == 10


def test_rivers_win_target_11_with_harbormaster() -> None:
    t = table(modules=[ModuleSpec(name="harbormaster")])
    assert t.state.rules.hooks.win_target(t.state, 0) == 11
    _near_win(t, 9)
    gold(t).gold[:] = [1, 1, 1]
    t.give(0, ore=4)
    events = t.when(SellForGold(seat=0, resource="ore"))
    assert not any(isinstance(e, GameFinished) for e in events)


@pytest.mark.parametrize("seed", [b"a", b"b", b"c"])
def test_rivers_board_layout_names_river_hexes(seed: bytes) -> None:
    b = board_of(seed)
    assert {format_hex(h) for h in RIVER_HEXES} <= {b.hex_name(i) for i in b.topo.land_hexes}
    assert NO_ONE == -1


# --- gold between players ---------------------------------------------------------------------


def test_rivers_gold_domestic_gold_for_cards_in_the_base_offer() -> None:
    """Gold is the game's currency: an offer names it like a resource (one trade for all)."""
    t = table()
    gold(t).gold[:] = [5, 0, 1]
    t.give(1, ore=2)
    events = t.when(ProposeTrade(seat=0, give={"gold": 3}, get={"ore": 2}, to=(1,)))
    assert events == [TradeProposed(seat=0, give={"gold": 3}, get={"ore": 2}, to=(1,))]
    assert t.state.phase == "trade"
    answer = next(p for p in pending(t.state) if p.seat == 1)
    assert AcceptTrade(seat=1) in answer.options
    assert view(t.state, 2).trade.give == {"gold": 3}
    t.rejects(AcceptTrade(seat=2), "base.trade.not_addressed")
    t.when(AcceptTrade(seat=1))
    events = t.when(ConfirmTrade(seat=0, partner=1))
    assert events[0] == TradeCompleted(seat=0, partner=1, give={"gold": 3}, get={"ore": 2})
    assert gold(t).gold == [2, 3, 1]
    assert t.hand(0) == {"ore": 2}
    assert t.hand(1) == {}
    assert t.state.phase == "main"
    # The Settlers follow: 2, 3, 1 -> seat 1 is the wealthiest, seat 2 poor.
    assert [public_vp(t.state, s) for s in range(3)] == [0, 1, -2]


def test_rivers_gold_domestic_refusals_cite_the_gold_rule_and_a_counter_may_name_gold() -> None:
    t = table()
    gold(t).gold[:] = [0, 4, 0]
    t.give(0, wool=1)
    t.rejects(ProposeTrade(seat=0, give={"gold": 1}, get={"ore": 1}), "rivers.gold.domestic")
    t.rejects(ProposeTrade(seat=0, give={"wool": 1}, get={"ore": 1, "gold": 1}, to=(9,)),
              "base.trade.active_only")
    gold(t).gold[0] = 1
    t.rejects(ProposeTrade(seat=0, give={"gold": 1, "wool": 1}, get={"gold": 1}),
              "rivers.gold.domestic")  # gold on both sides
    t.rejects(ProposeTrade(seat=0, give={"wool": 1}, get={"gold": -1}), "base.command.invalid")
    t.rejects(AcceptTrade(seat=1), "base.trade.none_open")
    gold(t).gold[0] = 0
    t.when(ProposeTrade(seat=0, give={"wool": 1}, get={"gold": 5}))
    answer = next(p for p in pending(t.state) if p.seat == 1)
    assert AcceptTrade(seat=1) not in answer.options  # seat 1 holds 4 gold
    t.rejects(AcceptTrade(seat=1), "rivers.gold.domestic")
    events = t.when(CounterTrade(seat=1, give={"gold": 4}, get={"wool": 1}))
    assert events == [TradeAnswered(seat=1, answer="counter", give={"gold": 4}, get={"wool": 1})]
    t.when(RejectTrade(seat=2))
    t.when(ConfirmTrade(seat=0, partner=1))
    assert gold(t).gold == [4, 0, 0]
    assert t.hand(1) == {"wool": 1}
    assert t.state.phase == "main"
