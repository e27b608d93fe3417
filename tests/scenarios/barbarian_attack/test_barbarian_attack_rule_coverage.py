"""Every rule id of Barbarian Attack is covered by a test in this directory: named by a test
function (`barbarian_attack.landing.totals` → `test_barbarian_attack_landing_totals_…`) or
asserted as a string. A new rule id without a test fails here."""

from __future__ import annotations

import re
from pathlib import Path

from services.rules.engine.rules import RULES

HERE = Path(__file__).parent
TEST_NAME = re.compile(r"^\s*def\s+(test_\w+)\s*\(", re.MULTILINE)


def test_every_barbarian_attack_rule_id_is_named_by_a_test() -> None:
    files = [p.read_text() for p in sorted(HERE.glob("test_*.py")) if p.name != Path(__file__).name]
    names = {n for text in files for n in TEST_NAME.findall(text)}
    ids = sorted(r for r in RULES if r.startswith("barbarian_attack."))
    assert len(ids) >= 37
    missing = []
    for rule_id in ids:
        word = re.compile(rf"(?:^|_){re.escape(rule_id.replace('.', '_'))}(?:_|$)")
        if not any(word.search(n) for n in names):
            missing.append(rule_id)
    assert not missing, f"rule ids without a test: {missing}"
