"""The lists of rule systems in the documentation agree with the module catalogue
(`services.rules.engine.modules.MODULES`, what `hexlog rulesets` prints): a module added,
renamed or dropped fails here until `scripts/catalogue_docs.py` has rewritten the README's list
and the file table of docs/rules/README.md, and the scenario table of docs/design.md (prose,
hand-written) has its row. Each module's `title` is how the
lists name it, its `rules_doc()` its file in docs/rules/ (docs/adding-a-scenario.md)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from services.rules.engine.modules import MODULES
from services.rules.engine.ruleset import Module

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((m for m in MODULES.values() if m.kind in ("scenario", "variant")),
                 key=lambda m: m.name)
SCENARIOS = [m for m in SHIPPED if m.kind == "scenario"]


def readme_rules_paragraph() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("Rules implemented:")
    return " ".join(text[start:text.index("\n\n", start)].split())


def design_scenario_rows() -> list[str]:
    text = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    table = text[text.index("| Scenario | Hooks |"):]
    rows = []
    for line in table.splitlines()[2:]:
        if not line.startswith("|"):
            break
        rows.append(line.split("|")[1].strip())
    return rows


def rules_files_table() -> dict[str, str]:
    """docs/rules/README.md's file table: file -> its rule-id prefix cell."""
    text = (ROOT / "docs" / "rules" / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| \[([A-Za-z0-9-]+\.md)\]\(\1\) \| [^|]* \| ([^|]*) \|", text, re.M)
    return dict(rows)


@pytest.mark.parametrize("module", SHIPPED, ids=lambda m: m.name)
def test_every_module_has_a_title_and_a_rules_file(module: Module) -> None:
    assert module.title, f"{module.name}: no title"
    assert (ROOT / "docs" / "rules" / module.rules_doc()).is_file()


def test_the_readme_names_every_scenario_and_variant() -> None:
    paragraph = readme_rules_paragraph()
    missing = [m.title for m in SHIPPED if m.title not in paragraph]
    assert not missing, f"README's 'Rules implemented' does not name {missing}"


def test_the_design_table_has_a_row_for_every_scenario_and_no_other() -> None:
    rows = design_scenario_rows()
    assert len(rows) == len(set(rows))
    assert set(rows) == {m.title for m in SCENARIOS}


def test_the_rules_file_table_lists_every_module_with_its_prefix() -> None:
    table = rules_files_table()
    for module in SHIPPED:
        doc = module.rules_doc()
        assert doc in table, f"docs/rules/README.md lists no {doc} ({module.name})"
        if module.doc == "":  # a file of its own: its rule ids carry its prefix
            prefix = module.name.replace("-", "_") + "."
            assert f"`{prefix}`" in table[doc], f"{doc}: prefix {prefix} not in the table"
    files = {p.name for p in (ROOT / "docs" / "rules").glob("*.md")}
    assert set(table) == files, f"not in the file table: {sorted(files - set(table))}"


def test_the_generated_lists_are_up_to_date() -> None:
    """What scripts/catalogue_docs.py would write is what the files hold."""
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "catalogue_docs.py"), "--check"],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr


def test_a_stale_list_is_shown_and_changes_nothing(tmp_path: Path) -> None:
    """--check names the stale list and exits 1 without writing (the lists' test relies on it)."""
    readme = ROOT / "README.md"
    before = readme.read_text(encoding="utf-8")
    script = (ROOT / "scripts" / "catalogue_docs.py").read_text(encoding="utf-8")
    # The same script, pointed at a copy of the repository's docs with a module's name removed.
    copy = tmp_path / "repo"
    (copy / "scripts").mkdir(parents=True)
    (copy / "docs").mkdir()
    (copy / "scripts" / "catalogue_docs.py").write_text(
        script.replace("sys.path.insert(0, str(ROOT))", f"sys.path.insert(0, {str(ROOT)!r})"),
        encoding="utf-8")
    (copy / "README.md").write_text(before.replace("Oil Springs", "Oil"), encoding="utf-8")
    subprocess.run(["cp", "-r", str(ROOT / "docs" / "rules"), str(copy / "docs")], check=True)
    run = subprocess.run([sys.executable, str(copy / "scripts" / "catalogue_docs.py"), "--check"],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 1
    added = [line for line in run.stdout.splitlines()
             if line.startswith("+") and not line.startswith("+++")]
    assert any("Oil Springs" in line for line in added), run.stdout  # the name put back
    assert "out of date" in run.stderr
    assert (copy / "README.md").read_text(encoding="utf-8") == before.replace("Oil Springs", "Oil")
