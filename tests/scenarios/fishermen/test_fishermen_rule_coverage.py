"""Every rule id of the Fishermen (docs/rules/fishermen.md, `fishermen.*`) has a test in this
directory whose name contains the id with dots as underscores (`fishermen.boot.pass` →
`test_fishermen_boot_pass_…`). A new rule id without a test fails here; so does a rule id of the
doc that the engine does not register."""

from __future__ import annotations

import re
from pathlib import Path

from services.rules.engine.rules import RULES

HERE = Path(__file__).parent
DOC = Path(__file__).parents[3] / "docs" / "rules" / "fishermen.md"
TEST_NAME = re.compile(r"^\s*def\s+(test_\w+)\s*\(", re.MULTILINE)


def ids() -> list[str]:
    import services.rules.engine.scenarios.fishermen  # noqa: F401  (registers the ids)

    return sorted(r for r in RULES if r.startswith("fishermen."))


def test_every_fishermen_rule_id_is_named_by_a_test() -> None:
    names = {n for p in sorted(HERE.glob("test_*.py")) for n in TEST_NAME.findall(p.read_text())}
    found = ids()
    assert len(found) >= 25
    missing = []
    for rule_id in found:
        word = re.compile(rf"(?:^|_){re.escape(rule_id.replace('.', '_'))}(?:_|$)")
        if not any(word.search(n) for n in names):
            missing.append(rule_id)
    assert not missing, f"fishermen rule ids without a test naming them: {missing}"


def test_every_rule_id_of_the_doc_is_registered_and_every_registered_one_documented() -> None:
    documented = set(re.findall(r"`(fishermen\.[a-z_.]+)`", DOC.read_text()))
    assert documented == set(ids())
