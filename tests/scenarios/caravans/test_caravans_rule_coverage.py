"""Every rule id of The Caravans (docs/rules/caravans.md §8) has a test in this directory
named after it (`caravans.vote.majority` → `test_caravans_vote_majority_…`), and every id the
rules doc lists is registered by the engine (the doc and the code stay in sync)."""

from __future__ import annotations

from pathlib import Path

from scenario_kit import documented_rule_ids, registered_rule_ids, uncovered_rule_ids

import services.rules.engine.scenarios.caravans  # noqa: F401  (registers the ids)

HERE = Path(__file__).parent


def test_every_caravans_rule_id_is_named_by_a_test() -> None:
    assert len(registered_rule_ids("caravans.")) >= 25
    missing = uncovered_rule_ids("caravans.", HERE)
    assert not missing, f"caravans rule ids without a test: {missing}"


def test_the_rules_doc_and_the_registered_ids_agree() -> None:
    documented = documented_rule_ids("caravans.md", r"`(caravans\.[a-z_]+\.[a-z_]+)`")
    assert documented == set(registered_rule_ids("caravans."))
