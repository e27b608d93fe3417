"""Every rule id of the four Traders & Barbarians variants (and of their combination rules)
is covered by a test in this directory: named by a test function (`catan_for_two.roll.differ`
→ `test_catan_for_two_roll_differ_…`), or asserted as a string (`t.rejects(cmd,
"catan_for_two.token.short")`). A new rule id without a test fails here."""

from __future__ import annotations

import re
from pathlib import Path

from services.rules.engine.rules import RULES

HERE = Path(__file__).parent
PREFIXES = ("friendly_robber.", "harbormaster.", "event_cards.", "catan_for_two.")
TEST_NAME = re.compile(r"^\s*def\s+(test_\w+)\s*\(", re.MULTILINE)


def test_every_variant_rule_id_is_named_or_asserted_by_a_test() -> None:
    files = [p.read_text() for p in sorted(HERE.glob("*.py")) if p.name != Path(__file__).name]
    names = {n for text in files for n in TEST_NAME.findall(text)}
    text = "\n".join(files)
    ids = sorted(r for r in RULES if r.startswith(PREFIXES))
    assert len(ids) >= 45
    missing = []
    for rule_id in ids:
        word = re.compile(rf"(?:^|_){re.escape(rule_id.replace('.', '_'))}(?:_|$)")
        if f'"{rule_id}"' not in text and not any(word.search(n) for n in names):
            missing.append(rule_id)
    assert not missing, f"variant rule ids without a test: {missing}"
