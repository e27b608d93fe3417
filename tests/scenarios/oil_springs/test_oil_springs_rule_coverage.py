"""Every rule id of Oil Springs is covered by a test in this directory: named by a test function
(`oil_springs.disaster.flood` → `test_oil_springs_disaster_flood_…`) or asserted as a string
(`t.rejects(cmd, "oil_springs.use.marker_cap")`). A new rule id without a test fails here."""

from __future__ import annotations

from pathlib import Path

from scenario_kit import registered_rule_ids, uncovered_rule_ids

import services.rules.engine.scenarios.oil_springs  # noqa: F401  (registers the ids)

HERE = Path(__file__).parent


def test_every_oil_springs_rule_id_is_named_or_asserted_by_a_test() -> None:
    assert len(registered_rule_ids("oil_springs.")) >= 25
    missing = uncovered_rule_ids("oil_springs.", HERE, strings=True)
    assert not missing, f"Oil Springs rule ids without a test: {missing}"
