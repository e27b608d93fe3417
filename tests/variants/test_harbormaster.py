"""Harbormaster (docs/rules/harbormaster.md §4): one test per clause, on the beginner board with
pieces put in place and chance scripted; then complete random games with the module on (the
pair with the Friendly Robber is played in test_friendly_robber.py)."""

from __future__ import annotations

import pytest
from friendly_harbor_games import run_games

from events.commands import BuildCity, BuildSettlement, BuyDevelopmentCard
from events.events import CityBuilt, GameFinished, ModuleSpec
from events.harbormaster import HarbormasterChanged
from services.rules.engine import RULES, public_vp, score, view
from services.rules.engine.chance import SeededDealer
from services.rules.engine.state import NO_ONE
from services.rules.engine.testing import Table
from services.rules.engine.variants.harbormaster import derive_harbormaster, next_holder

# Harbor vertices of the beginner board (docs/rules/base.md §1.2 table), two per harbor.
H_3TO1_N = "(0,-3)/(0,-2)/(1,-3)"
H_WOOL = "(1,-2)/(2,-3)/(2,-2)"
H_3TO1_E = "(2,0)/(2,1)/(3,0)"
H_BRICK = "(0,2)/(1,1)/(1,2)"
# Inland vertices (no harbor), pairwise apart.
INLAND = ("(-1,0)/(-1,1)/(0,0)", "(0,-1)/(0,0)/(1,-1)", "(-2,1)/(-2,2)/(-1,1)",
          "(-1,-1)/(-1,0)/(0,-1)", "(0,1)/(0,2)/(1,1)")


def table(seats: int = 3, harbormaster: bool = True) -> Table:
    modules = [ModuleSpec(name="harbormaster")] if harbormaster else []
    t = Table(seats=seats, modules=modules, setup=False)
    t.turn_of(0)
    return t


def city(t: Table, seat: int, vertex: str) -> list[object]:
    t.turn_of(seat)
    t.give(seat, ore=3, grain=2)
    return list(t.when(BuildCity(seat=seat, vertex=t.vertex(vertex))))


def holder(t: Table) -> int:
    held: int = t.state.ext["harbormaster"]
    return held


# --- harbor points and the card -------------------------------------------------------------


def test_harbormaster_card_first_to_three_harbor_points_takes_it() -> None:
    t = table()
    t.place(0, t.vertex(H_3TO1_N))
    t.place(0, t.vertex(H_WOOL))
    t.place(1, t.vertex(H_BRICK))
    assert holder(t) == NO_ONE  # 2 points are not enough
    events = city(t, 0, H_3TO1_N)  # city on a harbor: 2 points, 3 in all
    assert events == [
        CityBuilt(seat=0, vertex=t.vertex(H_3TO1_N)),
        HarbormasterChanged(holder=0, points=(3, 1, 0)),
    ]
    assert events[-1].describe().startswith("Harbormaster card to seat 0")  # type: ignore[attr-defined]
    assert holder(t) == 0
    assert score(t.state) == (5, 1, 0)  # settlement 1 + city 2 + card 2
    assert public_vp(t.state, 0) == 5  # the card is public
    assert view(t.state, 1).ext["harbormaster"] == {"holder": 0, "points": [3, 1, 0]}


def test_harbormaster_card_first_can_also_come_with_a_third_harbor_settlement() -> None:
    t = table()
    t.place(0, t.vertex(H_3TO1_N), city=True)
    t.road(0, t.edge("(1,-2)/(2,-2)"))
    t.give(0, brick=1, lumber=1, wool=1, grain=1)
    events = t.when(BuildSettlement(seat=0, vertex=t.vertex(H_WOOL)))
    assert events[-1] == HarbormasterChanged(holder=0, points=(3, 0, 0))


def test_harbormaster_card_tie_keeps_it_with_the_holder() -> None:
    t = table()
    t.place(0, t.vertex(H_3TO1_N))
    t.place(0, t.vertex(H_WOOL))
    city(t, 0, H_3TO1_N)
    t.place(1, t.vertex(H_3TO1_E))
    t.place(1, t.vertex(H_BRICK))
    events = city(t, 1, H_3TO1_E)  # seat 1 reaches 3 = the holder's 3
    assert events == [CityBuilt(seat=1, vertex=t.vertex(H_3TO1_E))]
    assert holder(t) == 0


def test_harbormaster_card_exceed_more_points_than_the_holder_take_it() -> None:
    t = table()
    t.place(0, t.vertex(H_3TO1_N))
    t.place(0, t.vertex(H_WOOL))
    city(t, 0, H_3TO1_N)
    t.place(1, t.vertex(H_3TO1_E), city=True)
    t.place(1, t.vertex(H_BRICK))
    events = city(t, 1, H_BRICK)  # 4 > 3
    assert events[-1] == HarbormasterChanged(holder=1, points=(3, 4, 0))
    assert events[-1].describe() == "Harbormaster card to seat 1 (4 harbor points)"  # type: ignore[attr-defined]
    assert score(t.state) == (3, 4 + 2, 0)


def test_harbormaster_settlements_and_cities_away_from_harbors_give_no_points() -> None:
    t = table()
    for v in INLAND[:3]:
        t.place(0, t.vertex(v))
    assert city(t, 0, INLAND[0]) == [CityBuilt(seat=0, vertex=t.vertex(INLAND[0]))]
    assert view(t.state, 0).ext["harbormaster"]["points"] == [0, 0, 0]


# --- the DECISION for dropping points (docs/rules/harbormaster.md §4) -----------------------------------------


def test_harbormaster_card_drop_rules_for_the_holder() -> None:
    # next_holder(points, holder, active seat)
    assert next_holder([2, 0, 0], 0, 0) == NO_ONE  # below 3, nobody else has 3: the supply
    assert next_holder([1, 3, 0], 0, 2) == 1  # the unique leader with >= 3 takes it
    assert next_holder([2, 3, 3], 0, 1) == 0  # two tie above the holder: nobody exceeds all
    assert next_holder([2, 2, 1], 0, 1) == NO_ONE  # a tie below 3 is no claim either
    assert next_holder([3, 3, 0], NO_ONE, 1) == 1  # two at once with no holder: active first


def test_harbormaster_card_drop_a_holder_losing_its_harbor_city_returns_the_card() -> None:
    t = table()
    t.place(0, t.vertex(H_3TO1_N))
    t.place(0, t.vertex(H_WOOL))
    city(t, 0, H_3TO1_N)
    # Another module (a flood, a conquest) takes the city away.
    v = t.vertex(H_3TO1_N)
    t.state.players[0].cities.discard(v)
    t.state.vertex_owner[v] = NO_ONE
    t.state.vertex_level[v] = 0
    events = derive_harbormaster(t.state, SeededDealer(b"x"))
    assert events == [HarbormasterChanged(holder=None, points=(1, 0, 0))]
    assert events[0].describe() == "Harbormaster card back to the supply"


def test_harbormaster_rule_ids_are_registered() -> None:
    for rule_id in ("harbormaster.card.first", "harbormaster.card.tie", "harbormaster.card.exceed",
                    "harbormaster.card.drop", "harbormaster.win.target"):
        assert rule_id in RULES


# --- the win target -------------------------------------------------------------------------


def test_harbormaster_win_target_is_eleven_in_the_base_game() -> None:
    t = table()
    assert t.state.rules.hooks.win_target(t.state, 0) == 11
    assert view(t.state, 0).vp_target == 11
    assert table(harbormaster=False).state.rules.hooks.win_target(t.state, 0) == 10


def ten_vp_after_a_settlement(harbormaster: bool) -> tuple[Table, list[object]]:
    """Seat 0: 4 cities and a settlement inland (9 VP, no card), then builds a 6th building."""
    t = table(harbormaster=harbormaster)
    for v in INLAND[:4]:
        t.place(0, t.vertex(v), city=True)
    t.place(0, t.vertex(INLAND[4]))
    site = "(1,0)/(1,1)/(2,0)"
    t.road(0, t.edge("(1,0)/(1,1)"))
    t.give(0, brick=1, lumber=1, wool=1, grain=1)
    events = t.when(BuildSettlement(seat=0, vertex=t.vertex(site)))
    assert score(t.state)[0] == 10
    return t, list(events)


def test_harbormaster_win_target_ten_vp_without_the_card_does_not_win() -> None:
    t, events = ten_vp_after_a_settlement(harbormaster=True)
    assert not any(isinstance(e, GameFinished) for e in events)
    assert not t.state.finished


def test_harbormaster_win_target_eleven_vp_wins() -> None:
    t, _ = ten_vp_after_a_settlement(harbormaster=True)
    t.give(0, ore=1, wool=1, grain=1)
    t.script("devcard", "victory_point")
    events = t.when(BuyDevelopmentCard(seat=0))
    assert isinstance(events[-1], GameFinished)
    assert events[-1].winner == 0
    assert events[-1].scores[0] == 11


def test_harbormaster_win_target_the_same_ten_vp_win_without_the_module() -> None:
    t, events = ten_vp_after_a_settlement(harbormaster=False)
    assert isinstance(events[-1], GameFinished)
    assert events[-1].winner == 0


def test_harbormaster_win_target_the_card_counts_toward_eleven() -> None:
    t = table()
    for v in INLAND[:3]:
        t.place(0, t.vertex(v), city=True)
    t.place(0, t.vertex(H_3TO1_N))
    t.place(0, t.vertex(H_WOOL))
    events = city(t, 0, H_3TO1_N)  # 6 + 2 + 1 = 9 from pieces, + 2 for the card
    assert [type(e) for e in events] == [CityBuilt, HarbormasterChanged, GameFinished]
    assert events[-1] == GameFinished(winner=0, scores=(11, 0, 0), reason="victory",
                                      seed=t.dealer.seed_hex())


def test_harbormaster_setup_settlements_on_harbors_count() -> None:
    t = Table(seats=3, modules=[ModuleSpec(name="harbormaster")])
    points = view(t.state, None).ext["harbormaster"]["points"]
    assert points == [0, 1, 2]  # the default set-up puts seat 2 on two harbors
    assert holder(t) == NO_ONE


# --- complete games -------------------------------------------------------------------------


@pytest.mark.slow  # a sweep: the interpreted pass runs it, the compiled pass does not (Makefile)
def test_harbormaster_500_random_games_keep_every_invariant_and_replay_exactly() -> None:
    counts = run_games(["harbormaster"], 500, tag="hm")
    assert counts["games"] == 500
    assert counts["HarbormasterChanged"] > 50


def test_harbormaster_heuristic_bots_play_complete_games() -> None:
    counts = run_games(["harbormaster"], 12, kind="heuristic", tag="hm-h")
    assert counts["won"] == 12

