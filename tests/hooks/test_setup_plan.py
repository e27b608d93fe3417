"""Ruleset `setup_rounds`: a set-up plan other than settlement + road twice (Barbarian Attack
and Traders & Barbarians: a settlement, then a city)."""

from toy import toy

from services.rules.engine.ruleset import SetupRound
from services.rules.engine.state import ROLL, Rules


def settlement_then_city(rules: Rules) -> None:
    rules.settings(setup=(SetupRound(), SetupRound(piece="city", resources=True)))


def test_the_second_set_up_building_is_a_city() -> None:
    t = toy("toy-setup-city", settlement_then_city, seats=3)
    assert t.state.phase == ROLL
    for p in t.state.players:
        assert len(p.settlements) == 1
        assert len(p.cities) == 1
        assert len(p.roads) == 2
