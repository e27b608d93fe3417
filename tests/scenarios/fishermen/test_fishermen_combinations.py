"""The Fishermen with the variants (docs/rules/fishermen.md §6.8, combinations.md §13.3): every
combination is allowed; each adjustment is tested here by its rule id, in both orders of the
modules where the order could matter."""

from __future__ import annotations

import itertools

import pytest
from fishermen_helpers import FISHERMEN, check_fish_conserved, fx, give_fish, table, waters_of

from events.catan_for_two import DiscardKnight, ForceTrade, TradeTokensGained
from events.commands import MoveRobber, PlaceSettlement, RollDice
from events.events import ModuleSpec, ResourcesProduced
from events.fishermen import (
    FishDrawn,
    FishRemoveRobber,
    FishTakeResource,
    LeaveRobberOff,
    RobberLeftBoard,
)
from services.rules.engine import check_combination, new_game, pending, public_vp
from services.rules.engine.modules import MODULES
from services.rules.engine.state import MAIN, NO_ONE, ROBBER
from services.rules.engine.testing import Table
from services.rules.engine.variants.catan_for_two.common import two

VARIANTS = ("friendly-robber", "event-cards", "harbormaster", "catan-for-two")


def test_fishermen_combines_with_every_variant_and_every_set_of_them() -> None:
    assert MODULES["fishermen"].kind == "scenario"
    assert MODULES["fishermen"].conflicts == {}
    for n in range(len(VARIANTS) + 1):
        for chosen in itertools.combinations(VARIANTS, n):
            seats = 2 if "catan-for-two" in chosen else 4
            specs = (FISHERMEN, *(ModuleSpec(name=v) for v in chosen))
            check_combination(specs, seats)
            created = new_game("g", seats, b"combo", modules=specs)
            assert created.robber is None


# --- Event Cards ----------------------------------------------------------------------------


@pytest.mark.parametrize("order", ["scenario-first", "variant-first"])
def test_fishermen_event_cards_robber_flees_takes_the_robber_off_before_production(order: str) -> None:
    specs = [FISHERMEN, ModuleSpec(name="event-cards")]
    t = Table(seats=3, modules=specs if order == "scenario-first" else specs[::-1], setup=False)
    four = t.state.board.number_hexes[4][0]
    t.place(0, t.state.board.topo.hex_vertices[four][0])
    t.state.robber = four  # it blocks the 4 until it flees
    t.turn_of(0, rolled=False)
    t.script("eventdeck", (4, "robber_flees"))
    events = t.when(RollDice(seat=0))
    kinds = [type(e) for e in events]
    assert RobberLeftBoard(seat=None, reason="robber_flees") in events
    assert kinds.index(RobberLeftBoard) < kinds.index(ResourcesProduced)
    assert t.state.robber == NO_ONE
    assert t.state.phase == MAIN


def test_fishermen_event_cards_robber_flees_with_the_robber_already_off_does_nothing() -> None:
    t = table(variants=["event-cards"])
    t.turn_of(0, rolled=False)
    t.script("eventdeck", (4, "robber_flees"))
    assert not [e for e in t.when(RollDice(seat=0)) if isinstance(e, RobberLeftBoard)]


def test_fishermen_event_cards_fish_are_drawn_for_the_cards_number() -> None:
    t = table(variants=["event-cards"])
    h, n, vertices = next(g for g in waters_of(t).grounds if g[1] == 5)
    t.place(1, vertices[0])
    t.turn_of(0, rolled=False)
    t.script("eventdeck", (5, "none"))
    assert [e.seat for e in t.when(RollDice(seat=0)) if isinstance(e, FishDrawn)] == [1]


# --- Friendly Robber ------------------------------------------------------------------------


def protected_everywhere(order: str) -> Table:
    """Every land hex touches a building of a player with at most start_vp=5 public VP."""
    specs = [FISHERMEN, ModuleSpec(name="friendly-robber", params={"start_vp": 5})]
    t = Table(seats=4, modules=specs if order == "scenario-first" else specs[::-1], setup=False)
    topo = t.state.board.topo
    uncovered = set(topo.land_hexes)
    seat_of = 0
    placed = [0, 0, 0, 0]
    while uncovered:
        v = max(topo.land_vertices, key=lambda v: len(uncovered & set(topo.vertex_land_hexes[v])))
        t.place(seat_of, v)
        placed[seat_of] += 1
        uncovered -= set(topo.vertex_land_hexes[v])
        if placed[seat_of] == 5:
            seat_of += 1
    return t


@pytest.mark.parametrize("order", ["scenario-first", "variant-first"])
@pytest.mark.parametrize("on_board", [False, True])
def test_fishermen_friendly_robber_offboard_when_no_hex_is_legal(order: str, on_board: bool) -> None:
    t = protected_everywhere(order)
    if on_board:
        t.state.robber = t.state.board.topo.land_hexes[0]
    t.turn_of(0, rolled=False)
    t.script("dice", (3, 4))
    t.when(RollDice(seat=0))
    assert t.state.phase == ROBBER
    [prompt] = pending(t.state)
    assert prompt.options == [LeaveRobberOff(seat=0)]
    for h in (t.state.board.topo.land_hexes[0], t.state.board.topo.land_hexes[5]):
        t.rejects(MoveRobber(seat=0, hex=h), "fishermen.friendly_robber.offboard")
    assert t.when(LeaveRobberOff(seat=0)) == [RobberLeftBoard(seat=0, reason="no_legal_hex")]
    assert t.state.robber == NO_ONE
    assert t.state.phase == MAIN


def test_fishermen_friendly_robber_offboard_is_refused_while_a_hex_is_open() -> None:
    t = table(variants=["friendly-robber"])
    t.turn_of(0, rolled=False)
    t.script("dice", (3, 4))
    t.when(RollDice(seat=0))
    t.rejects(LeaveRobberOff(seat=0), "fishermen.friendly_robber.offboard")
    assert all(isinstance(o, MoveRobber) for o in pending(t.state)[0].options)


# --- Catan for Two --------------------------------------------------------------------------


@pytest.mark.parametrize("order", ["scenario-first", "variant-first"])
def test_fishermen_two_player_start_fish_replace_the_trade_tokens(order: str) -> None:
    specs = [FISHERMEN, ModuleSpec(name="catan-for-two")]
    t = Table(seats=2, modules=specs if order == "scenario-first" else specs[::-1], setup=False)
    assert [h for h in fx(t).hands] == [[0, 2, 2, 1], [0, 2, 2, 1]]
    assert fx(t).supply == [1, 7, 6, 6]
    check_fish_conserved(t.state)
    assert two(t.state).tokens == [0, 0]
    assert not two(t.state).in_play
    coast = next(o for o in pending(t.state)[0].options if isinstance(o, PlaceSettlement)
                 and t.state.board.topo.vertex_is_coastal[o.vertex])
    assert not [e for e in t.when(coast) if isinstance(e, TradeTokensGained)]
    t.turn_of(0)
    t.give(1, ore=3)
    t.state.players[0].knights = 1
    options = pending(t.state)[0].options
    assert not [o for o in options if isinstance(o, ForceTrade | DiscardKnight)]
    t.rejects(ForceTrade(seat=0), "catan_for_two.token.not_used")


def test_fishermen_two_player_discount_the_player_behind_pays_one_fish_less() -> None:
    t = table(seats=2, variants=["catan-for-two"])
    fx(t).hands = [[0, 0, 0, 0], [0, 0, 0, 0]]
    give_fish(t, 0, 3)
    give_fish(t, 1, 3)
    t.place(1, t.state.board.topo.land_vertices[0])
    assert public_vp(t.state, 0) < public_vp(t.state, 1)
    t.turn_of(0)
    t.state.robber = t.state.board.topo.land_hexes[0]
    t.rejects(FishTakeResource(seat=0, resource="ore", tokens=(1,)), "fishermen.spend.tokens_held")
    t.when(FishTakeResource(seat=0, resource="ore", tokens=(3,)))  # 4 - 1 = 3
    t.turn_of(1)
    t.rejects(FishRemoveRobber(seat=1, tokens=()), "fishermen.spend.tokens_held")
    give_fish(t, 1, 1)
    t.rejects(FishRemoveRobber(seat=1, tokens=(1,)), "fishermen.spend.no_change")  # ahead: 2
    t.when(FishRemoveRobber(seat=1, tokens=(3,)))


def test_fishermen_two_player_discount_a_tie_pays_the_full_price() -> None:
    t = table(seats=2, variants=["catan-for-two"])
    t.turn_of(0)
    t.state.robber = t.state.board.topo.land_hexes[0]
    t.rejects(FishRemoveRobber(seat=0, tokens=(1,)), "fishermen.spend.no_change")
    t.when(FishRemoveRobber(seat=0, tokens=(1, 1)))


def test_fishermen_harbormaster_and_the_boot_stack_in_either_order() -> None:
    for specs in ([FISHERMEN, ModuleSpec(name="harbormaster")],
                  [ModuleSpec(name="harbormaster"), FISHERMEN]):
        t = Table(seats=3, modules=specs, setup=False)
        fx(t).boot = 0
        assert [t.state.rules.hooks.win_target(t.state, s) for s in range(3)] == [12, 11, 11]
