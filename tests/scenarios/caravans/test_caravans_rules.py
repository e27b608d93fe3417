"""One test (at least) per rule of The Caravans (docs/rules/caravans.md §8), named by its id."""

from __future__ import annotations

from caravans_kit import (
    NORTH,
    SOUTH_EAST,
    SOUTH_WEST,
    bid_all,
    lay,
    name,
    of,
    open_vote,
    start,
    table,
    x,
)

from events.caravans import (
    BidForCamel,
    CamelBidMade,
    CamelPathNamed,
    CamelPlaced,
    CamelVoteDecided,
    CamelVoteOpened,
    NameCamelPath,
)
from events.commands import (
    BuildCity,
    BuildRoad,
    BuildSettlement,
    EndTurn,
    MoveRobber,
    PlayKnight,
    RollDice,
)
from events.events import GameFinished, LongestRoadChanged, ModuleSpec, RobberMoved, TurnEnded
from services.rules.engine import new_game, pending
from services.rules.engine.base.scoring import public_vp, total_vp
from services.rules.engine.scenarios.caravans import camels
from services.rules.engine.scenarios.caravans.common import BID, CAMELS, NAME_PATH
from services.rules.engine.scenarios.caravans.view import VoteView
from services.rules.engine.state import MAIN, NO_ONE, ROBBER
from services.rules.engine.testing import Table

# --- §8.2 the board -------------------------------------------------------------------------


def test_caravans_board_oasis_on_the_centre_without_token_in_every_layout() -> None:
    for seed in (b"a", b"b", b"c", b"d"):
        created = new_game("g", 3, seed, modules=(ModuleSpec(name="caravans"),))
        assert created.map == "caravans"
        assert created.setup["terrain:oasis"] == [0, 0, 0]  # (q, r, number): centre, no token
        numbers = sorted(t.number for t in created.tiles if t.terrain != "sea")
        assert len(numbers) == 18
        assert 0 not in numbers
        assert not any(t.terrain == "desert" for t in created.tiles)


def test_caravans_board_oasis_never_produces() -> None:
    t = table()
    oasis = camels.geometry(t.state.board).oasis
    assert t.state.board.hex_resource[oasis] < 0
    assert all(oasis not in hexes for hexes in t.state.board.number_hexes.values())


# --- §8.3 the robber ------------------------------------------------------------------------


def test_caravans_robber_offboard_start_and_a_seven_brings_it_in() -> None:
    t = table()
    assert t.state.robber == NO_ONE
    t.turn_of(0, rolled=False)
    t.script("dice", (3, 4))
    t.when(RollDice(seat=0))
    assert t.state.phase == ROBBER
    target = t.hex("(1,0)")
    t.when(MoveRobber(seat=0, hex=target))
    assert t.state.robber == target


def test_caravans_robber_offboard_start_a_knight_brings_it_in_too() -> None:
    t = table()
    t.give_dev(0, "knight")
    t.turn_of(0, rolled=False)
    t.when(PlayKnight(seat=0))
    assert t.state.phase == ROBBER
    options = pending(t.state)[0].options
    assert {o.hex for o in options if isinstance(o, MoveRobber)}  # it may enter anywhere


def test_caravans_robber_not_oasis() -> None:
    t = table()
    t.give_dev(0, "knight")
    t.turn_of(0)
    t.when(PlayKnight(seat=0))
    oasis = camels.geometry(t.state.board).oasis
    assert all(o.hex != oasis for o in pending(t.state)[0].options if isinstance(o, MoveRobber))
    t.rejects(MoveRobber(seat=0, hex=oasis), "caravans.robber.not_oasis")


# --- §8.4 when a camel is placed ------------------------------------------------------------


def test_caravans_camel_trigger_a_settlement_ends_the_turn_with_a_vote() -> None:
    t = table()
    t.turn_of(0)
    t.road(0, t.edge("(-2,2)/(-1,1)"))
    t.road(0, t.edge("(-1,1)/(-1,2)"))
    t.give(0, brick=1, lumber=1, wool=1, grain=1)
    site = next(o for o in pending(t.state)[0].options if isinstance(o, BuildSettlement))
    t.when(site)
    events = t.when(EndTurn(seat=0))
    assert [type(e) for e in events] == [CamelVoteOpened]
    assert t.state.phase == BID
    assert t.state.current == 0


def test_caravans_camel_trigger_a_city_too_and_one_vote_however_many_builds() -> None:
    t = table()
    t.turn_of(0)
    mine = sorted(t.state.players[0].settlements)
    t.give(0, ore=6, grain=4)
    t.when(BuildCity(seat=0, vertex=mine[0]))
    t.when(BuildCity(seat=0, vertex=mine[1]))
    events = t.when(EndTurn(seat=0))
    assert [type(e) for e in events] == [CamelVoteOpened]
    bid_all(t, (0, 0), (0, 0), (0, 0))
    events = name(t, 0, NORTH, start(t, NORTH))
    assert len(of(events, CamelPlaced)) == 1
    assert of(events, TurnEnded)  # the vote held, the turn passes: no second vote


def test_caravans_camel_trigger_no_build_no_vote_and_setup_never_votes() -> None:
    t = table()
    assert not any(isinstance(e, CamelVoteOpened) for e in t.log)  # set-up built 6 settlements
    t.turn_of(0)
    t.give(0, brick=1, lumber=1)
    t.when(BuildRoad(seat=0, edge=t.edge("(-2,1)/(-1,1)")))  # a road is no trigger
    assert [type(e) for e in t.when(EndTurn(seat=0))] == [TurnEnded]


def test_caravans_camel_supply_no_vote_when_the_22_camels_are_out() -> None:
    t = table()
    assert CAMELS == 22
    edges = [e for e in t.state.board.topo.land_edges][:CAMELS]
    x(t).camels = {e: NORTH for e in edges}
    assert [type(e) for e in open_vote(t)] == [TurnEnded]


# --- §8.5 the vote --------------------------------------------------------------------------


def test_caravans_vote_bid_order_from_the_builder_once_each_and_public() -> None:
    t = table()
    open_vote(t, seat=1)
    assert pending(t.state)[0].seat == 1
    t.rejects(BidForCamel(seat=2), "caravans.vote.bid_order")
    t.give(1, wool=1)
    t.when(BidForCamel(seat=1, wool=1))
    t.rejects(BidForCamel(seat=1), "caravans.vote.bid_order")  # once
    assert pending(t.state)[0].seat == 2
    t.when(BidForCamel(seat=2))
    assert pending(t.state)[0].seat == 0
    t.when(BidForCamel(seat=0))
    assert t.state.phase == NAME_PATH
    from services.rules.engine.views import redact, view

    bid = CamelBidMade(seat=1, wool=1, grain=0)
    assert redact(t.state, bid, 0) == bid
    assert redact(t.state, bid, None) == bid
    assert view(t.state, None).ext["caravans"]["vote"]["votes"] == [0, 1, 0]


def test_caravans_vote_bid_cards_only_wool_and_grain_held() -> None:
    t = table()
    open_vote(t)
    t.give(0, wool=1, grain=2, ore=3)
    t.rejects(BidForCamel(seat=0, wool=2), "caravans.vote.bid_cards")
    t.rejects(BidForCamel(seat=0, grain=-1), "caravans.vote.bid_cards")
    options = pending(t.state)[0].options
    assert len(options) == 2 * 3  # 0–1 wool x 0–2 grain
    t.when(BidForCamel(seat=0, wool=1, grain=2))


def test_caravans_vote_bids_spent_every_card_bid_goes_to_the_bank() -> None:
    t = table()
    open_vote(t)
    bank = t.state.bank[:]
    bid_all(t, (1, 0), (0, 2), (1, 1))
    assert t.state.bank[2] == bank[2] + 0
    assert t.state.bank[3] == bank[3] + 0
    assert all(t.state.players[s].hand[2] == 0 and t.state.players[s].hand[3] == 0 for s in range(3))
    assert x(t).votes == [1, 2, 2]


def test_caravans_vote_majority_decides_alone() -> None:
    t = table()
    open_vote(t)
    bid_all(t, (0, 1), (3, 0), (1, 0))  # seat 1: 3 > 1 + 1
    name(t, 0, NORTH, start(t, NORTH))
    name(t, 2, NORTH, start(t, NORTH))
    events = name(t, 1, SOUTH_EAST, start(t, SOUTH_EAST))
    decided = of(events, CamelVoteDecided)[0]
    assert decided.rule == "caravans.vote.majority"
    assert decided.decider == 1
    assert of(events, CamelPlaced)[0].edge == start(t, SOUTH_EAST)


def test_caravans_vote_coalition_two_bidders_outvote_the_strongest() -> None:
    t = table(seats=4)
    open_vote(t)
    bid_all(t, (0, 0), (2, 0), (2, 0), (3, 0))  # 3 < 4: no majority; 2 + 2 on one path > 3
    name(t, 1, SOUTH_WEST, start(t, SOUTH_WEST))
    name(t, 2, SOUTH_WEST, start(t, SOUTH_WEST))
    name(t, 3, NORTH, start(t, NORTH))
    events = name(t, 0, SOUTH_EAST, start(t, SOUTH_EAST))
    decided = of(events, CamelVoteDecided)[0]
    assert decided.rule == "caravans.vote.coalition"
    assert decided.decider is None
    assert (decided.caravan, decided.edge) == (SOUTH_WEST, start(t, SOUTH_WEST))


def test_caravans_vote_plurality_the_single_top_bidder_else_the_active_player() -> None:
    t = table(seats=4)
    open_vote(t)
    bid_all(t, (0, 0), (2, 0), (1, 0), (1, 0))  # 2 < 1 + 1 + 0 fails? 2 > 2 is false
    name(t, 1, NORTH, start(t, NORTH))
    name(t, 2, SOUTH_EAST, start(t, SOUTH_EAST))
    name(t, 3, SOUTH_WEST, start(t, SOUTH_WEST))
    events = name(t, 0, SOUTH_EAST, start(t, SOUTH_EAST))
    decided = of(events, CamelVoteDecided)[0]
    assert decided.rule == "caravans.vote.plurality"
    assert decided.decider == 1
    # A tie at the top: the active player decides (and so when nobody bids).
    t2 = table(seats=3)
    open_vote(t2, seat=2)
    bid_all(t2, (0, 0), (1, 0), (0, 1))
    name(t2, 0, NORTH, start(t2, NORTH))
    name(t2, 1, SOUTH_WEST, start(t2, SOUTH_WEST))
    events = name(t2, 2, SOUTH_EAST, start(t2, SOUTH_EAST))
    decided = of(events, CamelVoteDecided)[0]
    assert decided.rule == "caravans.vote.plurality"
    assert decided.decider == 2
    assert decided.caravan == SOUTH_EAST


def test_caravans_vote_plurality_nobody_bids_the_active_player_decides() -> None:
    t = table()
    open_vote(t, seat=1)
    bid_all(t, (0, 0), (0, 0), (0, 0))
    assert [p.seat for p in pending(t.state)] == [1]  # only the active player names
    events = name(t, 1, SOUTH_WEST, start(t, SOUTH_WEST))
    assert of(events, CamelVoteDecided)[0].decider == 1


def test_caravans_vote_sealed_choices_hidden_until_all_have_named() -> None:
    from services.rules.engine.views import redact, view

    t = table()
    open_vote(t)
    bid_all(t, (1, 0), (1, 0), (0, 0))
    events = name(t, 1, SOUTH_WEST, start(t, SOUTH_WEST))
    named = of(events, CamelPathNamed)[0]
    assert redact(t.state, named, 1) == named
    for seat in (0, 2, None):
        hidden = redact(t.state, named, seat)
        assert isinstance(hidden, CamelPathNamed)
        assert hidden.edge is None
        assert hidden.caravan is None
    assert view(t.state, 1).ext["caravans"]["vote"]["mine"] == [SOUTH_WEST, start(t, SOUTH_WEST)]
    for seat in (0, 2, None):
        vote: VoteView | None = view(t.state, seat).ext["caravans"]["vote"]
        assert vote is not None
        assert vote["named"] == [1]
        assert vote["mine"] is None
        assert str(start(t, SOUTH_WEST)) not in str([c for c in vote.values() if c != vote["options"]])
    prompt = pending(t.state)[0]
    assert prompt.seat == 0
    assert all(isinstance(o, NameCamelPath) and o.seat == 0 for o in prompt.options)
    t.rejects(NameCamelPath(seat=1, caravan=NORTH, edge=start(t, NORTH)), "caravans.vote.sealed")
    t.rejects(NameCamelPath(seat=2, caravan=NORTH, edge=start(t, NORTH)), "caravans.vote.sealed")
    events = name(t, 0, NORTH, start(t, NORTH))
    decided = of(events, CamelVoteDecided)[0]  # revealed to all
    assert decided.choices[2:4] == (SOUTH_WEST, start(t, SOUTH_WEST))


# --- §8.6 placing camels --------------------------------------------------------------------


def test_caravans_camel_start_first_camels_go_on_the_arrows_start_paths() -> None:
    t = table()
    events = open_vote(t)
    opened = of(events, CamelVoteOpened)[0]
    assert list(opened.options) == [NORTH, start(t, NORTH), SOUTH_EAST, start(t, SOUTH_EAST),
                                    SOUTH_WEST, start(t, SOUTH_WEST)]
    bid_all(t, (0, 0), (0, 0), (0, 0))
    t.rejects(NameCamelPath(seat=0, caravan=NORTH, edge=t.edge("(0,-2)/(1,-2)")), "caravans.camel.start")
    events = name(t, 0, NORTH, start(t, NORTH))
    assert x(t).caravans[NORTH].head == t.vertex("(0,-1)/(1,-2)/(1,-1)")  # type: ignore[union-attr]


def test_caravans_camel_extend_only_the_free_paths_at_the_head() -> None:
    t = table()
    lay(t, NORTH, start(t, NORTH))
    events = open_vote(t)
    opened = of(events, CamelVoteOpened)[0]
    north = [opened.options[i + 1] for i in range(0, len(opened.options), 2) if opened.options[i] == NORTH]
    assert sorted(north) == sorted([t.edge("(0,-1)/(1,-2)"), t.edge("(1,-2)/(1,-1)")])
    bid_all(t, (0, 0), (0, 0), (0, 0))
    t.rejects(NameCamelPath(seat=0, caravan=NORTH, edge=t.edge("(0,-1)/(-1,0)")), "caravans.camel.extend")
    name(t, 0, NORTH, t.edge("(1,-2)/(1,-1)"))
    assert x(t).caravans[NORTH].head == t.vertex("(1,-2)/(1,-1)/(2,-2)")  # type: ignore[union-attr]
    # Coastal paths are paths too: a caravan reaching the coast goes on along it.
    lay(t, NORTH, "(1,-2)/(2,-2)")
    assert camels.next_paths(t.state, x(t).caravans[NORTH])  # type: ignore[arg-type]


def test_caravans_camel_oasis_edge_never_for_a_first_camel_but_later_camels_may() -> None:
    t = table()
    open_vote(t)
    bid_all(t, (0, 0), (0, 0), (0, 0))
    t.rejects(NameCamelPath(seat=0, caravan=NORTH, edge=t.edge("(0,-1)/(0,0)")), "caravans.camel.oasis_edge")
    t2 = table()
    # Around the hex (1,-1) back to the oasis corner (0,0)/(1,-1)/(1,0).
    lay(t2, NORTH, start(t2, NORTH), "(1,-2)/(1,-1)", "(1,-1)/(2,-2)", "(1,-1)/(2,-1)", "(1,-1)/(1,0)")
    heads = camels.next_paths(t2.state, x(t2).caravans[NORTH])  # type: ignore[arg-type]
    assert sorted(heads) == sorted([t2.edge("(0,0)/(1,-1)"), t2.edge("(0,0)/(1,0)")])  # oasis edges


def test_caravans_camel_one_per_path_and_roads_share_paths_with_camels() -> None:
    t = table()
    # A road already on the start path does not stop the camel …
    t.road(0, start(t, NORTH))
    open_vote(t)
    bid_all(t, (0, 0), (0, 0), (0, 0))
    name(t, 0, NORTH, start(t, NORTH))
    assert start(t, NORTH) in x(t).camels
    # … nor a camel a road (seat 1 builds beside the camel on the next path).
    t.turn_of(1)
    lay(t, NORTH, "(1,-2)/(1,-1)")
    t.road(1, t.edge("(0,-1)/(1,-2)"))
    t.give(1, brick=1, lumber=1)
    t.when(BuildRoad(seat=1, edge=t.edge("(1,-2)/(1,-1)")))
    # A path never carries two camels: the north caravan's start path is taken.
    open_vote(t, seat=1)
    bid_all(t, (0, 0), (0, 0), (0, 0))
    t.rejects(NameCamelPath(seat=1, caravan=NORTH, edge=start(t, NORTH)), "caravans.camel.one_per_path")


def test_caravans_camel_merge_a_head_reaching_another_caravan_joins_it_there() -> None:
    t = table()
    # South-east caravan: (0,1)/(1,0) then round (1,0) up to (1,0)/(2,-1)/(2,0).
    lay(t, SOUTH_EAST, start(t, SOUTH_EAST), "(1,0)/(1,1)", "(1,0)/(2,0)")
    # North caravan: round (1,-1) down to the south-east caravan's vertex.
    lay(t, NORTH, start(t, NORTH), "(1,-2)/(1,-1)", "(1,-1)/(2,-2)", "(1,-1)/(2,-1)")
    target = t.vertex("(1,-1)/(1,0)/(2,-1)")
    open_vote(t)
    bid_all(t, (0, 0), (0, 0), (0, 0))
    merge_edge = t.edge("(1,0)/(2,-1)")
    events = name(t, 0, NORTH, merge_edge)  # head (1,0)/(2,-1)/(2,0): the SE caravan's head
    placed = of(events, CamelPlaced)[0]
    assert placed.merged == SOUTH_EAST
    north = x(t).caravans[NORTH]
    assert x(t).caravans[SOUTH_EAST] is None
    assert north is not None
    assert north.head == t.vertex("(1,0)/(2,-1)/(2,0)")
    assert len(north.edges) == 8
    assert all(c == NORTH for c in x(t).camels.values())
    assert target != north.head
    # The south-east arrow is used: it never starts another caravan.
    assert all(c != SOUTH_EAST for c, _ in camels.placements(t.state))


# --- §8.7 scoring ---------------------------------------------------------------------------


def test_caravans_road_camel_double_roads_beside_camels_count_two() -> None:
    t = table()
    # Seat 0 builds three roads along the north caravan's future route.
    for e in ("(0,-1)/(1,-2)", "(1,-2)/(1,-1)", "(1,-1)/(2,-2)"):
        t.road(0, t.edge(e))
    before = t.state.players[0].road_length
    lay(t, NORTH, start(t, NORTH), "(1,-2)/(1,-1)")
    assert t.state.players[0].road_length == before + 1
    open_vote(t)
    bid_all(t, (0, 0), (0, 0), (0, 0))
    events = name(t, 0, NORTH, t.edge("(1,-1)/(2,-2)"))
    assert t.state.players[0].road_length == 5  # 3 pieces: 1 + 2 + 2
    assert of(events, LongestRoadChanged) == [LongestRoadChanged(holder=0, length=5)]
    assert events.index(of(events, LongestRoadChanged)[0]) < events.index(of(events, TurnEnded)[0])


def test_caravans_vp_between_camels_one_more_point_once() -> None:
    t = table()
    v = t.vertex("(0,-1)/(1,-2)/(1,-1)")  # the north caravan's first head
    t.place(1, v)
    vp = public_vp(t.state, 1)
    lay(t, NORTH, start(t, NORTH))
    assert public_vp(t.state, 1) == vp  # one camel path touches it
    lay(t, NORTH, "(1,-2)/(1,-1)")
    assert public_vp(t.state, 1) == vp + 1
    assert total_vp(t.state, 1) == vp + 1
    x(t).camels[t.edge("(0,-1)/(1,-2)")] = SOUTH_WEST  # a third camel path: still one point
    assert public_vp(t.state, 1) == vp + 1


def test_caravans_vp_between_camels_can_win_at_the_end_of_the_builders_turn() -> None:
    t = table()
    v = t.vertex("(0,-1)/(1,-2)/(1,-1)")
    t.place(0, v)
    lay(t, NORTH, start(t, NORTH))
    p = t.state.players[0]
    for c in list(p.settlements)[:3]:
        p.settlements.discard(c)
        p.cities.add(c)
    t.state.army_holder = 0
    for _ in range(3):
        t.give_dev(0, "victory_point")
    assert total_vp(t.state, 0) == 11  # 3 cities, Largest Army, 3 VP cards
    open_vote(t)
    bid_all(t, (0, 0), (0, 0), (0, 0))
    events = name(t, 0, NORTH, t.edge("(1,-2)/(1,-1)"))
    assert of(events, GameFinished)[0].winner == 0
    assert not of(events, TurnEnded)


# --- §8.8 victory ---------------------------------------------------------------------------


def test_caravans_win_target_twelve_and_thirteen_with_harbormaster() -> None:
    t = table()
    assert t.state.rules.hooks.win_target(t.state, 0) == 12
    t2 = table(variants=("harbormaster",))
    assert t2.state.rules.hooks.win_target(t2.state, 0) == 13
    t3 = Table(seats=3, modules=[ModuleSpec(name="caravans"),
                                 ModuleSpec(name="victory-points", params={"target": 11})])
    assert t3.state.rules.hooks.win_target(t3.state, 0) == 11  # the victory-points option replaces 12


def test_caravans_win_target_eleven_is_not_enough() -> None:
    t = table()
    t.turn_of(0)
    p = t.state.players[0]
    for c in list(p.settlements):
        p.settlements.discard(c)
        p.cities.add(c)
    t.state.longest_holder = 0
    t.state.army_holder = 0
    t.give_dev(0, "victory_point")
    t.give_dev(0, "victory_point")
    t.give_dev(0, "victory_point")
    assert total_vp(t.state, 0) == 11
    assert not t.state.rules.hooks.wins(t.state, 0)
    t.give_dev(0, "victory_point")
    assert t.state.rules.hooks.wins(t.state, 0)


def test_caravans_robber_move_events_in_the_main_phase() -> None:
    t = table()
    t.give_dev(0, "knight")
    t.turn_of(0)
    t.when(PlayKnight(seat=0))
    events = t.when(MoveRobber(seat=0, hex=t.hex("(1,0)")))
    assert of(events, RobberMoved)
    assert t.state.phase == MAIN


def test_caravans_state_snapshot_round_trip_mid_vote() -> None:
    """The module state (caravans, camels, an open vote with a sealed choice) survives a
    snapshot (services/rules/engine/snapshot.py), as the rules service stores it."""
    from services.rules.engine import snapshot

    t = table()
    lay(t, NORTH, start(t, NORTH), "(1,-2)/(1,-1)")
    open_vote(t)
    bid_all(t, (1, 0), (0, 0), (0, 1))
    name(t, 2, NORTH, t.edge("(1,-1)/(2,-2)"))
    again = snapshot.load(snapshot.dump(t.state), t.created)
    assert again.to_dict() == t.state.to_dict()
    assert pending(again) == pending(t.state)
