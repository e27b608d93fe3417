"""The Fishermen of Catan (docs/rules/fishermen.md §6): one test per rule clause, named after its
rule id, on the scenario's beginner board (the lake at the centre) with scripted chance.

Grounds on the beginner board with the table seed: (1,-3) 8, (3,-1) 6, (2,1) 10, (-2,3) 4,
(-3,2) 5, (-1,-2) 9; the tests look them up by number rather than rely on that."""

from __future__ import annotations

import pytest
from fishermen_helpers import (
    FISHERMEN,
    check_fish_conserved,
    fx,
    give_fish,
    ground,
    table,
    waters_of,
)

from events.commands import (
    DiscardResources,
    EndTurn,
    MoveRobber,
    PlaceSettlement,
    PlayKnight,
    RollDice,
)
from events.events import (
    CardStolen,
    DiceRolled,
    DiscardRequired,
    GameFinished,
    ModuleSpec,
    ResourcesProduced,
    RoadBuilt,
)
from events.fishermen import (
    FishBuildRoad,
    FishDevelopmentCardTaken,
    FishDrawn,
    FishRemoveRobber,
    FishReshuffled,
    FishResourceTaken,
    FishReturnRequired,
    FishSpent,
    FishSteal,
    FishTakeDevelopmentCard,
    FishTakeResource,
    OldBootDrawn,
    OldBootPassed,
    PassOldBoot,
    ReturnFish,
    RobberLeftBoard,
)
from services.rules.engine import new_game, pending, redact, view
from services.rules.engine.chance import SeededDealer
from services.rules.engine.layout import lay
from services.rules.engine.mapdata import load_map
from services.rules.engine.modules import map_packages
from services.rules.engine.scenarios.fishermen.common import (
    GROUND_FRAME_INDICES,
    GROUNDS_KEY,
    RETURN,
)
from services.rules.engine.state import MAIN, NO_ONE, ROBBER, ROLL
from services.rules.engine.testing import Table

ROLLS = {2: (1, 1), 3: (1, 2), 4: (1, 3), 5: (2, 3), 6: (3, 3), 7: (3, 4), 8: (4, 4),
         9: (4, 5), 10: (5, 5), 11: (5, 6), 12: (6, 6)}


def roll(t: Table, total: int, *fish: int) -> list[object]:
    t.script("dice", ROLLS[total])
    if fish:
        t.script("fish", *fish)
    return list(t.when(RollDice(seat=t.state.current)))


def of(events: list[object], kind: type) -> list:  # type: ignore[type-arg]
    return [e for e in events if isinstance(e, kind)]


# --- 6.2 the board --------------------------------------------------------------------------


def test_fishermen_waters_are_worked_out_once_per_game_and_shared_by_copies() -> None:
    t = table()
    copy = t.state.copy()
    assert waters_of(copy) is waters_of(t)  # not copied with the state
    assert fx(copy).grounds == fx(t).grounds
    assert [(h, n) for h, n, _ in waters_of(t).grounds] == list(
        zip(fx(t).grounds[::2], fx(t).grounds[1::2], strict=True))


def test_fishermen_board_lake_replaces_the_desert_has_no_token_and_yields_on_2_3_11_12() -> None:
    t = table()
    board = t.state.board
    lake = waters_of(t).lake
    assert board.hex_terrain[lake] == "lake"
    assert "desert" not in board.hex_terrain
    assert board.hex_number[lake] == 0 or board.hex_numbers[lake] == (2, 3, 11, 12)
    assert board.hex_numbers[lake] == (2, 3, 11, 12)
    assert board.hex_resource[lake] == -1  # no resource: fish only
    assert all(tile.number != 0 for tile in board.tiles if tile.terrain != "sea")


def test_fishermen_board_lake_is_swapped_inward_with_its_partner_keeping_its_token() -> None:
    m = load_map("fishermen", map_packages())
    assert m.variable is not None
    outer = set(m.variable.spiral[:12])
    swapped = 0
    for i in range(60):
        seed = f"lake-{i}".encode()
        laid, _ = lay(m, SeededDealer(seed), use_fixed=False)
        shuffled_lake = next((q, r) for q, r, terrain, _ in laid if terrain == "lake")
        created = new_game("g", 4, seed, modules=[FISHERMEN])
        q, r, number = created.setup["terrain:lake"]
        assert (q, r) not in outer
        assert number == 0
        if shuffled_lake in outer:
            swapped += 1
            partner = next(x for x in laid if (x[0], x[1]) == (q, r))
            moved = next(x for x in created.tiles if (x.q, x.r) == shuffled_lake)
            assert (moved.terrain, moved.number) == (partner[2], partner[3])
    assert swapped > 10  # most shuffles put the lake on the coast first


def test_fishermen_board_grounds_lie_on_frame_indices_with_shuffled_numbers_and_serve_three_vertices() -> None:
    m = load_map("fishermen", map_packages())
    seen = set()
    for i in range(8):
        created = new_game("g", 4, f"grounds-{i}".encode(), modules=[FISHERMEN])
        flat = created.setup[GROUNDS_KEY]
        hexes = [(flat[j], flat[j + 1]) for j in range(0, 18, 3)]
        numbers = tuple(flat[j + 2] for j in range(0, 18, 3))
        assert hexes == [m.frame[k] for k in GROUND_FRAME_INDICES]
        assert sorted(numbers) == [4, 5, 6, 8, 9, 10]
        seen.add(numbers)
    assert len(seen) > 4  # shuffled per game
    t = table()
    topo = t.state.board.topo
    harbor_seas = {hb.sea for hb in t.state.board.harbors}
    for h, _, vertices in waters_of(t).grounds:
        assert topo.hexes[h] not in harbor_seas
        land_edges = [e for e in topo.hex_edges[h] if topo.edge_is_land[e]]
        assert len(land_edges) == 2
        ends = {v for e in land_edges for v in topo.edge_vertices[e]}
        assert set(vertices) == ends
        assert len(vertices) == 3


# --- 6.3 fish tokens ------------------------------------------------------------------------


def test_fishermen_tokens_production_a_settlement_draws_one_and_a_city_two() -> None:
    t = table()
    h, (a, b, c) = ground(t, 9)
    t.place(0, a)
    t.place(1, c, city=True)
    t.turn_of(0, rolled=False)
    events = roll(t, 9, 1, 2, 3)
    drawn = of(events, FishDrawn)
    assert [(e.seat, e.fish) for e in drawn] == [(0, 1), (1, 2), (1, 3)]
    assert fx(t).hands[0][1] == 1
    assert fx(t).hands[1][2:] == [1, 1]
    check_fish_conserved(t.state)


def test_fishermen_tokens_production_the_lake_yields_on_2_3_11_12_unless_the_robber_is_on_it() -> None:
    t = table()
    lake = waters_of(t).lake
    t.place(0, waters_of(t).lake_vertices[0])
    for total in (2, 3, 11, 12):
        t.turn_of(0, rolled=False)
        assert len(of(roll(t, total), FishDrawn)) == 1
    t.turn_of(0, rolled=False)
    assert of(roll(t, 5), FishDrawn) == []  # the lake's numbers only
    t.state.robber = lake
    t.turn_of(0, rolled=False)
    assert of(roll(t, 2), FishDrawn) == []


def test_fishermen_tokens_production_grounds_are_sea_and_never_blocked_by_the_robber() -> None:
    t = table()
    h, vertices = ground(t, 4)
    t.place(2, vertices[0])
    land = t.state.board.topo.vertex_land_hexes[vertices[0]][0]
    t.state.robber = land
    t.turn_of(2, rolled=False)
    assert len(of(roll(t, 4), FishDrawn)) == 1


def test_fishermen_tokens_setup_the_second_settlement_at_a_ground_or_the_lake_draws_one() -> None:
    t = table(seats=2, setup=False)
    _, ground_vertices = ground(t, 8)
    lake_vertex = waters_of(t).lake_vertices[3]
    topo = t.state.board.topo

    def place(seat: int, v: int) -> list[object]:
        events = list(t.when(PlaceSettlement(seat=seat, vertex=v)))
        t.when(pending(t.state)[0].default)
        return events

    assert of(place(0, ground_vertices[0]), FishDrawn) == []  # the first settlement: nothing
    plain = next(v for v in topo.land_vertices if v not in waters_of(t).fishing_vertices
                 and all(t.state.vertex_owner[u] == NO_ONE for u in (v, *topo.vertex_neighbours[v]))
                 and topo.vertex_is_coastal[v])
    assert of(place(1, plain), FishDrawn) == []
    t.script("fish", 2)
    drawn = of(place(1, lake_vertex), FishDrawn)  # seat 1's second settlement
    assert [(e.seat, e.fish) for e in drawn] == [(1, 2)]
    far = next(v for v in topo.land_vertices if v not in waters_of(t).fishing_vertices
               and all(t.state.vertex_owner[u] == NO_ONE for u in (v, *topo.vertex_neighbours[v])))
    assert of(place(0, far), FishDrawn) == []
    assert t.state.phase == ROLL


def test_fishermen_tokens_order_after_the_resources_clockwise_from_the_roller() -> None:
    t = table(seats=3)
    _, (a, b, c) = ground(t, 6)
    t.place(0, a)
    t.place(1, b, city=True)
    t.place(2, c)
    six = t.state.board.number_hexes[6][0]
    t.place(0, t.state.board.topo.hex_vertices[six][0])
    t.turn_of(2, rolled=False)
    events = roll(t, 6)
    kinds = [type(e) for e in events]
    assert kinds.index(ResourcesProduced) < kinds.index(FishDrawn)
    assert [e.seat for e in of(events, FishDrawn)] == [2, 0, 1, 1]  # the roller first


def test_fishermen_tokens_reshuffle_the_spent_tokens_become_the_supply() -> None:
    t = table()
    _, (a, _, _) = ground(t, 10)
    t.place(0, a, city=True)
    f = fx(t)
    f.spent, f.supply = [0, 11, 10, 7], [0, 0, 0, 1]  # only 1 token left (the boot is held)
    f.boot = 3
    t.turn_of(0, rolled=False)
    events = roll(t, 10, 3, 2)
    assert [type(e) for e in events[-3:]] == [FishDrawn, FishReshuffled, FishDrawn]
    assert of(events, FishReshuffled)[0].tokens == 28
    assert f.spent == [0, 0, 0, 0]
    assert sum(f.supply) == 27
    check_fish_conserved(t.state)


def test_fishermen_tokens_reshuffle_with_nothing_spent_the_remaining_draws_are_lost() -> None:
    t = table()
    _, (a, _, _) = ground(t, 10)
    t.place(0, a, city=True)
    f = fx(t)
    f.hands[1], f.supply, f.boot = [0, 11, 10, 7], [0, 0, 0, 1], 3
    t.turn_of(0, rolled=False)
    events = roll(t, 10)
    assert len(of(events, FishDrawn)) == 1
    assert of(events, FishReshuffled) == []
    assert sum(f.supply) == 0


def test_fishermen_tokens_hand_limit_a_seat_above_seven_gives_back_the_token_it_chooses() -> None:
    t = table()
    _, (a, _, _) = ground(t, 5)
    t.place(0, a, city=True)
    give_fish(t, 0, 1, 1, 1, 2, 2, 3, 3)
    t.turn_of(0, rolled=False)
    events = roll(t, 5, 3, 3)
    assert of(events, FishReturnRequired)[0].counts == (2, 0, 0)
    assert t.state.phase == RETURN
    [prompt] = pending(t.state)
    assert prompt.seat == 0
    assert ReturnFish(seat=0, tokens=(1, 1)) in prompt.options
    t.when(ReturnFish(seat=0, tokens=(1, 3)))  # the player's choice, not the smallest
    assert fx(t).hands[0] == [0, 2, 2, 3]
    assert fx(t).spent == [0, 1, 0, 1]
    assert t.state.phase == MAIN
    check_fish_conserved(t.state)


def test_fishermen_tokens_hand_limit_the_boot_does_not_count() -> None:
    t = table()
    _, (a, _, _) = ground(t, 5)
    t.place(0, a)
    give_fish(t, 0, 1, 1, 1, 2, 2, 3)
    t.turn_of(0, rolled=False)
    events = roll(t, 5, 0)  # the boot: 6 tokens and the boot, no return
    assert of(events, OldBootDrawn)
    assert not of(events, FishReturnRequired)


def test_fishermen_return_count_exactly_the_excess_from_held_tokens() -> None:
    t = table()
    _, (a, _, _) = ground(t, 5)
    t.place(0, a)
    give_fish(t, 0, 1, 1, 1, 1, 2, 2, 2)
    t.turn_of(0, rolled=False)
    roll(t, 5, 2)
    t.rejects(ReturnFish(seat=0, tokens=(1, 1)), "fishermen.return.count")
    t.rejects(ReturnFish(seat=0, tokens=(3,)), "fishermen.return.count")
    t.rejects(ReturnFish(seat=1, tokens=(1,)), "base.turn.not_your_turn")
    t.when(ReturnFish(seat=0, tokens=(1,)))


def test_fishermen_tokens_not_resources_outside_the_card_limit_discards_and_steals() -> None:
    t = table()
    give_fish(t, 1, 3, 3, 3, 3, 3, 3, 3)
    t.give(1, lumber=8)
    t.give(2, ore=7)
    t.turn_of(0, rolled=False)
    events = roll(t, 7)
    assert of(events, DiscardRequired)[0].counts == (0, 4, 0)  # 8 cards; fish are not cards
    t.when(DiscardResources(seat=1, resources={"lumber": 4}))
    assert t.state.phase == ROBBER
    assert "fish" not in t.state.rules.vocab.resource_index  # nothing can trade or monopolise fish
    v = next(v for v in t.state.board.topo.land_vertices)
    t.place(1, v)
    h = t.state.board.topo.vertex_land_hexes[v][0]
    stolen = of(t.when(MoveRobber(seat=0, hex=h, victim=1)), CardStolen)
    assert stolen[0].resource == "lumber"
    assert fx(t).hands[1][3] == 7


# --- 6.4 spending fish ----------------------------------------------------------------------


def spender(seats: int = 3) -> Table:
    t = table(seats=seats)
    t.turn_of(0)
    return t


def test_fishermen_spend_own_turn_only_the_active_seat_after_the_roll() -> None:
    t = spender()
    give_fish(t, 1, 3, 3)
    give_fish(t, 0, 3, 3)
    t.rejects(FishTakeResource(seat=1, resource="ore", tokens=(3, 3)), "fishermen.spend.own_turn")
    t.turn_of(0, rolled=False)
    t.rejects(FishTakeResource(seat=0, resource="ore", tokens=(3, 3)), "fishermen.spend.own_turn")
    t.state.robber = t.hex("(1,0)")
    assert FishRemoveRobber(seat=0, tokens=(3,)) in pending(t.state)[0].options  # before the roll
    t.when(FishRemoveRobber(seat=0, tokens=(3,)))
    assert t.state.phase == ROLL
    assert t.state.robber == NO_ONE


def test_fishermen_spend_tokens_held_only_tokens_in_the_hand() -> None:
    t = spender()
    give_fish(t, 0, 1, 1)
    t.state.robber = t.hex("(1,0)")
    t.rejects(FishRemoveRobber(seat=0, tokens=(2,)), "fishermen.spend.tokens_held")
    t.rejects(FishRemoveRobber(seat=0, tokens=(1, 1, 1)), "fishermen.spend.tokens_held")
    t.rejects(FishRemoveRobber(seat=0, tokens=()), "fishermen.spend.tokens_held")
    t.when(FishRemoveRobber(seat=0, tokens=(1, 1)))


def test_fishermen_spend_no_change_at_least_the_price_and_nothing_back() -> None:
    t = spender()
    give_fish(t, 0, 1, 3)
    t.state.robber = t.hex("(1,0)")
    t.rejects(FishRemoveRobber(seat=0, tokens=(1,)), "fishermen.spend.no_change")
    events = t.when(FishRemoveRobber(seat=0, tokens=(3,)))
    assert events[0] == FishSpent(seat=0, tokens=(3,), action="robber")
    assert fx(t).hands[0] == [0, 1, 0, 0]
    assert fx(t).spent == [0, 0, 0, 1]


def test_fishermen_spend_robber_two_fish_take_it_off_the_board_only_if_it_is_on() -> None:
    t = spender()
    give_fish(t, 0, 2, 2)
    t.rejects(FishRemoveRobber(seat=0, tokens=(2,)), "fishermen.spend.robber")
    t.state.robber = t.hex("(0,0)")
    events = t.when(FishRemoveRobber(seat=0, tokens=(2,)))
    assert events[1] == RobberLeftBoard(seat=0, reason="fish")
    assert t.state.robber == NO_ONE


def test_fishermen_spend_steal_three_fish_draw_a_card_from_another_player_with_cards() -> None:
    t = spender()
    give_fish(t, 0, 3, 3, 3)
    t.rejects(FishSteal(seat=0, victim=1, tokens=(3,)), "fishermen.spend.steal")  # no cards
    t.give(1, wool=1)
    t.rejects(FishSteal(seat=0, victim=0, tokens=(3,)), "fishermen.spend.steal")
    events = t.when(FishSteal(seat=0, victim=1, tokens=(3,)))
    assert events[1] == CardStolen(thief=0, victim=1, resource="wool", n=0)
    assert t.hand(0) == {"wool": 1}
    assert redact(t.state, events[1], 2).resource is None


def test_fishermen_spend_bank_four_fish_take_a_resource_the_bank_has() -> None:
    t = spender()
    give_fish(t, 0, 2, 2, 3, 1)
    t.set_bank(ore=0)
    t.rejects(FishTakeResource(seat=0, resource="ore", tokens=(2, 2)), "fishermen.spend.bank")
    t.rejects(FishTakeResource(seat=0, resource="grain", tokens=(3,)), "fishermen.spend.no_change")
    events = t.when(FishTakeResource(seat=0, resource="grain", tokens=(1, 3)))
    assert events[1] == FishResourceTaken(seat=0, resource="grain")
    assert t.hand(0) == {"grain": 1}


def test_fishermen_spend_road_five_fish_build_a_free_road_by_the_normal_rules() -> None:
    t = spender()
    give_fish(t, 0, 2, 3, 3, 2)
    v = t.state.board.topo.land_vertices[30]
    t.place(0, v)
    edge = t.state.board.topo.vertex_edges[v][0]
    far = t.edge("(-2,2)/(-1,2)")
    t.rejects(FishBuildRoad(seat=0, edge=far, tokens=(2, 3)), "base.build.road_connect")
    t.rejects(FishBuildRoad(seat=0, edge=edge, tokens=(2, 2)), "fishermen.spend.no_change")
    events = t.when(FishBuildRoad(seat=0, edge=edge, tokens=(2, 3)))
    assert events[1] == RoadBuilt(seat=0, edge=edge, free=True)
    assert t.hand(0) == {}
    for e in list(t.state.board.topo.land_edges)[:15]:
        t.state.players[0].roads.add(e)
    t.rejects(FishBuildRoad(seat=0, edge=edge, tokens=(2, 3)), "fishermen.spend.road")


def test_fishermen_spend_devcard_seven_fish_take_a_card_not_playable_this_turn() -> None:
    t = spender()
    give_fish(t, 0, 3, 3, 1, 3, 3, 1)
    t.script("devcard", "knight")
    events = t.when(FishTakeDevelopmentCard(seat=0, tokens=(1, 3, 3)))
    assert events[1] == FishDevelopmentCardTaken(seat=0, card="knight", n=0)
    assert redact(t.state, events[1], 1) == FishDevelopmentCardTaken(seat=0, card=None, n=0)
    t.rejects(PlayKnight(seat=0), "base.dev.bought_this_turn")
    t.state.deck = [0, 0, 0, 0, 0]
    t.rejects(FishTakeDevelopmentCard(seat=0, tokens=(1, 3, 3)), "fishermen.spend.devcard")


def test_fishermen_spend_several_actions_in_one_turn_each_paid_separately() -> None:
    t = spender()
    give_fish(t, 0, 2, 2, 2, 2)
    for _ in range(2):
        t.when(FishTakeResource(seat=0, resource="brick", tokens=(2, 2)))
    assert t.hand(0) == {"brick": 2}
    assert fx(t).spent == [0, 0, 4, 0]


# --- 6.5 the robber -------------------------------------------------------------------------


def test_fishermen_robber_offboard_start() -> None:
    created = new_game("g", 4, b"robber", modules=[FISHERMEN])
    assert created.robber is None
    assert table().state.robber == NO_ONE
    assert view(table().state, None).robber == NO_ONE


def test_fishermen_robber_enter_on_the_next_seven_on_any_land_hex_the_lake_included() -> None:
    t = table()
    t.turn_of(0, rolled=False)
    roll(t, 7)
    [prompt] = pending(t.state)
    hexes = {o.hex for o in prompt.options if isinstance(o, MoveRobber)}
    assert hexes == set(t.state.board.topo.land_hexes)
    t.when(MoveRobber(seat=0, hex=waters_of(t).lake))
    assert t.state.robber == waters_of(t).lake


def test_fishermen_robber_enter_a_knight_brings_it_back_after_fish_took_it_off() -> None:
    t = spender()
    t.state.robber = t.hex("(1,0)")
    give_fish(t, 0, 2)
    t.when(FishRemoveRobber(seat=0, tokens=(2,)))
    t.give_dev(0, "knight")
    t.when(PlayKnight(seat=0))
    assert t.state.phase == ROBBER
    t.when(MoveRobber(seat=0, hex=t.hex("(1,0)")))  # even the hex it left
    assert t.state.robber == t.hex("(1,0)")


# --- 6.6 the old boot -----------------------------------------------------------------------


def test_fishermen_boot_reveal_shown_to_all_no_replacement_draw() -> None:
    t = table()
    _, (a, _, _) = ground(t, 8)
    t.place(1, a)
    t.turn_of(0, rolled=False)
    events = roll(t, 8, 0)
    boot = of(events, OldBootDrawn)
    assert boot == [OldBootDrawn(seat=1, n=0)]
    assert of(events, FishDrawn) == []
    assert all(redact(t.state, boot[0], s) == boot[0] for s in (0, 2, None))
    assert fx(t).boot == 1
    assert view(t.state, 2).ext["fishermen"]["boot"] == 1
    assert sum(fx(t).supply) == 29


def test_fishermen_boot_pass_after_rolling_to_a_player_with_at_least_the_holders_public_vp() -> None:
    t = spender()
    fx(t).boot = 0
    fx(t).supply[0] = 0
    land = t.state.board.topo.land_vertices
    t.place(0, land[0])
    t.place(1, land[10])
    t.place(1, land[20])
    t.rejects(PassOldBoot(seat=0, to=2), "fishermen.boot.pass")  # seat 2: 0 VP < 1
    t.rejects(PassOldBoot(seat=1, to=0), "fishermen.boot.pass")  # not the holder
    assert [o for o in pending(t.state)[0].options if isinstance(o, PassOldBoot)] == [
        PassOldBoot(seat=0, to=1)]
    t.turn_of(0, rolled=False)
    t.rejects(PassOldBoot(seat=0, to=1), "base.roll.required")
    t.turn_of(0)
    assert t.when(PassOldBoot(seat=0, to=1)) == [OldBootPassed(seat=0, to=1)]
    assert fx(t).boot == 1


def test_fishermen_boot_pass_a_holder_leading_alone_keeps_it() -> None:
    t = spender()
    fx(t).boot = 0
    t.place(0, t.state.board.topo.land_vertices[0])
    assert not [o for o in pending(t.state)[0].options if isinstance(o, PassOldBoot)]


def test_fishermen_boot_target_the_holder_needs_one_more_and_passing_it_can_win() -> None:
    t = spender(seats=2)
    fx(t).boot = 0
    rules = t.state.rules
    assert rules.hooks.win_target(t.state, 0) == 11
    assert rules.hooks.win_target(t.state, 1) == 10
    topo = t.state.board.topo
    spots = list(topo.land_vertices[::3])
    for v in spots[:5]:
        t.place(0, v, city=True)  # 10 VP
    for v in spots[5:10]:
        t.place(1, v, city=True)  # 10 VP: may take the boot
    events = t.when(PassOldBoot(seat=0, to=1))
    assert isinstance(events[-1], GameFinished)
    assert events[-1].winner == 0


# --- 6.7 victory ----------------------------------------------------------------------------


@pytest.mark.parametrize(("variants", "plain", "boot"), [
    ((), 10, 11), (("harbormaster",), 11, 12)])
def test_fishermen_win_target_ten_plus_the_boot_plus_harbormaster(
        variants: tuple[str, ...], plain: int, boot: int) -> None:
    t = table(variants=variants)
    fx(t).boot = 1
    assert t.state.rules.hooks.win_target(t.state, 0) == plain
    assert t.state.rules.hooks.win_target(t.state, 1) == boot


def test_fishermen_win_target_victory_points_option_then_the_boot() -> None:
    t = Table(seats=3, modules=[FISHERMEN, ModuleSpec(name="victory-points", params={"target": 12})],
              setup=False)
    fx(t).boot = 2
    assert [t.state.rules.hooks.win_target(t.state, s) for s in range(3)] == [12, 12, 13]


def test_fishermen_win_target_a_seven_fish_victory_point_card_wins_at_once() -> None:
    t = spender(seats=2)
    topo = t.state.board.topo
    spots = list(topo.land_vertices[::3])
    for v in spots[:4]:
        t.place(0, v, city=True)
    t.place(0, spots[4])  # 9 VP
    give_fish(t, 0, 3, 3, 1)
    t.script("devcard", "victory_point")
    events = t.when(FishTakeDevelopmentCard(seat=0, tokens=(1, 3, 3)))
    assert isinstance(events[-1], GameFinished)
    assert events[-1].winner == 0


# --- hidden information ---------------------------------------------------------------------


def test_fishermen_tokens_production_the_fish_drawn_are_seen_only_by_the_drawer() -> None:
    t = table()
    _, (a, _, _) = ground(t, 8)
    t.place(1, a)
    t.turn_of(0, rolled=False)
    [drawn] = of(roll(t, 8, 3), FishDrawn)
    assert redact(t.state, drawn, 1) == drawn
    for seat in (0, 2, None):
        assert redact(t.state, drawn, seat) == FishDrawn(seat=1, fish=None, n=0)
    own = view(t.state, 1).ext["fishermen"]
    assert own["hand"] == {"1": 0, "2": 0, "3": 1}
    assert own["tokens"][1] == 1
    for seat in (0, 2, None):
        seen = view(t.state, seat).ext["fishermen"]
        assert seen["tokens"][1] == 1
        assert (seen["hand"] is None or seen["hand"]["3"] == 0)
    referee = view(t.state, None, referee=True).ext["fishermen"]
    assert referee["hands"][1] == {"1": 0, "2": 0, "3": 1}
    assert "hands" not in view(t.state, None).ext["fishermen"]


def test_fishermen_tokens_hand_limit_each_seat_is_prompted_with_its_own_tokens_only() -> None:
    t = table()
    _, (a, b, _) = ground(t, 9)
    t.place(0, a)
    t.place(1, b)
    give_fish(t, 0, 1, 1, 1, 1, 1, 1, 1)
    give_fish(t, 1, 3, 3, 3, 3, 3, 3, 3)
    t.turn_of(2, rolled=False)
    roll(t, 9, 2, 2)
    prompts = {p.seat: p for p in pending(t.state)}
    assert set(prompts) == {0, 1}
    assert {o.tokens for o in prompts[0].options} == {(1,), (2,)}
    assert {o.tokens for o in prompts[1].options} == {(2,), (3,)}


def test_fishermen_prompts_offer_only_affordable_minimal_payments() -> None:
    t = spender()
    give_fish(t, 0, 1, 2, 3)
    t.give(1, ore=1)
    t.state.robber = t.hex("(1,0)")
    options = pending(t.state)[0].options
    robber = {o.tokens for o in options if isinstance(o, FishRemoveRobber)}
    assert robber == {(2,), (3,)}
    steal = {o.tokens for o in options if isinstance(o, FishSteal)}
    assert steal == {(3,), (1, 2)}
    assert {o.tokens for o in options if isinstance(o, FishTakeResource)} == {(1, 3), (2, 3)}
    assert not [o for o in options if isinstance(o, FishTakeDevelopmentCard)]


def test_fishermen_a_full_turn_ends() -> None:
    t = spender()
    t.when(EndTurn(seat=0))
    assert t.state.current == 1
    assert t.state.phase == ROLL
    assert isinstance(roll(t, 6)[0], DiceRolled)
