"""Development cards (docs/rules/base.md §1.4, §1.8): buying a secret card from the deck of 25, one card
played per turn and never in the turn it was bought, Knight, Road Building, Year of Plenty,
Monopoly; victory point cards are never played and count hidden."""

from __future__ import annotations

from engine_helpers import SE, SIDE_E, SIDE_NE, SIDE_SE, N, corner, side

from events.commands import (
    BuildRoad,
    BuyDevelopmentCard,
    EndTurn,
    MoveRobber,
    PlayKnight,
    PlayMonopoly,
    PlayRoadBuilding,
    PlayYearOfPlenty,
    RollDice,
    StopRoadBuilding,
)
from events.events import (
    DevelopmentCardBought,
    MonopolyPlayed,
    RoadBuildingPlayed,
    RoadBuilt,
    YearOfPlentyPlayed,
)
from events.types import DEV_CARDS, RESOURCE_INDEX
from services.rules.engine import pending, public_vp, score
from services.rules.engine.state import MAIN, ROAD_BUILDING
from services.rules.engine.testing import Table

DEV_PRICE = {"ore": 1, "wool": 1, "grain": 1}


def rolled(t: Table) -> Table:
    t.script("dice", (1, 1))
    t.when(RollDice(seat=t.state.current))
    return t


def next_turn_of(t: Table, seat: int) -> None:
    """Play quiet turns (roll 2, end) until it is `seat`'s turn, before its roll."""
    while True:
        if t.state.rolled:
            t.when(EndTurn(seat=t.state.current))
        if t.state.current == seat:
            return
        rolled(t)


def test_the_deck_holds_25_cards_14_knights_5_vp_2_road_building_2_plenty_2_monopoly() -> None:
    t = Table()
    assert dict(zip(DEV_CARDS, t.state.deck, strict=True)) == {
        "knight": 14, "victory_point": 5, "road_building": 2, "year_of_plenty": 2, "monopoly": 2,
    }  # fmt: skip


def test_rejects_base_dev_cost_without_ore_wool_and_grain_and_buys_from_the_deck() -> None:
    t = rolled(Table())
    t.give(0, ore=1, wool=1)
    t.rejects(BuyDevelopmentCard(seat=0), "base.dev.cost")
    t.give(0, grain=1)
    t.script("devcard", "monopoly")
    events = t.when(BuyDevelopmentCard(seat=0))
    assert events == [DevelopmentCardBought(seat=0, card="monopoly", n=0)]
    assert t.state.deck == [14, 5, 2, 2, 1]
    assert t.state.players[0].dev == [0, 0, 0, 0, 1]
    assert (t.hand(0), sum(t.state.bank)) == ({}, 95)


def test_rejects_base_dev_empty_deck_once_all_25_cards_are_out() -> None:
    t = rolled(Table())
    for card, n in zip(DEV_CARDS, [14, 5, 2, 2, 2], strict=True):
        for _ in range(n if card != "knight" else n - 1):
            t.give_dev(3, card)
    t.give(0, ore=2, wool=2, grain=2)
    events = t.when(BuyDevelopmentCard(seat=0))  # the last card can only be the last knight
    assert events == [DevelopmentCardBought(seat=0, card="knight", n=0)]
    assert sum(t.state.deck) == 0
    t.rejects(BuyDevelopmentCard(seat=0), "base.dev.empty_deck")


def test_rejects_base_dev_not_held_for_a_card_the_seat_does_not_hold() -> None:
    t = rolled(Table())
    t.rejects(PlayMonopoly(seat=0, resource="ore"), "base.dev.not_held")
    t.rejects(PlayYearOfPlenty(seat=0, resources=("ore", "ore")), "base.dev.not_held")
    t.rejects(PlayRoadBuilding(seat=0), "base.dev.not_held")
    t.rejects(PlayKnight(seat=0), "base.dev.not_held")
    t.give_dev(0, "monopoly")
    t.when(PlayMonopoly(seat=0, resource="ore"))


def test_rejects_base_dev_bought_this_turn_until_the_seats_next_turn() -> None:
    t = rolled(Table())
    t.give(0, ore=1, wool=1, grain=1)
    t.script("devcard", "knight")
    t.when(BuyDevelopmentCard(seat=0))
    t.rejects(PlayKnight(seat=0), "base.dev.bought_this_turn")
    assert not any(isinstance(o, PlayKnight) for o in pending(t.state)[0].options)
    next_turn_of(t, 0)
    t.when(PlayKnight(seat=0))


def test_an_older_card_of_the_same_kind_may_be_played_in_the_turn_another_is_bought() -> None:
    t = rolled(Table())
    t.give_dev(0, "knight")
    t.give(0, ore=1, wool=1, grain=1)
    t.script("devcard", "knight")
    t.when(BuyDevelopmentCard(seat=0))
    t.when(PlayKnight(seat=0))
    assert t.state.players[0].dev[0] == 1  # the new one stays in hand


def test_rejects_base_dev_one_per_turn_for_a_second_card_in_the_same_turn() -> None:
    t = Table()
    t.give_dev(0, "knight")
    t.give_dev(0, "knight")
    t.give_dev(0, "year_of_plenty")
    t.when(PlayKnight(seat=0))  # before the roll
    t.when(MoveRobber(seat=0, hex=t.hex("(2,-2)")))
    rolled(t)
    t.rejects(PlayKnight(seat=0), "base.dev.one_per_turn")
    t.rejects(PlayYearOfPlenty(seat=0, resources=("ore", "wool")), "base.dev.one_per_turn")
    next_turn_of(t, 0)
    rolled(t)
    t.when(PlayYearOfPlenty(seat=0, resources=("ore", "wool")))
    t.rejects(PlayKnight(seat=0), "base.dev.one_per_turn")


def test_rejects_base_dev_bank_short_for_plenty_the_bank_does_not_have() -> None:
    t = rolled(Table())
    t.give_dev(0, "year_of_plenty")
    t.give(3, ore=18)  # the bank keeps one ore
    t.rejects(PlayYearOfPlenty(seat=0, resources=("ore", "ore")), "base.dev.bank_short")
    events = t.when(PlayYearOfPlenty(seat=0, resources=("ore", "grain")))
    assert events == [YearOfPlentyPlayed(seat=0, resources={"grain": 1, "ore": 1})]
    assert t.hand(0) == {"grain": 1, "ore": 1}
    assert t.state.bank[RESOURCE_INDEX["ore"]] == 0


def test_year_of_plenty_may_take_two_of_the_same_resource() -> None:
    t = rolled(Table())
    t.give_dev(0, "year_of_plenty")
    t.when(PlayYearOfPlenty(seat=0, resources=("brick", "brick")))
    assert t.hand(0) == {"brick": 2}


def test_monopoly_takes_every_card_of_the_named_resource_from_every_other_seat() -> None:
    t = rolled(Table())
    t.give_dev(0, "monopoly")
    t.give(0, wool=1)
    t.give(1, wool=3, ore=1)
    t.give(3, wool=2)
    events = t.when(PlayMonopoly(seat=0, resource="wool"))
    assert events == [MonopolyPlayed(seat=0, resource="wool", taken=(0, 3, 0, 2))]
    assert [t.hand(s) for s in range(4)] == [{"wool": 6}, {"ore": 1}, {}, {}]


def test_road_building_places_two_free_roads_by_the_normal_rules() -> None:
    t = rolled(Table())
    home = corner(t, (1, 0), N)
    t.place(0, home)
    t.give_dev(0, "road_building")
    events = t.when(PlayRoadBuilding(seat=0))
    assert events == [RoadBuildingPlayed(seat=0, roads=2)]
    assert t.state.phase == ROAD_BUILDING
    t.rejects(BuildRoad(seat=0, edge=side(t, (1, 0), SIDE_SE)), "base.build.road_connect")
    t.rejects(StopRoadBuilding(seat=0), "base.turn.wrong_phase")
    t.rejects(EndTurn(seat=0), "base.turn.wrong_phase")
    first = t.when(BuildRoad(seat=0, edge=side(t, (1, 0), SIDE_NE)))
    assert first == [RoadBuilt(seat=0, edge=side(t, (1, 0), SIDE_NE), free=True)]
    t.when(BuildRoad(seat=0, edge=side(t, (1, 0), SIDE_E)))
    assert t.state.phase == MAIN
    assert (t.hand(0), sum(t.state.bank)) == ({}, 95)
    assert corner(t, (1, 0), SE) in {v for e in t.state.players[0].roads
                                      for v in t.state.board.topo.edge_vertices[e]}


def test_road_building_with_one_road_piece_left_gives_one_road() -> None:
    t = rolled(Table())
    t.place(0, corner(t, (1, 0), N))
    topo = t.state.board.topo
    spare = [e for e in topo.land_edges if t.state.edge_owner[e] == -1
             and e not in topo.vertex_edges[corner(t, (1, 0), N)]]
    for e in spare[: 14 - len(t.state.players[0].roads)]:
        t.road(0, e)
    t.give_dev(0, "road_building")
    assert t.when(PlayRoadBuilding(seat=0)) == [RoadBuildingPlayed(seat=0, roads=1)]
    t.when(BuildRoad(seat=0, edge=side(t, (1, 0), SIDE_NE)))
    assert t.state.phase == MAIN
    assert len(t.state.players[0].roads) == 15


def test_road_building_stops_when_no_road_can_be_placed() -> None:
    t = rolled(Table())
    t.give_dev(0, "road_building")
    # Block every free edge around seat 0's network with seat 1's roads.
    topo = t.state.board.topo
    for v in {v for e in t.state.players[0].roads for v in topo.edge_vertices[e]}:
        for e in topo.vertex_edges[v]:
            if t.state.edge_owner[e] == -1 and topo.edge_is_land[e]:
                t.road(1, e)
    t.when(PlayRoadBuilding(seat=0))
    prompt = pending(t.state)[0]
    assert prompt.options == [StopRoadBuilding(seat=0)]
    t.when(StopRoadBuilding(seat=0))
    assert t.state.phase == MAIN


def test_a_victory_point_card_counts_hidden_and_is_never_offered_for_play() -> None:
    t = rolled(Table())
    t.give(0, ore=1, wool=1, grain=1)
    t.script("devcard", "victory_point")
    before = score(t.state)[0]
    t.when(BuyDevelopmentCard(seat=0))
    assert score(t.state)[0] == before + 1
    assert public_vp(t.state, 0) == before
    next_turn_of(t, 0)
    rolled(t)
    kinds = {type(o).__name__ for o in pending(t.state)[0].options}
    assert not kinds & {"PlayKnight", "PlayMonopoly", "PlayYearOfPlenty", "PlayRoadBuilding"}


def test_dev_card_options_follow_the_rules() -> None:
    t = Table()
    t.give_dev(0, "knight")
    t.give_dev(0, "monopoly")
    roll_options = {type(o) for o in pending(t.state)[0].options}
    assert PlayKnight in roll_options
    assert PlayMonopoly not in roll_options
    rolled(t)
    main = pending(t.state)[0].options
    assert PlayKnight(seat=0) in main
    assert {o.resource for o in main if isinstance(o, PlayMonopoly)} == set(RESOURCE_INDEX)
