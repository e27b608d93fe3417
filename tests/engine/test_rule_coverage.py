"""Every base rule id has a test that names it (docs/rules/README.md §0.4: test names are sentences that
name the rule). A rule id `base.build.distance` is covered by a test function in this directory
whose name contains `base_build_distance` as a whole word run, e.g.
`test_rejects_base_build_distance_next_to_a_settlement`."""

from __future__ import annotations

import re
from pathlib import Path

from services.rules.engine.rules import RULES

HERE = Path(__file__).parent
TEST_NAME = re.compile(r"^\s*(?:async\s+)?def\s+(test_\w+)\s*\(", re.MULTILINE)


def collect_test_names() -> set[str]:
    names: set[str] = set()
    for path in sorted(HERE.glob("test_*.py")):
        names.update(TEST_NAME.findall(path.read_text()))
    return names


def covering(rule_id: str, names: set[str]) -> list[str]:
    word = rule_id.replace(".", "_")
    pattern = re.compile(rf"(?:^|_){re.escape(word)}(?:_|$)")
    return sorted(n for n in names if pattern.search(n))


def test_every_base_rule_id_is_named_by_a_test() -> None:
    names = collect_test_names()
    base = sorted(r for r in RULES if r.startswith("base."))
    assert len(base) >= 40
    missing = [r for r in base if not covering(r, names)]
    assert not missing, f"base rule ids without a test naming them: {missing}"


def test_every_base_rule_id_a_test_asserts_appears_in_the_tests_text() -> None:
    """The dotted id is what the tests assert (`t.rejects(cmd, "base.build.distance")`);
    every id but the win rule, which no command is rejected by, must be asserted somewhere."""
    text = "\n".join(p.read_text() for p in sorted(HERE.glob("test_*.py")) if p.name != Path(__file__).name)
    not_rejections = {"base.win.own_turn"}
    missing = [r for r in sorted(RULES) if r.startswith("base.") and r not in not_rejections
               and f'"{r}"' not in text]
    assert not missing, f"base rule ids never asserted: {missing}"


def test_the_coverage_check_matches_whole_ids_only() -> None:
    names = {"test_rejects_base_robber_same_hex_for_x", "test_base_build_cost_y"}
    assert covering("base.robber.same_hex", names) == ["test_rejects_base_robber_same_hex_for_x"]
    assert covering("base.robber.hex", names) == []
    assert covering("base.build.cost", names) == ["test_base_build_cost_y"]
    assert covering("base.dev.cost", names) == []
