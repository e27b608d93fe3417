"""The Rivers of Catan through the command line and Redis (the embedded Valkey, the rules
service, bot workers): `hexlog play --scenario rivers [--variant …]` plays a full game whose VP
add up, `hexlog replay` tells its gold and bridges in words, `hexlog audit` passes;
`hexlog rulesets` lists it with its combinations; a combination the seats forbid is refused
with the reason before anything starts."""

from __future__ import annotations

from cli_helpers import Hexlog, one_line_error
from scenario_kit import audit_passes, play, replay

AWARD = 2


def test_play_replay_and_audit_a_rivers_game_through_redis(hexlog: Hexlog) -> None:
    game = play(hexlog, "--scenario", "rivers", "--seed", "rivers-cli")
    assert {"name": "rivers", "params": {}} in game["modules"]
    assert game["vp_target"] == 10
    assert game["winner"] is not None
    for p in game["players"]:
        awards = [a for a in p["awards"] if a != "harbormaster"]
        assert p["vp"] == (p["settlements"] + 2 * p["cities"] + AWARD * len(awards)
                           + p["vp_cards"] + p["module_vp"]), p
        assert p["module_vp"] in (-2, 0, 1)  # the Settlers
    assert game["scores"][game["winner"]] >= 10

    told = replay(hexlog, game["game_id"])
    assert "gold for the settlement by the river" in told or "gold for the road" in told
    assert "OK" in audit_passes(hexlog, game["game_id"])


def test_play_rivers_with_every_variant_for_two(hexlog: Hexlog) -> None:
    game = play(hexlog, "--scenario", "rivers", "--variant", "catan-for-two",
                "--variant", "event-cards", "--variant", "friendly-robber",
                "--variant", "harbormaster", "--seed", "rivers-two")
    assert game["vp_target"] == 11
    audit_passes(hexlog, game["game_id"])


def test_rulesets_lists_rivers_with_what_it_combines_with(hexlog: Hexlog) -> None:
    shown = hexlog.run("rulesets")
    assert shown.code == 0, shown.err
    block = shown.out.split("  rivers ", 1)[1].split("\nvariants", 1)[0]
    assert "2-4 seats" in block
    assert ("combines with: catan-for-two (2 seats), event-cards, friendly-robber, harbormaster, "
            "undo, victory-points") in block


def test_play_refuses_a_combination_the_seats_forbid_with_the_reason(hexlog: Hexlog) -> None:
    one_line_error(hexlog.run("play", "--scenario", "rivers", "--variant", "catan-for-two",
                              "--bots", "random,random,random"), 2,
                   "catan-for-two is played with 2 seats, not 3")
