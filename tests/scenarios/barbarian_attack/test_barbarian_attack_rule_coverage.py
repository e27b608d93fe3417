"""Every rule id of Barbarian Attack is covered by a test in this directory: named by a test
function (`barbarian_attack.landing.totals` → `test_barbarian_attack_landing_totals_…`). A new
rule id without a test fails here (tests/scenarios/scenario_kit.py)."""

from __future__ import annotations

from pathlib import Path

from scenario_kit import registered_rule_ids, uncovered_rule_ids

HERE = Path(__file__).parent


def test_every_barbarian_attack_rule_id_is_named_by_a_test() -> None:
    assert len(registered_rule_ids("barbarian_attack.")) >= 37
    missing = uncovered_rule_ids("barbarian_attack.", HERE)
    assert not missing, f"rule ids without a test: {missing}"
