"""Every rule id of the Rivers of Catan (`rivers.…`) is covered by a test in this directory:
named by a test function (`rivers.gold.buy` → `test_rivers_gold_buy_…`), or asserted as a
string (`t.rejects(cmd, "rivers.gold.buy")`), in its tests or its helpers. A new rule id without
a test fails here; so does a rule id the rules doc does not list, or one it lists that the engine
does not know."""

from __future__ import annotations

import re
from pathlib import Path

from scenario_kit import documented_rule_ids, registered_rule_ids, uncovered_rule_ids

from services.rules.engine.scenarios.rivers import MODULE  # noqa: F401  (registers the ids)

HERE = Path(__file__).parent


def test_every_rivers_rule_id_is_named_or_asserted_by_a_test() -> None:
    assert len(registered_rule_ids("rivers.")) >= 24
    missing = uncovered_rule_ids("rivers.", HERE, files="*.py", strings=True)
    assert not missing, f"rivers rule ids without a test: {missing}"


def test_the_rules_doc_and_the_engine_list_the_same_rivers_rule_ids() -> None:
    documented = documented_rule_ids("rivers.md", r"^\| `(rivers\.[a-z_.]+)` \|", re.MULTILINE)
    assert documented == set(registered_rule_ids("rivers."))
