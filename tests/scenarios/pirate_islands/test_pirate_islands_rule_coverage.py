"""Every rule id of The Pirate Islands is covered by a test in this directory: named by a test
function (`pirate_islands.fleet.move` → `test_pirate_islands_fleet_move…`) or asserted as a
string (`t.rejects(cmd, "pirate_islands.ship.lane")`). A new rule id without a test fails here;
so does a rule id in the doc that the code does not register, or the reverse."""

from __future__ import annotations

import re
from pathlib import Path

from services.rules.engine.rules import RULES

HERE = Path(__file__).parent
DOC = HERE.parents[2] / "docs" / "rules" / "pirate-islands.md"
TEST_NAME = re.compile(r"^\s*def\s+(test_\w+)\s*\(", re.MULTILINE)


def test_every_pirate_islands_rule_id_is_named_or_asserted_by_a_test() -> None:
    files = [p.read_text() for p in sorted(HERE.glob("*.py")) if p.name != Path(__file__).name]
    names = {n for text in files for n in TEST_NAME.findall(text)}
    text = "\n".join(files)
    ids = sorted(r for r in RULES if r.startswith("pirate_islands."))
    assert len(ids) >= 30
    missing = []
    for rule_id in ids:
        word = re.compile(rf"(?:^|_){re.escape(rule_id.replace('.', '_'))}(?:_|$)")
        if f'"{rule_id}"' not in text and not any(word.search(n) for n in names):
            missing.append(rule_id)
    assert not missing, f"rule ids without a test: {missing}"


def test_the_doc_and_the_code_name_the_same_rule_ids() -> None:
    documented = set(re.findall(r"`(pirate_islands\.[a-z_.]+)`", DOC.read_text()))
    registered = {r for r in RULES if r.startswith("pirate_islands.")}
    assert documented == registered
