"""The Pirate Islands (docs/rules/pirate-islands.md §11): a test per rule clause, named after its
rule id, on the scenario's fixed map with scripted chance.

After the Table's default set-up with 4 seats, seat 0 holds its slot settlement
(3,5)/(3,6)/(4,5) beside the fleet's loop hex 13 (3,5) and another at (2,6)/(2,7)/(3,6) beside
loop hex 0 (2,6), where the fleet starts; seat 1's slot settlement is beside loop hex 9 (5,1),
seat 2's beside 8 and 12, seat 3's beside 10. Hands are empty and seat 0 is to roll.
"""

from __future__ import annotations

from collections import Counter

import pytest
from pirate_helpers import PIRATES, pirate, places, sail, sail_to_fortress, table

from events.commands import (
    BuildCity,
    BuildRoad,
    BuildSettlement,
    BuyDevelopmentCard,
    DiscardResources,
    EndTurn,
    PlaceSettlement,
    PlayKnight,
    PlayRoadBuilding,
    RollDice,
)
from events.events import (
    CardStolen,
    DiceRolled,
    DiscardRequired,
    GameFinished,
    LongestRoadChanged,
    ModuleSpec,
    ResourcesProduced,
    TurnEnded,
)
from events.pieces import PieceRemoved
from events.pirate_islands import (
    AttackFortress,
    BuildShip,
    ChooseFleetReward,
    ChooseGold,
    CommissionWarship,
    FleetAttacked,
    FleetLooted,
    FleetMoved,
    FleetRemoved,
    FleetRewardDue,
    FortressAttacked,
    FortressCaptured,
    GoldDue,
    MoveShip,
    SevenStealChosen,
    ShipBuilt,
    StealOnSeven,
)
from events.types import DEV_INDEX
from services.rules.engine import MODULES, RulesetError, new_game, pending, score, total_vp, view
from services.rules.engine.base.roads import distance_ok
from services.rules.engine.scenarios.pirate_islands.common import (
    FORTRESS,
    GOLD,
    REWARD,
    STEAL,
    open_end,
)
from services.rules.engine.scenarios.pirate_islands.common import places as board_places
from services.rules.engine.scenarios.pirate_islands.ships import ship_edges
from services.rules.engine.state import MAIN, ROAD_BUILDING, SETUP
from services.rules.engine.testing import Table

VP = DEV_INDEX["victory_point"]


def fleet_at(t: Table, index: int) -> None:
    pirate(t).fleet = index


# --- §11.2 the map --------------------------------------------------------------------------


def test_pirate_islands_board_map() -> None:
    a = new_game("a", 4, b"one", modules=[PIRATES])
    b = new_game("b", 4, b"two", modules=[PIRATES])
    assert a.map == "pirate_islands"
    land = [t for t in a.tiles if t.terrain != "sea"]
    special = a.setup["terrain:gold"]
    terrains = Counter(str(t.terrain) for t in land) + Counter({"gold": len(special) // 3})
    assert terrains == {"forest": 5, "hills": 5, "fields": 5, "pasture": 5, "mountains": 5,
                        "desert": 3, "gold": 2}
    tokens = sorted([t.number for t in land if t.number] + special[2::3])
    assert tokens == [2, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 8, 8, 8, 9, 9, 9, 10, 10, 10, 11, 11, 12]
    # Only the harbor kinds are shuffled, onto the printed places.
    assert a.tiles == b.tiles
    assert [(h.sea, h.land) for h in a.harbors] == [(h.sea, h.land) for h in b.harbors]
    assert sorted(h.kind for h in a.harbors) == sorted(h.kind for h in b.harbors) == [
        "3:1", "3:1", "3:1", "brick", "grain", "lumber", "ore", "wool"]
    kinds = {tuple(h.kind for h in new_game("g", 4, bytes([i]), modules=[PIRATES]).harbors)
             for i in range(1, 6)}
    assert len(kinds) > 1
    assert a.robber is None  # there is no robber
    with pytest.raises(RulesetError, match="pirate_islands.board.map"):
        new_game("c", 4, b"one", modules=[PIRATES], map="base")


def test_pirate_islands_board_map_lanes_pass_the_site_and_never_meet() -> None:
    t = table()
    pl = board_places(t.state.board)
    for i, sp in enumerate(pl.slots):
        start = open_end(t.state, i) if i < t.state.n else None
        assert start is not None
        assert sp.distance[start] == 8  # 9 ships from the slot settlement to the fortress
        assert sp.distance[sp.site] == 3
        for j, other in enumerate(pl.slots):
            if j != i:
                assert not sp.lanes & other.lanes


# --- §11.3 set-up ---------------------------------------------------------------------------


def test_pirate_islands_setup_preplaced() -> None:
    for seats in (3, 4):
        created = new_game("g", seats, b"s", modules=[PIRATES])
        from services.rules.engine import initial_state

        state = initial_state(created)
        pl = board_places(state.board)
        for seat in range(seats):
            p = state.players[seat]
            assert p.settlements == {pl.slots[seat].home}
            assert p.pieces["ship"] == {pl.slots[seat].first_ship}
            assert not any(p.hand)
        if seats == 3:  # slot 3 is not used
            assert state.vertex_owner[pl.slots[3].home] == -1


def test_pirate_islands_setup_main_island() -> None:
    t = Table(seats=4, modules=[PIRATES], setup=False)
    assert t.state.phase == SETUP
    site = places(t, 0).site
    t.rejects(PlaceSettlement(seat=0, vertex=site), "pirate_islands.setup.main_island")
    pl = board_places(t.state.board)
    options = pending(t.state)[0].options
    assert options
    for o in options:
        assert isinstance(o, PlaceSettlement)
        assert any(h in pl.main_hexes for h in t.state.board.topo.vertex_land_hexes[o.vertex])


# --- §11.4 ships ----------------------------------------------------------------------------


def test_pirate_islands_ship_cost() -> None:
    t = table()
    t.turn_of(0)
    edge = ship_edges(t.state, 0)[0]
    t.give(0, lumber=1)
    t.rejects(BuildShip(seat=0, edge=edge), "pirate_islands.ship.cost")
    t.give(0, wool=1)
    t.when(BuildShip(seat=0, edge=edge))
    assert t.hand(0) == {}
    assert edge in t.state.players[0].pieces["ship"]
    assert pirate(t).routes[0][-1] == edge


def test_pirate_islands_ship_limit() -> None:
    t = table()
    t.turn_of(0)
    t.state.players[0].pieces["ship"].update(range(10_000, 10_014))  # 15 ships in play
    t.give(0, lumber=1, wool=1)
    t.rejects(BuildShip(seat=0, edge=ship_edges(t.state, 0)[0]), "pirate_islands.ship.limit")


def test_pirate_islands_ship_lane() -> None:
    t = table()
    t.turn_of(0)
    t.give(0, lumber=1, wool=1)
    other = next(iter(places(t, 1).lanes))
    t.rejects(BuildShip(seat=0, edge=other), "pirate_islands.ship.lane")
    off_lane = t.state.board.parse_edge("(2,7)/(3,7)")  # open sea, no lane
    t.rejects(BuildShip(seat=0, edge=off_lane), "pirate_islands.ship.lane")


def test_pirate_islands_ship_route_end() -> None:
    t = table()
    t.turn_of(0)
    t.give(0, lumber=1, wool=1)
    end = open_end(t.state, 0)
    ev = t.state.board.topo.edge_vertices
    far = next(e for e in places(t, 0).lanes if end not in ev[e] and t.state.edge_owner[e] < 0)
    t.rejects(BuildShip(seat=0, edge=far), "pirate_islands.ship.route_end")


def test_pirate_islands_ship_shortest() -> None:
    """Somewhere along the route a lane leaves the open end sideways or back: refused."""
    t = table()
    t.turn_of(0)
    sp = places(t, 0)
    topo = t.state.board.topo
    for _ in range(8):
        end = open_end(t.state, 0)
        astray = [e for e in topo.vertex_edges[end] if e in sp.lanes and t.state.edge_owner[e] < 0
                  and e not in ship_edges(t.state, 0)]
        if astray:
            t.give(0, lumber=1, wool=1)
            t.rejects(BuildShip(seat=0, edge=astray[0]), "pirate_islands.ship.shortest")
            return
        sail(t, 0, 1)
    raise AssertionError("no lane ever leaves the shortest way")


def test_pirate_islands_ship_fortress_end() -> None:
    t = table()
    t.turn_of(0)
    sail_to_fortress(t, 0)
    assert len(pirate(t).routes[0]) == 9
    assert ship_edges(t.state, 0) == []
    t.give(0, lumber=1, wool=1)
    free_lane = next(e for e in places(t, 0).lanes if t.state.edge_owner[e] < 0)
    t.rejects(BuildShip(seat=0, edge=free_lane), "pirate_islands.ship.fortress_end")


def test_pirate_islands_ship_move() -> None:
    t = table()
    t.turn_of(0)
    # Find a route position where the front ship has another shortest place.
    for _ in range(8):
        front = sail(t, 0, 1)[0]
        t.state.players[0].hand[:] = [0] * 5
        targets = [o for o in pending(t.state)[0].options if isinstance(o, MoveShip)]
        if targets:
            break
    else:
        raise AssertionError("no ship ever had a second place")
    move = targets[0]
    assert move.ship == front
    assert move.to != front
    rear = pirate(t).routes[0][0]
    t.rejects(MoveShip(seat=0, ship=rear, to=move.to), "pirate_islands.ship.move")
    t.when(move)
    assert pirate(t).routes[0][-1] == move.to
    assert move.to in t.state.players[0].roads
    assert front not in t.state.players[0].roads
    t.rejects(MoveShip(seat=0, ship=move.to, to=front), "pirate_islands.ship.move")  # once a turn
    # A ship built this turn does not move.
    pirate(t).moved = False
    t.give(0, lumber=1, wool=1)
    t.when(BuildShip(seat=0, edge=ship_edges(t.state, 0)[0]))
    assert not [o for o in pending(t.state)[0].options if isinstance(o, MoveShip)]


def test_pirate_islands_ship_road_building() -> None:
    t = table()
    t.turn_of(0)
    t.give_dev(0, "road_building")
    t.when(PlayRoadBuilding(seat=0))
    assert t.state.phase == ROAD_BUILDING
    options = pending(t.state)[0].options
    assert any(isinstance(o, BuildShip) for o in options)
    assert any(isinstance(o, BuildRoad) for o in options)
    edge = ship_edges(t.state, 0)[0]
    events = t.when(BuildShip(seat=0, edge=edge))
    assert events == [ShipBuilt(seat=0, edge=edge, free=True)]
    t.when(BuildShip(seat=0, edge=ship_edges(t.state, 0)[0]))
    assert t.state.phase == MAIN
    assert len(pirate(t).routes[0]) == 3


def test_pirate_islands_road_main_island() -> None:
    t = table()
    t.turn_of(1)
    t.give(1, lumber=2, brick=2)
    b = t.state.board
    lane_on_coast = b.parse_edge("(5,0)/(6,0)")  # seat 1's lane, beside its slot settlement
    assert lane_on_coast in places(t, 1).lanes
    t.rejects(BuildRoad(seat=1, edge=lane_on_coast), "pirate_islands.road.main_island")
    # A building on a pirate island carries no road there.
    t.place(0, b.parse_vertex("(-1,6)/(0,5)/(0,6)"))
    t.turn_of(0)
    t.give(0, lumber=1, brick=1)
    t.rejects(BuildRoad(seat=0, edge=b.parse_edge("(-1,6)/(0,6)")), "pirate_islands.road.main_island")


def test_pirate_islands_road_ship_join() -> None:
    """A ship on the coast (not at a building) does not carry a road on."""
    t = table()
    t.turn_of(0)
    b = t.state.board
    coast = b.parse_edge("(7,0)/(8,0)")  # a sea edge of the main island's east coast
    t.piece(0, "ship", coast)
    topo = b.topo
    road = next(e for v in topo.edge_vertices[coast] for e in topo.vertex_edges[v]
                if e != coast and topo.edge_is_land[e] and t.state.edge_owner[e] < 0
                and not any(t.state.vertex_owner[w] >= 0 for w in topo.edge_vertices[e]))
    t.give(0, lumber=1, brick=1)
    t.rejects(BuildRoad(seat=0, edge=road), "pirate_islands.road.ship_join")


# --- §11.5 settlements on pirate islands ----------------------------------------------------


def test_pirate_islands_settlement_site() -> None:
    t = table()
    t.turn_of(0)
    site = places(t, 0).site
    t.give(0, lumber=2, brick=2, wool=2, grain=2)
    t.rejects(BuildSettlement(seat=0, vertex=site), "base.build.settlement_connect")
    sail(t, 0, 5)
    assert open_end(t.state, 0) == site
    # Other vertices of the pirate island the route touches are not buildable.
    topo = t.state.board.topo
    pl = board_places(t.state.board)
    elsewhere = [v for e in pirate(t).routes[0] for v in topo.edge_vertices[e]
                 if v != site and topo.vertex_is_land[v] and distance_ok(t.state, v)
                 and not any(h in pl.main_hexes for h in topo.vertex_land_hexes[v])]
    assert elsewhere
    t.rejects(BuildSettlement(seat=0, vertex=elsewhere[0]), "pirate_islands.settlement.site")
    t.when(BuildSettlement(seat=0, vertex=site))
    assert site in t.state.players[0].settlements
    t.give(0, ore=3, grain=2)
    t.when(BuildCity(seat=0, vertex=site))  # it may become a city
    # Another seat's marked site is never theirs to build.
    t.turn_of(1)
    t.give(1, lumber=1, brick=1, wool=1, grain=1)
    t.state.players[1].roads.add(next(iter(places(t, 2).lanes)))
    t.rejects(BuildSettlement(seat=1, vertex=places(t, 2).site), "pirate_islands.settlement.site")


# --- §11.6 gold -----------------------------------------------------------------------------


def test_pirate_islands_production_gold() -> None:
    t = table()
    b = t.state.board
    gold = b.parse_hex("(2,0)")  # gold 11, beside seat 1's fortress
    v = places(t, 1).fortress
    assert v in b.topo.hex_vertices[gold]
    t.place(1, v, city=True)
    fleet_at(t, 1)
    t.turn_of(0, rolled=False)
    t.script("dice", (5, 6))
    events = t.when(RollDice(seat=0))
    assert GoldDue(counts=(0, 2, 0, 0)) in events
    assert t.state.phase == GOLD
    prompt = pending(t.state)[0]
    assert prompt.seat == 1
    assert all(sum(o.resources.values()) == 2 for o in prompt.options if isinstance(o, ChooseGold))
    t.rejects(ChooseGold(seat=1, resources={"ore": 1}), "pirate_islands.production.gold")
    t.when(ChooseGold(seat=1, resources={"ore": 1, "wool": 1}))
    assert t.hand(1) == {"ore": 1, "wool": 1}
    assert t.state.phase == MAIN


# --- §11.7 the fleet ------------------------------------------------------------------------


def test_pirate_islands_fleet_move() -> None:
    t = table()
    t.turn_of(0, rolled=False)
    t.script("dice", (4, 2))
    events = t.when(RollDice(seat=0))
    assert isinstance(events[0], DiceRolled)
    assert isinstance(events[1], FleetMoved)
    assert events[1].steps == 2
    assert events[1].index == 2
    t.when(EndTurn(seat=0))
    t.script("dice", (6, 6))
    events = t.when(RollDice(seat=1))
    assert isinstance(events[1], FleetMoved)
    assert events[1].index == (2 + 6) % 14


def test_pirate_islands_fleet_attack() -> None:
    """Both seats beside the hex are attacked, the roller first, then in seat order."""
    t = table(seats=3)
    fleet_at(t, 7)
    t.turn_of(2, rolled=False)
    t.give(1, ore=1)
    t.give(2, ore=1)
    t.script("dice", (2, 4))
    events = t.when(RollDice(seat=2))
    attacked = [e for e in events if isinstance(e, FleetAttacked)]
    assert [e.seat for e in attacked] == [2, 1]
    assert all(e.strength == 2 and e.warships == 0 and e.result == "loss" for e in attacked)
    t.turn_of(1, rolled=False)
    fleet_at(t, 7)
    t.script("dice", (2, 4))
    events = t.when(RollDice(seat=1))
    assert [e.seat for e in events if isinstance(e, FleetAttacked)] == [1, 2]


def test_pirate_islands_fleet_loss() -> None:
    t = table()
    t.place(0, t.state.board.parse_vertex("(4,5)/(4,6)/(5,5)"), city=False)
    t.state.players[0].cities.add(next(iter(t.state.players[0].settlements - {places(t, 0).home})))
    t.give(0, ore=3, wool=1)
    fleet_at(t, 11)
    t.turn_of(0, rolled=False)
    t.script("dice", (2, 6))  # to loop hex 13, beside seat 0's slot settlement; 8 pays it nothing
    t.script("fleetloss", "ore", "wool")
    events = t.when(RollDice(seat=0))
    looted = next(e for e in events if isinstance(e, FleetLooted))
    assert looted.seat == 0
    assert looted.count == 2
    assert looted.resources == {"ore": 1, "wool": 1}
    hand = t.state.players[0].hand
    assert hand[4] == 2
    assert hand[2] == 0
    # Everyone else sees how many, not which.
    from services.rules.engine import redact

    assert redact(t.state, looted, 1).resources is None
    assert redact(t.state, looted, None).resources is None
    assert redact(t.state, looted, 0).resources == {"ore": 1, "wool": 1}
    # A seat holding fewer cards loses them all.
    t2 = table()
    t2.give(0, grain=1)
    t2.state.players[0].cities.add(next(iter(t2.state.players[0].settlements - {places(t2, 0).home})))
    fleet_at(t2, 11)
    t2.turn_of(0, rolled=False)
    t2.script("dice", (2, 6))
    events = t2.when(RollDice(seat=0))
    assert next(e for e in events if isinstance(e, FleetLooted)).count == 1
    assert t2.state.players[0].hand[3] == 0


def test_pirate_islands_fleet_reward() -> None:
    t = table()
    pirate(t).warships[0] = 1
    sail(t, 0, 1)
    pirate(t).warships[0] = 2
    fleet_at(t, 12)
    t.turn_of(0, rolled=False)
    t.script("dice", (1, 4))  # strength 1 against 2 warships, to loop hex 13
    events = t.when(RollDice(seat=0))
    assert FleetAttacked(seat=0, strength=1, warships=2, result="reward") in events
    assert isinstance(events[-1], FleetRewardDue)
    assert not any(isinstance(e, ResourcesProduced) for e in events)  # production waits
    assert t.state.phase == REWARD
    events = t.when(ChooseFleetReward(seat=0, resource="ore"))
    assert t.state.players[0].hand[4] >= 1
    assert t.state.phase == MAIN
    # Equal strength: nothing happens.
    t.when(EndTurn(seat=0))
    t.turn_of(0, rolled=False)
    fleet_at(t, 11)
    t.script("dice", (2, 2))
    events = t.when(RollDice(seat=0))
    assert FleetAttacked(seat=0, strength=2, warships=2, result="tie") in events
    assert not any(isinstance(e, FleetLooted | FleetRewardDue) for e in events)


def test_pirate_islands_fleet_removed() -> None:
    t = table(seats=3)
    t.turn_of(0)
    pirate(t).strength[1] = 0
    pirate(t).strength[2] = 0
    pirate(t).strength[0] = 1
    sail_to_fortress(t, 0)
    pirate(t).warships[0] = 7
    events = t.when(AttackFortress(seat=0, fortress=places(t, 0).fortress))
    assert FleetRemoved() in events
    assert pirate(t).fleet == -1
    t.turn_of(1, rolled=False)
    events = t.when(RollDice(seat=1))
    assert not any(isinstance(e, FleetMoved | FleetAttacked) for e in events)


# --- §11.8 warships -------------------------------------------------------------------------


def test_pirate_islands_warship_convert() -> None:
    t = table()
    t.turn_of(0, rolled=False)
    t.give_dev(0, "knight")
    assert CommissionWarship(seat=0, card="knight") in pending(t.state)[0].options
    assert not any(isinstance(o, PlayKnight) for o in pending(t.state)[0].options)
    t.rejects(PlayKnight(seat=0), "pirate_islands.warship.convert")
    t.when(CommissionWarship(seat=0, card="knight"))
    assert pirate(t).warships[0] == 1
    assert t.state.dev_played
    assert t.state.players[0].dev[0] == 0
    # With 4 seats a VP card is a knight too (but only one card per turn).
    sail(t, 0, 1)
    t.give_dev(0, "victory_point")
    t.rejects(CommissionWarship(seat=0, card="victory_point"), "base.dev.one_per_turn")
    t.state.dev_played = False
    t.when(CommissionWarship(seat=0, card="victory_point"))
    assert pirate(t).warships[0] == 2
    # With 3 seats only a Knight makes a warship.
    t3 = table(seats=3)
    t3.turn_of(0)
    t3.state.players[0].dev[VP] += 1
    t3.rejects(CommissionWarship(seat=0, card="victory_point"), "pirate_islands.warship.convert")


def test_pirate_islands_warship_needs_ship() -> None:
    t = table()
    t.turn_of(0)
    pirate(t).warships[0] = 1  # the only ship is a warship
    t.give_dev(0, "knight")
    t.rejects(CommissionWarship(seat=0), "pirate_islands.warship.needs_ship")
    assert not any(isinstance(o, CommissionWarship) for o in pending(t.state)[0].options)


def test_pirate_islands_warship_convert_lost_ships_keep_the_rear_warships() -> None:
    t = table()
    t.turn_of(0)
    sail_to_fortress(t, 0)
    pirate(t).warships[0] = 9
    t.script("fortress", 6)
    pirate(t).warships[0] = 9
    route = pirate(t).routes[0][:]
    t.apply(PieceRemoved(seat=0, kind="ship", site=route[-1]))
    assert pirate(t).warships[0] == 8 == len(pirate(t).routes[0])


# --- §11.9 the 7 ----------------------------------------------------------------------------


def test_pirate_islands_seven_order() -> None:
    t = table()
    t.give(0, ore=4, wool=4, grain=1)
    fleet_at(t, 11)
    t.turn_of(0, rolled=False)
    t.script("dice", (2, 5), )
    t.script("fleetloss", "grain")
    events = t.when(RollDice(seat=0))
    kinds = [type(e) for e in events]
    assert kinds == [DiceRolled, FleetMoved, FleetAttacked, FleetLooted, DiscardRequired]
    assert t.state.players[0].cards == 8
    t.when(DiscardResources(seat=0, resources={"ore": 2, "wool": 2}))
    assert t.state.phase == STEAL
    assert t.state.robber == -1


def test_pirate_islands_seven_steal() -> None:
    t = table()
    t.give(2, brick=1)
    t.turn_of(0, rolled=False)
    fleet_at(t, 1)
    t.script("dice", (3, 4))
    t.when(RollDice(seat=0))
    assert t.state.phase == STEAL
    options = pending(t.state)[0].options
    assert options == [StealOnSeven(seat=0), StealOnSeven(seat=0, victim=2)]
    t.rejects(StealOnSeven(seat=0, victim=1), "pirate_islands.seven.steal")
    events = t.when(StealOnSeven(seat=0, victim=2))
    assert events[0] == SevenStealChosen(seat=0, victim=2)
    assert isinstance(events[1], CardStolen)
    assert events[1].resource == "brick"
    assert t.hand(0) == {"brick": 1}
    assert t.state.phase == MAIN
    # Drawing from no one is allowed.
    t.when(EndTurn(seat=0))
    t.turn_of(0, rolled=False)
    t.script("dice", (3, 4))
    t.when(RollDice(seat=0))
    t.when(StealOnSeven(seat=0))
    assert t.state.phase == MAIN
    assert t.hand(0) == {"brick": 1}


# --- §11.10 the fortress --------------------------------------------------------------------


def test_pirate_islands_fortress_own_only() -> None:
    t = table()
    t.turn_of(0)
    sail_to_fortress(t, 0)
    t.rejects(AttackFortress(seat=0, fortress=places(t, 1).fortress),
              "pirate_islands.fortress.own_only")


def test_pirate_islands_fortress_connected() -> None:
    t = table()
    t.turn_of(0)
    sail(t, 0, 7)
    attack = AttackFortress(seat=0, fortress=places(t, 0).fortress)
    t.rejects(attack, "pirate_islands.fortress.connected")
    assert attack not in pending(t.state)[0].options
    sail(t, 0, 1)
    assert attack in pending(t.state)[0].options
    # A failed attack loses the front: the route must reach the fortress again.
    t.script("fortress", 6)
    t.when(attack)
    t.turn_of(0)
    t.rejects(attack, "pirate_islands.fortress.connected")


@pytest.mark.parametrize(("warships", "die", "result", "strength", "ships"), [
    (4, 3, "hit", 2, 9), (4, 4, "tie", 3, 8), (4, 5, "repelled", 3, 7), (0, 1, "repelled", 3, 7),
])
def test_pirate_islands_fortress_roll(
    warships: int, die: int, result: str, strength: int, ships: int
) -> None:
    t = table()
    t.turn_of(0)
    sail_to_fortress(t, 0)
    pirate(t).warships[0] = warships
    front = pirate(t).routes[0][::-1][:2]
    t.script("fortress", die)
    events = t.when(AttackFortress(seat=0, fortress=places(t, 0).fortress))
    attacked = events[0]
    assert isinstance(attacked, FortressAttacked)
    assert (attacked.roll, attacked.result, attacked.strength) == (die, result, strength)
    assert pirate(t).strength[0] == strength
    assert len(pirate(t).routes[0]) == ships
    lost = [e.site for e in events if isinstance(e, PieceRemoved)]
    assert lost == front[: 9 - ships]  # the front ships, nearest the fortress first
    assert pirate(t).warships[0] == min(warships, ships)


def test_pirate_islands_fortress_ends_turn() -> None:
    t = table()
    t.turn_of(0)
    sail_to_fortress(t, 0)
    pirate(t).warships[0] = 5
    t.script("fortress", 1)
    events = t.when(AttackFortress(seat=0, fortress=places(t, 0).fortress))
    assert TurnEnded(seat=0, next=1) in events
    assert t.state.current == 1


def test_pirate_islands_fortress_captured() -> None:
    t = table()
    t.turn_of(0)
    sail_to_fortress(t, 0)
    pirate(t).warships[0] = 5
    pirate(t).strength[0] = 1
    before = total_vp(t.state, 0)
    t.script("fortress", 2)
    events = t.when(AttackFortress(seat=0, fortress=places(t, 0).fortress))
    fortress = places(t, 0).fortress
    assert FortressCaptured(seat=0, vertex=fortress) in events
    assert t.state.vertex_owner[fortress] == 0
    assert fortress in t.state.players[0].pieces[FORTRESS]
    assert total_vp(t.state, 0) == before + 1
    assert FleetRemoved() not in events  # the other fortresses stand
    # It produces like a settlement: the gold field (-1,6) on 3.
    t.turn_of(1, rolled=False)
    fleet_at(t, 1)
    t.script("dice", (1, 2))
    events = t.when(RollDice(seat=1))
    assert GoldDue(counts=(1, 0, 0, 0)) in events


# --- §11.11 development cards ---------------------------------------------------------------


def test_pirate_islands_dev_deck() -> None:
    t3 = table(seats=3)
    assert sum(t3.state.deck) == 20
    assert t3.state.deck[VP] == 0
    t4 = table(seats=4)
    assert sum(t4.state.deck) == 25
    assert t4.state.deck[VP] == 5
    before = total_vp(t4.state, 0)
    t4.give_dev(0, "victory_point")
    assert total_vp(t4.state, 0) == before  # a knight, not a point
    assert score(t4.state)[0] == before


def test_pirate_islands_dev_no_reshuffle() -> None:
    t = table(seats=3)
    t.turn_of(0)
    t.state.deck[:] = [0] * len(t.state.deck)
    t.give(0, wool=1, grain=1, ore=1)
    t.rejects(BuyDevelopmentCard(seat=0), "base.dev.empty_deck")
    assert not any(isinstance(o, BuyDevelopmentCard) for o in pending(t.state)[0].options)


# --- §11.12 victory -------------------------------------------------------------------------


def _rich(t: Table, seat: int, vp: int) -> None:
    """Cities on the seat's settlements, then VP cards to reach `vp` (3 seats: plain VP)."""
    p = t.state.players[seat]
    for v in list(p.settlements):
        p.settlements.discard(v)
        p.cities.add(v)
        t.state.vertex_level[v] = 2
    missing = vp - total_vp(t.state, seat)
    p.dev[VP] += missing
    assert total_vp(t.state, seat) == vp


def test_pirate_islands_win_fortress() -> None:
    t = table(seats=3)
    t.turn_of(0)
    _rich(t, 0, 11)
    t.give(0, ore=3, grain=2)
    t.give(0, lumber=1, brick=1)
    events = t.when(BuildRoad(seat=0, edge=next(
        o.edge for o in pending(t.state)[0].options if isinstance(o, BuildRoad))))
    assert not any(isinstance(e, GameFinished) for e in events)  # 11 VP but no fortress
    assert not t.state.finished
    sail_to_fortress(t, 0)
    pirate(t).warships[0] = 7
    pirate(t).strength[0] = 1
    t.script("fortress", 1)
    events = t.when(AttackFortress(seat=0, fortress=places(t, 0).fortress))
    assert isinstance(events[-1], GameFinished)
    assert events[-1].winner == 0
    assert not any(isinstance(e, TurnEnded) for e in events)


def test_pirate_islands_win_target() -> None:
    t = table(seats=3)
    t.turn_of(0)
    _rich(t, 0, 8)  # + the fortress = 9
    sail_to_fortress(t, 0)
    pirate(t).warships[0] = 7
    pirate(t).strength[0] = 1
    t.script("fortress", 1)
    events = t.when(AttackFortress(seat=0, fortress=places(t, 0).fortress))
    assert not any(isinstance(e, GameFinished) for e in events)
    # 10 VP on the seat's own turn wins.
    t.turn_of(0)
    t.state.players[0].dev[VP] += 1
    t.give(0, lumber=1, wool=1)
    t.give(0, lumber=1, brick=1)
    events = t.when(BuildRoad(seat=0, edge=next(
        o.edge for o in pending(t.state)[0].options if isinstance(o, BuildRoad))))
    assert isinstance(events[-1], GameFinished)
    assert events[-1].winner == 0
    # With Harbormaster the target is 11.
    th = table(seats=3, modules=(ModuleSpec(name="harbormaster"),))
    th.turn_of(0)
    _rich(th, 0, 9)
    sail_to_fortress(th, 0)
    pirate(th).warships[0] = 7
    pirate(th).strength[0] = 1
    th.script("fortress", 1)
    events = th.when(AttackFortress(seat=0, fortress=places(th, 0).fortress))
    assert total_vp(th.state, 0) == 10
    assert not any(isinstance(e, GameFinished) for e in events)
    assert view(th.state, 0).vp_target == 11


def test_pirate_islands_awards_none() -> None:
    t = table(seats=3)
    t.turn_of(0)
    t.give(0, lumber=10, brick=10)
    events = []
    for _ in range(6):
        roads = [o for o in pending(t.state)[0].options if isinstance(o, BuildRoad)]
        if not roads:
            break
        events += t.when(roads[0])
    assert t.state.players[0].road_length >= 5
    assert not any(isinstance(e, LongestRoadChanged) for e in events)
    assert t.state.longest_holder == -1
    assert t.state.army_holder == -1
    assert view(t.state, 0).longest_road is None


def test_pirate_islands_module_facts() -> None:
    module = MODULES["pirate-islands"]
    assert module.kind == "scenario"
    assert module.seats == (3, 4)
    with pytest.raises(RulesetError):
        new_game("g", 2, b"s", modules=[PIRATES])
