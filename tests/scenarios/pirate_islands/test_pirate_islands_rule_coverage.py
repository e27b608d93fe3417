"""Every rule id of The Pirate Islands is covered by a test in this directory: named by a test
function (`pirate_islands.fleet.move` → `test_pirate_islands_fleet_move…`) or asserted as a
string (`t.rejects(cmd, "pirate_islands.ship.lane")`), in its tests or its helpers. A new rule id
without a test fails here; so does a rule id in the doc that the code does not register, or the
reverse."""

from __future__ import annotations

from pathlib import Path

from scenario_kit import documented_rule_ids, registered_rule_ids, uncovered_rule_ids

HERE = Path(__file__).parent


def test_every_pirate_islands_rule_id_is_named_or_asserted_by_a_test() -> None:
    assert len(registered_rule_ids("pirate_islands.")) >= 30
    missing = uncovered_rule_ids("pirate_islands.", HERE, files="*.py", strings=True)
    assert not missing, f"rule ids without a test: {missing}"


def test_the_doc_and_the_code_name_the_same_rule_ids() -> None:
    documented = documented_rule_ids("pirate-islands.md", r"`(pirate_islands\.[a-z_.]+)`")
    assert documented == set(registered_rule_ids("pirate_islands."))
