"""Every rule id of The Caravans (docs/rules/caravans.md §8) has a test in this directory
named after it (`caravans.vote.majority` → `test_caravans_vote_majority_…`), and every id the
rules doc lists is registered by the engine (the doc and the code stay in sync)."""

from __future__ import annotations

import re
from pathlib import Path

import services.rules.engine.scenarios.caravans  # noqa: F401  (registers the ids)
from services.rules.engine.rules import RULES

HERE = Path(__file__).parent
DOC = HERE.parents[2] / "docs" / "rules" / "caravans.md"
TEST_NAME = re.compile(r"^\s*def\s+(test_\w+)\s*\(", re.MULTILINE)


def ids() -> list[str]:
    return sorted(r for r in RULES if r.startswith("caravans."))


def test_every_caravans_rule_id_is_named_by_a_test() -> None:
    names = {n for p in sorted(HERE.glob("test_*.py")) for n in TEST_NAME.findall(p.read_text())}
    assert len(ids()) >= 25
    missing = []
    for rule_id in ids():
        word = re.compile(rf"(?:^|_){re.escape(rule_id.replace('.', '_'))}(?:_|$)")
        if not any(word.search(n) for n in names):
            missing.append(rule_id)
    assert not missing, f"caravans rule ids without a test: {missing}"


def test_the_rules_doc_and_the_registered_ids_agree() -> None:
    documented = set(re.findall(r"`(caravans\.[a-z_]+\.[a-z_]+)`", DOC.read_text()))
    assert documented == set(ids())
