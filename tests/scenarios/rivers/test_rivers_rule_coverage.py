"""Every rule id of the Rivers of Catan (`rivers.…`) is covered by a test in this directory:
named by a test function (`rivers.gold.buy` → `test_rivers_gold_buy_…`), or asserted as a
string (`t.rejects(cmd, "rivers.gold.buy")`). A new rule id without a test fails here; so does
a rule id the rules doc does not list, or one it lists that the engine does not know."""

from __future__ import annotations

import re
from pathlib import Path

from services.rules.engine.rules import RULES
from services.rules.engine.scenarios.rivers import MODULE  # noqa: F401  (registers the ids)

HERE = Path(__file__).parent
DOC = Path(__file__).parents[3] / "docs" / "rules" / "rivers.md"
TEST_NAME = re.compile(r"^\s*def\s+(test_\w+)\s*\(", re.MULTILINE)


def test_every_rivers_rule_id_is_named_or_asserted_by_a_test() -> None:
    files = [p.read_text() for p in sorted(HERE.glob("*.py")) if p.name != Path(__file__).name]
    names = {n for text in files for n in TEST_NAME.findall(text)}
    text = "\n".join(files)
    ids = sorted(r for r in RULES if r.startswith("rivers."))
    assert len(ids) >= 24
    missing = []
    for rule_id in ids:
        word = re.compile(rf"(?:^|_){re.escape(rule_id.replace('.', '_'))}(?:_|$)")
        if f'"{rule_id}"' not in text and not any(word.search(n) for n in names):
            missing.append(rule_id)
    assert not missing, f"rivers rule ids without a test: {missing}"


def test_the_rules_doc_and_the_engine_list_the_same_rivers_rule_ids() -> None:
    documented = set(re.findall(r"^\| `(rivers\.[a-z_.]+)` \|", DOC.read_text(), re.MULTILINE))
    assert documented == {r for r in RULES if r.startswith("rivers.")}
