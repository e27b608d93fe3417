"""Every rule id of Oil Springs is covered by a test in this directory: named by a test function
(`oil_springs.disaster.flood` → `test_oil_springs_disaster_flood_…`) or asserted as a string
(`t.rejects(cmd, "oil_springs.use.marker_cap")`). A new rule id without a test fails here."""

from __future__ import annotations

import re
from pathlib import Path

import services.rules.engine.scenarios.oil_springs  # noqa: F401  (registers the ids)
from services.rules.engine.rules import RULES

HERE = Path(__file__).parent
TEST_NAME = re.compile(r"^\s*def\s+(test_\w+)\s*\(", re.MULTILINE)


def test_every_oil_springs_rule_id_is_named_or_asserted_by_a_test() -> None:
    files = [p.read_text() for p in sorted(HERE.glob("test_*.py")) if p.name != Path(__file__).name]
    names = {n for text in files for n in TEST_NAME.findall(text)}
    text = "\n".join(files)
    ids = sorted(r for r in RULES if r.startswith("oil_springs."))
    assert len(ids) >= 25
    missing = []
    for rule_id in ids:
        word = re.compile(rf"(?:^|_){re.escape(rule_id.replace('.', '_'))}(?:_|$)")
        if f'"{rule_id}"' not in text and not any(word.search(n) for n in names):
            missing.append(rule_id)
    assert not missing, f"Oil Springs rule ids without a test: {missing}"
