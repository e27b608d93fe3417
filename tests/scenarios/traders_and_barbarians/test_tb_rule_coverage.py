"""Every rule id of Traders & Barbarians has a test named after it in this directory
(`traders_and_barbarians.wagon.toll` → `test_traders_and_barbarians_wagon_toll…`); the ids and
docs/rules/traders-and-barbarians.md list the same rules."""

from __future__ import annotations

import re
from pathlib import Path

from services.rules.engine.rules import RULES
from services.rules.engine.scenarios.traders_and_barbarians.data import RULE_TEXTS

HERE = Path(__file__).parent
DOC = HERE.parents[2] / "docs" / "rules" / "traders-and-barbarians.md"
PREFIX = "traders_and_barbarians."
TEST_NAME = re.compile(r"^\s*def\s+(test_\w+)\s*\(", re.MULTILINE)


def test_every_traders_and_barbarians_rule_id_has_a_test_named_after_it() -> None:
    files = [p.read_text() for p in sorted(HERE.glob("test_*.py"))]
    names = {n for text in files for n in TEST_NAME.findall(text)}
    ids = sorted(r for r in RULES if r.startswith(PREFIX))
    assert len(ids) >= 30
    missing = [r for r in ids
               if not any(re.search(rf"^test_{re.escape(r.replace('.', '_'))}(?:_|$)", n)
                          for n in names)]
    assert not missing, f"rule ids without a test named after them: {missing}"


def test_the_rule_ids_are_the_documents() -> None:
    documented = set(re.findall(r"`(traders_and_barbarians\.[a-z_.0-9]+)`", DOC.read_text()))
    assert set(RULE_TEXTS) <= documented
