"""Every rule id of the Fishermen (docs/rules/fishermen.md, `fishermen.*`) has a test in this
directory whose name contains the id with dots as underscores (`fishermen.boot.pass` →
`test_fishermen_boot_pass_…`). A new rule id without a test fails here; so does a rule id of the
doc that the engine does not register."""

from __future__ import annotations

from pathlib import Path

from scenario_kit import documented_rule_ids, registered_rule_ids, uncovered_rule_ids

import services.rules.engine.scenarios.fishermen  # noqa: F401  (registers the ids)

HERE = Path(__file__).parent


def test_every_fishermen_rule_id_is_named_by_a_test() -> None:
    assert len(registered_rule_ids("fishermen.")) >= 25
    missing = uncovered_rule_ids("fishermen.", HERE)
    assert not missing, f"fishermen rule ids without a test naming them: {missing}"


def test_every_rule_id_of_the_doc_is_registered_and_every_registered_one_documented() -> None:
    documented = documented_rule_ids("fishermen.md", r"`(fishermen\.[a-z_.]+)`")
    assert documented == set(registered_rule_ids("fishermen."))
