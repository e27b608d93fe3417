"""Every rule id of Traders & Barbarians has a test named after it in this directory
(`traders_and_barbarians.wagon.toll` → `test_traders_and_barbarians_wagon_toll…`); the ids and
docs/rules/traders-and-barbarians.md list the same rules."""

from __future__ import annotations

from pathlib import Path

from scenario_kit import documented_rule_ids, registered_rule_ids, uncovered_rule_ids

from services.rules.engine.scenarios.traders_and_barbarians.data import RULE_TEXTS

HERE = Path(__file__).parent
PREFIX = "traders_and_barbarians."


def test_every_traders_and_barbarians_rule_id_has_a_test_named_after_it() -> None:
    assert len(registered_rule_ids(PREFIX)) >= 30
    missing = uncovered_rule_ids(PREFIX, HERE, anchored=True)
    assert not missing, f"rule ids without a test named after them: {missing}"


def test_the_rule_ids_are_the_documents() -> None:
    documented = documented_rule_ids("traders-and-barbarians.md",
                                     r"`(traders_and_barbarians\.[a-z_.0-9]+)`")
    assert set(RULE_TEXTS) <= documented
