"""The rules reference in docs/rules/ names every rule id the code registers (docs/rules/README.md
§0.4), and the documentation stands on its own.

A rule id is *documented* by a table row whose first cell is the id in backticks:

    | `base.build.distance` | A settlement needs all three neighbouring vertices empty … |

Checks:
* every id registered by the engine, its modules and the rules service has such a row;
* no id has two rows;
* a file that is not marked "planned: not yet implemented" documents only registered ids (a rule
  that was renamed or dropped in the code must not linger in the reference);
* the proposed ids of a planned scenario carry that scenario's prefix;
* nothing under docs/ points at files outside the repository.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
RULES_DOCS = DOCS / "rules"
PLANNED = "planned: not yet implemented"
ID_ROW = re.compile(r"^\|\s*`([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)`\s*\|", re.MULTILINE)
# Files the documentation must never point at (they are not in the repository), and machine paths.
# Built from parts so that this file does not itself name them.
FORBIDDEN = tuple("".join(parts) for parts in (
    ("RULES", ".md"), ("DESIGN", ".md"), ("STYLE", ".md"), ("../", "shared"),
    ("shared", "/rules"), ("shared", "/seeds"), ("/", "work/")))


def registered_ids() -> set[str]:
    """Every rule id the code registers: the engine (its base rules, every variant, scenario and
    table module, found by importing the whole engine package) and the rules service (its own
    `service.*` ids and, through services/rules/disputes.py, the `contest.*` ids)."""
    import services.rules.engine as engine

    for info in pkgutil.walk_packages(engine.__path__, f"{engine.__name__}."):
        try:
            importlib.import_module(info.name)
        except ModuleNotFoundError as exc:  # a compiled-only helper (no rules) found beside
            if "compiled build only" not in str(exc):  # the source when the build is stale
                raise
    importlib.import_module("services.rules.disputes")
    importlib.import_module("services.rules.service")
    from services.rules.engine.rules import RULES

    return set(RULES)


def rule_files() -> list[Path]:
    return sorted(RULES_DOCS.glob("*.md"))


def defined_ids(text: str) -> list[str]:
    """The ids a text documents (first cell of a table row), in order, repeats kept."""
    return ID_ROW.findall(text)


def definitions(files: Iterable[Path]) -> dict[str, list[str]]:
    """id -> the files (names) that document it."""
    out: dict[str, list[str]] = {}
    for path in files:
        for rule_id in defined_ids(path.read_text(encoding="utf-8")):
            out.setdefault(rule_id, []).append(path.name)
    return out


def missing_ids(registered: Iterable[str], documented: Iterable[str]) -> list[str]:
    return sorted(set(registered) - set(documented))


def is_planned(path: Path) -> bool:
    head = path.read_text(encoding="utf-8").split("\n\n", 2)[:2]
    return any(PLANNED in part for part in head)


def test_every_registered_rule_id_is_documented_in_docs_rules() -> None:
    registered = registered_ids()
    assert len(registered) >= 100, "the registries did not load"
    missing = missing_ids(registered, definitions(rule_files()))
    assert not missing, (
        "rule ids registered in the code but not documented in docs/rules/ "
        f"(add a table row `| \\`id\\` | rule |` in the section that states the rule): {missing}"
    )


def test_no_rule_id_is_documented_twice() -> None:
    twice = {rule_id: files for rule_id, files in definitions(rule_files()).items() if len(files) > 1}
    assert not twice, f"rule ids with more than one table row: {twice}"


def test_implemented_files_document_only_registered_ids() -> None:
    registered = registered_ids()
    implemented = [p for p in rule_files() if not is_planned(p)]
    assert len(implemented) >= 6
    stale = {p.name: sorted(set(defined_ids(p.read_text(encoding="utf-8"))) - registered)
             for p in implemented}
    stale = {name: ids for name, ids in stale.items() if ids}
    assert not stale, f"documented ids that the code does not register: {stale}"


def test_planned_scenarios_propose_ids_with_their_own_prefix() -> None:
    from services.rules.engine.modules import MODULES

    planned = [p for p in rule_files() if is_planned(p)]
    # A rules file is the rules of a module of the catalogue (built), or planned; or one of
    # the shared files every ruleset cites.
    built = {module.rules_doc() for module in MODULES.values()}
    shared = {"README.md", "base.md", "combinations.md", "chance-and-hidden-information.md"}
    unexplained = {p.name for p in rule_files()} - built - shared - {p.name for p in planned}
    assert not unexplained, f"rules files of no module that are not planned: {unexplained}"
    for path in planned:
        prefix = path.stem.replace("-", "_") + "."
        ids = defined_ids(path.read_text(encoding="utf-8"))
        assert ids, f"{path.name} proposes no rule ids"
        wrong = [i for i in ids if not i.startswith(prefix) or i.count(".") < 2]
        assert not wrong, f"{path.name}: ids not of the form {prefix}<area>.<rule>: {wrong}"


def test_docs_point_to_nothing_outside_the_repository() -> None:
    offending = {
        str(path.relative_to(ROOT)): [word for word in FORBIDDEN if word in path.read_text(encoding="utf-8")]
        for path in sorted(DOCS.rglob("*.md"))
    }
    offending = {name: words for name, words in offending.items() if words}
    assert not offending, f"docs naming files outside the repository: {offending}"


def test_the_check_notices_an_undocumented_id() -> None:
    """The parser sees ids only in the first cell of a row, so a missing row is caught even when
    the id is mentioned in passing elsewhere."""
    text = (
        "| Rule id | Rule |\n|---|---|\n"
        "| `base.build.distance` | The distance rule. |\n\n"
        "Prose that mentions `base.build.cost` does not document it.\n"
    )
    assert defined_ids(text) == ["base.build.distance"]
    assert missing_ids({"base.build.distance", "base.build.cost"}, defined_ids(text)) == [
        "base.build.cost"
    ]
