"""The Rivers of Catan with the variants (docs/rules/rivers.md §7.7, combinations.md §13.3):
the swamps stand in for the desert; Catan for Two owes neutral bridges. Every combination of
the four variants the seat counts allow assembles and plays; none is refused."""

from __future__ import annotations

import itertools

import pytest
from rivers_helpers import BRIDGE_SITE, NEAR_SITE, RIVERS, paid_up, table

from events.catan_for_two import (
    BuildNeutralRoad,
    RobberSentToDesert,
    SendRobberToDesert,
    TradeTokensGained,
)
from events.commands import MoveRobber, PlaceSettlement, PlayKnight, RollDice
from events.event_cards import RobberFled
from events.events import ModuleSpec
from events.rivers import BuildBridge, BuildNeutralBridge, NeutralBridgeBuilt, NeutralBridgeRequired
from services.rules.engine import new_game, pending
from services.rules.engine.modules import check_combination
from services.rules.engine.scenarios.rivers.common import NEUTRAL_BRIDGE
from services.rules.engine.state import MAIN, ROBBER, SETUP
from services.rules.engine.testing import Table
from services.rules.engine.variants.catan_for_two.common import NEUTRAL

TWO = ModuleSpec(name="catan-for-two")
FRIENDLY = ModuleSpec(name="friendly-robber")
EVENTS = ModuleSpec(name="event-cards")
HARBOR = ModuleSpec(name="harbormaster")
VARIANTS = (FRIENDLY, EVENTS, HARBOR, TWO)
SWAMPS = ("(-2,2)", "(0,2)")


def swamps(t: Table) -> list[int]:
    return sorted(t.hex(h) for h in SWAMPS)


@pytest.mark.parametrize("k", range(5))
def test_every_variant_combination_is_accepted_with_the_seats_it_allows(k: int) -> None:
    for chosen in itertools.combinations(VARIANTS, k):
        for seats in (2, 3, 4):
            specs = (RIVERS, *chosen)
            if TWO in chosen and seats != 2:
                with pytest.raises(ValueError, match="catan-for-two is played with 2 seats"):
                    check_combination(specs, seats)
                continue
            check_combination(specs, seats)
            new_game("g", seats, b"combo", modules=specs)


def test_rivers_friendly_robber_swamp_no_legal_hex_means_a_swamp_of_the_movers_choice() -> None:
    # Protected up to 10 VP, so that seat 2 stays protected while its settlements cover the map.
    t = table(modules=[ModuleSpec(name="friendly-robber", params={"start_vp": 10})])
    for s, v in enumerate(("(-1,-1)/(-1,0)/(0,-1)", "(1,-1)/(1,0)/(2,-1)", "(-1,1)/(-1,2)/(0,1)")):
        t.place(s, t.vertex(v))
    paid_up(t)
    t.state.robber = t.hex("(0,0)")
    t.give_dev(0, "knight")
    t.when(PlayKnight(seat=0))
    assert t.state.phase == ROBBER
    allowed = t.state.rules.hooks.robber_hexes(t.state, 0)
    topo = t.state.board.topo
    open_hexes = [h for h in topo.land_hexes
                  if all(t.state.vertex_owner[v] < 0 for v in topo.hex_vertices[h])]
    assert sorted(allowed) == sorted(h for h in open_hexes if h != t.state.robber)
    # Every land hex touched: cover the rest with seat 2's settlements and ask again.
    for h in open_hexes:
        v = topo.hex_vertices[h][0]
        t.state.vertex_owner[v] = 2
        t.state.players[2].settlements.add(v)
    assert sorted(t.state.rules.hooks.robber_hexes(t.state, 0)) == swamps(t)
    t.when(MoveRobber(seat=0, hex=t.hex("(0,2)")))  # the mover's choice: the second swamp
    assert t.state.robber == t.hex("(0,2)")


def test_rivers_event_cards_robber_flees_to_a_swamp() -> None:
    t = Table(seats=3, modules=[RIVERS, EVENTS])
    t.state.robber = t.hex("(0,1)")
    t.script("eventdeck", (4, "robber_flees"))
    events = t.when(RollDice(seat=t.state.current))
    fled = [e for e in events if isinstance(e, RobberFled)]
    assert fled == [RobberFled(hex=t.hex("(-2,2)"))]
    assert t.state.robber == t.hex("(-2,2)")


def test_rivers_event_cards_robber_flees_from_a_swamp_stays() -> None:
    t = Table(seats=3, modules=[RIVERS, EVENTS])
    t.state.robber = t.hex("(0,2)")
    t.script("eventdeck", (4, "robber_flees"))
    events = t.when(RollDice(seat=t.state.current))
    assert not [e for e in events if isinstance(e, RobberFled)]
    assert t.state.robber == t.hex("(0,2)")


def two_table(setup: bool = False) -> Table:
    t = Table(seats=2, modules=[RIVERS, TWO], setup=setup)
    if not setup:
        t.turn_of(0)
    return t


def test_rivers_two_player_swamp_tokens_a_settlement_by_a_swamp_gains_2() -> None:
    t = two_table()
    t.state.phase = SETUP
    seat = t.state.current
    inland = t.vertex("(-2,2)/(-1,1)/(-1,2)")  # the swamp (-2,2), not on the coast
    events = t.when(PlaceSettlement(seat=seat, vertex=inland))
    assert [e for e in events if isinstance(e, TradeTokensGained)] == [
        TradeTokensGained(seat=seat, tokens=2, reason="swamp")]


def test_rivers_two_player_swamp_tokens_by_a_swamp_on_the_coast_gains_3() -> None:
    t = two_table()
    t.state.phase = SETUP
    seat = t.state.current
    events = t.when(PlaceSettlement(seat=seat, vertex=t.vertex("(0,2)/(0,3)/(1,2)")))
    assert [e for e in events if isinstance(e, TradeTokensGained)] == [
        TradeTokensGained(seat=seat, tokens=3, reason="swamp+coast")]


def test_rivers_two_player_robber_swamp_the_token_action_sends_it_to_a_swamp() -> None:
    t = two_table()
    t.state.robber = t.hex("(1,0)")
    events = t.when(SendRobberToDesert(seat=0))
    assert [e for e in events if isinstance(e, RobberSentToDesert)] == [
        RobberSentToDesert(seat=0, hex=t.hex("(-2,2)"))]
    assert t.state.robber == t.hex("(-2,2)")
    t.turn_of(1)
    t.state.ext["catan-for-two"].action_used = False
    t.rejects(SendRobberToDesert(seat=1), "catan_for_two.robber.at_desert")


def test_rivers_two_player_neutral_bridge_owed_after_a_bridge() -> None:
    t = two_table()
    t.place(0, t.vertex(NEAR_SITE))
    paid_up(t)
    t.give(0, lumber=1, brick=2)
    events = t.when(BuildBridge(seat=0, edge=t.edge(BRIDGE_SITE)))
    assert NeutralBridgeRequired(seat=0, piece="bridge") in events
    assert t.state.phase == NEUTRAL_BRIDGE
    prompt = pending(t.state)[0]
    # Neutral B starts at (0,1)/(1,0)/(1,1), an end of the bridge site (0,1)/(1,0).
    site = t.edge("(0,1)/(1,0)")
    assert prompt.options == [BuildNeutralBridge(seat=0, neutral=3, edge=site)]
    t.rejects(BuildNeutralBridge(seat=0, neutral=2, edge=site), "rivers.bridge.connect")
    t.rejects(BuildNeutralBridge(seat=0, neutral=3, edge=t.edge("(0,2)/(0,3)")), "rivers.bridge.connect")
    events = t.when(BuildNeutralBridge(seat=0, neutral=3, edge=site))
    assert events[0] == NeutralBridgeBuilt(seat=0, neutral=3, edge=site)
    assert t.state.phase == MAIN
    assert site in t.state.players[3].pieces["bridge"]
    assert t.state.ext["rivers"].gold[:2] == [3, 0]  # the neutral earns nothing


def test_rivers_two_player_neutral_bridge_a_road_when_no_bridge_fits() -> None:
    t = two_table()
    t.piece(1, "bridge", "(0,1)/(1,0)")  # the one site the neutrals reach is taken
    t.place(0, t.vertex(NEAR_SITE))
    paid_up(t)
    t.give(0, lumber=1, brick=2)
    events = t.when(BuildBridge(seat=0, edge=t.edge(BRIDGE_SITE)))
    assert NeutralBridgeRequired(seat=0, piece="road") in events
    assert t.state.phase == NEUTRAL
    options = pending(t.state)[0].options
    assert options
    assert all(isinstance(o, BuildNeutralRoad) for o in options)
    t.when(options[0])
    assert t.state.phase == MAIN


def test_rivers_two_player_neutral_roads_never_on_a_bridge_site() -> None:
    t = two_table()
    t.state.phase = NEUTRAL
    t.state.ext["catan-for-two"].due = "road"
    t.rejects(BuildNeutralRoad(seat=0, neutral=3, edge=t.edge("(0,1)/(1,0)")), "rivers.road.bridge_site")


def test_rivers_with_another_scenario_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from typing import Any

    from services.rules.engine.modules import MODULES, RulesetError
    from services.rules.engine.ruleset import Module

    class OtherScenario(Module):  # type: ignore[type-arg]
        name = "other-scenario"
        kind = "scenario"

        def install(self, rules: Any, params: Any) -> None:
            pass

    monkeypatch.setitem(MODULES, "other-scenario", OtherScenario())
    with pytest.raises(RulesetError, match="one scenario per game"):
        check_combination((RIVERS, ModuleSpec(name="other-scenario")), 4)
