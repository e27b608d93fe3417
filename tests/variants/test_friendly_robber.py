"""The Friendly Robber (docs/rules/friendly-robber.md §2): one test per clause, on the beginner board
with pieces put in place and chance scripted; then complete random games with the module on."""

from __future__ import annotations

import pytest
from friendly_harbor_games import run_games

from events.commands import DiscardResources, MoveRobber, PlayKnight, RollDice
from events.events import CardStolen, DiscardRequired, ModuleSpec, RobberMoved
from services.rules.engine import RulesetError, new_game, pending
from services.rules.engine.testing import Table

DESERT = "(0,0)"


def table(seats: int, **params: int) -> Table:
    """An empty board (no set-up), seat 0 to roll; pieces are put in place by each test."""
    t = Table(seats=seats, modules=[ModuleSpec(name="friendly-robber", params=params)], setup=False)
    t.turn_of(0, rolled=False)
    return t


def put(t: Table, seat: int, *vertices: str, city: bool = False) -> None:
    for v in vertices:
        t.place(seat, t.vertex(v), city=city)


def roll_seven(t: Table, seat: int = 0) -> None:
    t.script("dice", (3, 4))
    t.when(RollDice(seat=seat))


def robber_hexes(t: Table) -> set[int]:
    return {o.hex for o in pending(t.state)[0].options if isinstance(o, MoveRobber)}


def three_seats() -> Table:
    """Seat 1 has 2 VP (protected); seats 0 and 2 have 3 VP each."""
    t = table(3)
    put(t, 0, "(1,-2)/(1,-1)/(2,-2)", city=True)
    put(t, 0, "(-2,2)/(-1,1)/(-1,2)")
    put(t, 1, "(0,1)/(0,2)/(1,1)", "(-2,0)/(-2,1)/(-1,0)")
    put(t, 2, "(1,0)/(2,-1)/(2,0)", city=True)
    put(t, 2, "(-1,-1)/(0,-2)/(0,-1)")
    return t


SEAT1_HEXES = ("(0,1)", "(0,2)", "(1,1)", "(-2,0)", "(-2,1)", "(-1,0)")

# Eight settlements, two per seat, that touch every land hex but (-2,0): with everybody at
# 2 VP (the moment right after set-up) and the robber on (-2,0), no hex is open.
EVERY_HEX = (
    ("(-3,2)/(-3,3)/(-2,2)", "(-1,2)/(0,1)/(0,2)"),
    ("(-3,1)/(-3,2)/(-2,1)", "(-1,0)/(-1,1)/(0,0)"),  # seat 1 is on the desert
    ("(-2,-1)/(-2,0)/(-1,-1)", "(0,-2)/(0,-1)/(1,-2)"),
    ("(1,-1)/(2,-2)/(2,-1)", "(1,0)/(1,1)/(2,0)"),
)

# Six settlements that touch every land hex except the desert, exactly once each.
EVERY_HEX_BUT_DESERT = (
    ("(-2,0)/(-2,1)/(-1,0)", "(-2,2)/(-1,1)/(-1,2)"),
    ("(-1,-1)/(0,-2)/(0,-1)", "(0,1)/(0,2)/(1,1)"),
    ("(1,-2)/(1,-1)/(2,-2)", "(1,0)/(2,-1)/(2,0)"),
)


def everybody_protected() -> Table:
    t = table(4)
    for seat, pair in enumerate(EVERY_HEX):
        put(t, seat, *pair)
    t.state.robber = t.hex("(-2,0)")
    return t


def robber_on_desert_every_other_hex_protected(roller: int) -> Table:
    """Seats 1-3 protected on every non-desert hex; seat 0 has 3 VP next to the desert."""
    t = table(4)
    for seat, pair in enumerate(EVERY_HEX_BUT_DESERT, start=1):
        put(t, seat, *pair)
    put(t, 0, "(-1,0)/(0,-1)/(0,0)", city=True)
    put(t, 0, "(0,0)/(0,1)/(1,0)")
    t.turn_of(roller, rolled=False)
    assert t.state.robber == t.hex(DESERT)
    return t


# --- §2.2 the robber may not go next to a protected player ---------------------------------


def test_friendly_robber_hex_protected_the_robber_cannot_go_next_to_a_two_vp_player() -> None:
    t = three_seats()
    roll_seven(t)
    open_hexes = robber_hexes(t)
    for name in SEAT1_HEXES:
        assert t.hex(name) not in open_hexes
        t.rejects(MoveRobber(seat=0, hex=t.hex(name)), "friendly_robber.hex.protected")
    t.rejects(MoveRobber(seat=0, hex=t.hex("(1,1)"), victim=1), "friendly_robber.hex.protected")
    assert t.hex("(2,0)") in open_hexes
    assert t.hex("(-1,-1)") in open_hexes


def test_friendly_robber_a_player_with_three_vp_is_robbed_as_usual() -> None:
    t = three_seats()
    t.give(2, ore=2)
    roll_seven(t)
    t.script("steal", "ore")
    events = t.when(MoveRobber(seat=0, hex=t.hex("(2,0)"), victim=2))
    assert events[-1] == CardStolen(thief=0, victim=2, resource="ore", n=0)
    assert t.hand(0) == {"ore": 1}


def test_friendly_robber_hex_protected_applies_to_the_knight_too() -> None:
    t = three_seats()
    t.give_dev(0, "knight")
    t.when(PlayKnight(seat=0))
    assert not robber_hexes(t) & {t.hex(h) for h in SEAT1_HEXES}
    t.rejects(MoveRobber(seat=0, hex=t.hex("(-1,0)")), "friendly_robber.hex.protected")
    t.when(MoveRobber(seat=0, hex=t.hex("(2,0)"), victim=2))


def test_friendly_robber_hex_protected_counts_public_vp_so_a_hidden_vp_card_does_not_lift_it() -> None:
    t = three_seats()
    t.give_dev(1, "victory_point")  # seat 1 now has 3 VP, of which 2 public (docs/rules/README.md §0.3)
    roll_seven(t)
    t.rejects(MoveRobber(seat=0, hex=t.hex("(0,2)")), "friendly_robber.hex.protected")


def test_friendly_robber_hex_protected_covers_a_player_below_the_start_vp() -> None:
    t = three_seats()
    t.state.players[1].settlements.discard(t.vertex("(-2,0)/(-2,1)/(-1,0)"))
    t.state.vertex_owner[t.vertex("(-2,0)/(-2,1)/(-1,0)")] = -1
    t.state.vertex_level[t.vertex("(-2,0)/(-2,1)/(-1,0)")] = 0
    roll_seven(t)  # seat 1 now has 1 VP: still protected (DECISION §2.1: <=)
    t.rejects(MoveRobber(seat=0, hex=t.hex("(0,2)"), victim=1), "friendly_robber.hex.protected")


def test_friendly_robber_hex_protected_a_city_of_a_protected_player_closes_its_hexes_too() -> None:
    """docs/rules/friendly-robber.md §2.2: "not adjacent to any building (settlement or city)" — a player whose only
    building is a city has 2 VP and is protected around it."""
    t = three_seats()
    for v in ("(0,1)/(0,2)/(1,1)", "(-2,0)/(-2,1)/(-1,0)"):  # seat 1 keeps one building, a city
        t.state.players[1].settlements.discard(t.vertex(v))
        t.state.vertex_owner[t.vertex(v)] = -1
        t.state.vertex_level[t.vertex(v)] = 0
    put(t, 1, "(-1,2)/(0,1)/(0,2)", city=True)
    roll_seven(t)
    for name in ("(-1,2)", "(0,1)", "(0,2)"):
        t.rejects(MoveRobber(seat=0, hex=t.hex(name)), "friendly_robber.hex.protected")
    assert t.hex("(-2,0)") in robber_hexes(t)


def test_friendly_robber_hex_protected_also_shields_the_mover_own_buildings() -> None:
    """The rule names the hex, not the victim: a protected mover cannot block its own hexes
    either (literal reading, friendly_robber.py design note)."""
    t = three_seats()
    t.turn_of(1, rolled=False)
    roll_seven(t, seat=1)
    t.rejects(MoveRobber(seat=1, hex=t.hex("(0,2)")), "friendly_robber.hex.protected")
    assert not robber_hexes(t) & {t.hex(h) for h in SEAT1_HEXES}


def test_friendly_robber_start_vp_is_a_parameter_for_scenarios_that_start_higher() -> None:
    t = table(3, start_vp=3)
    put(t, 0, "(1,-2)/(1,-1)/(2,-2)", city=True)
    put(t, 0, "(-2,2)/(-1,1)/(-1,2)", "(-2,0)/(-2,1)/(-1,0)")  # 4 VP
    put(t, 2, "(1,0)/(2,-1)/(2,0)", city=True)
    put(t, 2, "(-1,-1)/(0,-2)/(0,-1)")  # 3 VP: protected when the start is 3
    roll_seven(t)
    t.rejects(MoveRobber(seat=0, hex=t.hex("(2,0)"), victim=2), "friendly_robber.hex.protected")


def test_friendly_robber_rejects_bad_parameters() -> None:
    for params in ({"start_vp": -1}, {"start": 2}):
        spec = ModuleSpec(name="friendly-robber", params=params)  # type: ignore[arg-type]
        with pytest.raises((RulesetError, ValueError)):
            new_game("bad", 3, b"seed", modules=[spec])


# --- §2.3 no open hex: the desert, or stay there --------------------------------------------


def test_friendly_robber_hex_desert_if_no_hex_is_legal_the_robber_goes_to_the_desert() -> None:
    t = everybody_protected()
    roll_seven(t)
    desert = t.hex(DESERT)
    assert pending(t.state)[0].options == [MoveRobber(seat=0, hex=desert)]
    t.rejects(MoveRobber(seat=0, hex=t.hex("(2,0)")), "friendly_robber.hex.desert")
    t.rejects(MoveRobber(seat=0, hex=t.hex("(-2,0)")), "base.robber.same_hex")
    assert t.when(MoveRobber(seat=0, hex=desert)) == [RobberMoved(seat=0, hex=desert)]
    assert t.state.robber == desert


def test_friendly_robber_hex_desert_a_robber_already_on_the_desert_stays() -> None:
    t = robber_on_desert_every_other_hex_protected(roller=0)
    roll_seven(t)
    desert = t.hex(DESERT)
    assert pending(t.state)[0].options == [MoveRobber(seat=0, hex=desert)]
    t.rejects(MoveRobber(seat=0, hex=t.hex("(1,1)")), "friendly_robber.hex.desert")
    assert t.when(MoveRobber(seat=0, hex=desert)) == [RobberMoved(seat=0, hex=desert)]
    assert t.state.robber == desert
    assert t.state.phase == "main"


def test_friendly_robber_the_seven_still_resolves_when_the_robber_stays_on_the_desert() -> None:
    # Seat 1 (protected itself) rolls; seat 0 (3 VP) sits on the desert and is robbed there.
    t = robber_on_desert_every_other_hex_protected(roller=1)
    t.give(0, grain=1)
    roll_seven(t, seat=1)
    desert = t.hex(DESERT)
    assert pending(t.state)[0].options == [MoveRobber(seat=1, hex=desert, victim=0)]
    t.script("steal", "grain")
    events = t.when(MoveRobber(seat=1, hex=desert, victim=0))
    assert events == [
        RobberMoved(seat=1, hex=desert, victim=0),
        CardStolen(thief=1, victim=0, resource="grain", n=0),
    ]


# --- §2.4 a protected player is never robbed, not even on the desert ------------------------


def test_friendly_robber_victim_protected_no_steal_from_a_protected_player_on_the_desert() -> None:
    t = everybody_protected()
    t.give(1, wool=3)  # seat 1 has a settlement on the desert and cards to lose
    roll_seven(t)
    desert = t.hex(DESERT)
    t.rejects(MoveRobber(seat=0, hex=desert, victim=1), "friendly_robber.victim.protected")
    t.when(MoveRobber(seat=0, hex=desert))
    assert t.hand(1) == {"wool": 3}


def test_friendly_robber_a_seat_away_from_the_hex_is_refused_by_the_base_rule() -> None:
    t = three_seats()
    t.give(1, wool=1)
    roll_seven(t)
    t.rejects(MoveRobber(seat=0, hex=t.hex("(2,0)"), victim=1), "base.robber.victim")


# --- §2.5 discards are unchanged ------------------------------------------------------------


def test_friendly_robber_discards_still_happen_for_protected_players() -> None:
    t = three_seats()
    t.give(1, lumber=5, brick=4)
    roll_seven(t)
    assert t.log[-1] == DiscardRequired(counts=(0, 4, 0))
    t.rejects(MoveRobber(seat=0, hex=t.hex("(2,0)")), "base.turn.wrong_phase")
    t.when(DiscardResources(seat=1, resources={"lumber": 4}))
    assert t.hand(1) == {"lumber": 1, "brick": 4}
    assert t.state.phase == "robber"


def test_friendly_robber_the_prompt_lists_only_open_hexes_and_unprotected_victims() -> None:
    t = three_seats()
    roll_seven(t)
    options = pending(t.state)[0].options
    assert all(isinstance(o, MoveRobber) for o in options)
    assert not {o.hex for o in options} & {t.hex(h) for h in SEAT1_HEXES}  # type: ignore[attr-defined]
    assert {o.victim for o in options} == {None, 2}  # type: ignore[attr-defined]


# --- complete games -------------------------------------------------------------------------


@pytest.mark.slow  # a sweep: the interpreted pass runs it, the compiled pass does not (Makefile)
def test_friendly_robber_500_random_games_keep_every_invariant_and_replay_exactly() -> None:
    counts = run_games(["friendly-robber"], 500, tag="fr")
    assert counts["games"] == 500
    assert counts["robber_with_protected"] > 1000  # the rule was in play
    assert counts["won"] > 450


def test_friendly_robber_heuristic_bots_play_complete_games() -> None:
    counts = run_games(["friendly-robber"], 12, kind="heuristic", tag="fr-h")
    assert counts["won"] == 12


@pytest.mark.slow  # a sweep: the interpreted pass runs it, the compiled pass does not (Makefile)
def test_friendly_robber_with_harbormaster_200_random_games() -> None:
    counts = run_games(["friendly-robber", "harbormaster"], 200, tag="pair")
    assert counts["games"] == 200
    assert counts["robber_with_protected"] > 0
    assert counts["HarbormasterChanged"] > 0
