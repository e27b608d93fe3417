"""Writes the documentation's lists of rule systems from the module catalogue
(`services.rules.engine.modules.MODULES`, what `hexlog rulesets` prints), so a module added,
renamed or dropped changes them in one command instead of by hand:

    .venv/bin/python scripts/catalogue_docs.py          # rewrite the lists in place
    .venv/bin/python scripts/catalogue_docs.py --check  # exit 1 if one is out of date

The lists sit between `<!-- catalogue:NAME -->` and `<!-- /catalogue:NAME -->` markers:
README.md's "Rules implemented" sentence and docs/rules/README.md's file table. Each module's
`title` names it, its `rules_doc()` is its file in docs/rules/, whose first heading ("# §6
Scenario: The Fishermen of Catan") gives the section and the order. docs/design.md's scenario
table describes each scenario in prose and stays hand-written; tests/docs/test_catalogue_lists.py
checks it has one row per scenario.
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from services.rules.engine.modules import MODULES  # noqa: E402
from services.rules.engine.ruleset import Module  # noqa: E402

RULES = ROOT / "docs" / "rules"

# The files of docs/rules/ that belong to no single module: their row of the file table.
# (section text, rule-id prefix cell)
SHARED_FILES: dict[str, tuple[str, str]] = {
    "README.md": ("§0 conventions: board geometry, ids, rule ids", "–"),
    "base.md": ("", "`base.`"),
    "combinations.md": ("§13 what combines, what is refused, the register of decisions",
                        "(combination rules)"),
    "chance-and-hidden-information.md": ("§14 every chance point and every secret, per ruleset",
                                         "–"),
    "table.md": ("§15 rules of the table and the service: undo, contested rulings, service "
                 "rulings", "`undo.`, `contest.`, `service.`"),
}


def heading(doc: str) -> str:
    """A rules file's first heading without its '#': "§6 Scenario: The Fishermen of Catan"."""
    for line in (RULES / doc).read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    raise SystemExit(f"docs/rules/{doc}: no '# ' heading")


def section(doc: str) -> int:
    """The section number a rules file's heading starts with (README.md, without one: 0)."""
    m = re.match(r"§(\d+)", heading(doc)) if doc != "README.md" else None
    return int(m.group(1)) if m else 0


def shipped(kind: str) -> list[Module]:
    """The modules of `kind` with a rules file of their own, in the order of the reference."""
    mods = [m for m in MODULES.values() if m.kind == kind and m.doc == ""]
    return sorted(mods, key=lambda m: section(m.rules_doc()))


def table_options() -> list[Module]:
    """Variants described among the rules of the table (Victory Points): options, not variants."""
    return [m for m in MODULES.values() if m.kind == "variant" and m.doc == "table.md"]


def listing(titles: list[str]) -> str:
    return titles[0] if len(titles) == 1 else ", ".join(titles[:-1]) + " and " + titles[-1]


def rules_sentence() -> str:
    """README.md's sentence naming every rule system, wrapped at 96 columns."""
    parts = ["the base game",
             "the variants " + listing([m.title for m in shipped("variant")])]
    options = table_options()
    if options:
        parts.append("the table option" + ("s " if len(options) > 1 else " ")
                     + listing([m.title for m in options]))
    parts.append("and the scenarios " + listing([m.title for m in shipped("scenario")]))
    text = ("Rules implemented: " + "; ".join(parts) + " (`hexlog rulesets` lists them and what "
            "combines with what; `hexlog play --scenario fishermen` plays one). docs/rules/ is "
            "the rules reference, with the rule ids the code cites.")
    return wrap(text, 96)


def wrap(text: str, width: int) -> str:
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return "\n".join([*lines, line])


def rules_table() -> str:
    """docs/rules/README.md's file table: every file of docs/rules/, in section order."""
    modules = {m.rules_doc(): m for m in MODULES.values() if m.doc == ""}
    files = sorted((p.name for p in RULES.glob("*.md")), key=lambda f: (section(f), f))
    rows = ["| File | Sections | Rule-id prefix | Status |", "|---|---|---|---|"]
    for name in files:
        text, prefix = SHARED_FILES.get(name, ("", ""))
        if name in modules:
            prefix = "`" + modules[name].name.replace("-", "_") + ".`"
        elif name not in SHARED_FILES:
            raise SystemExit(f"docs/rules/{name} belongs to no module: give it a row in "
                             "SHARED_FILES (scripts/catalogue_docs.py)")
        text = text or heading(name)
        planned = "planned: not yet implemented" in (RULES / name).read_text(encoding="utf-8")
        status = "–" if name == "README.md" else "planned" if planned else "implemented"
        rows.append(f"| [{name}]({name}) | {text} | {prefix} | {status} |")
    return "\n".join(rows)


BLOCKS: dict[str, tuple[Path, Callable[[], str]]] = {
    "rules": (ROOT / "README.md", rules_sentence),
    "files": (RULES / "README.md", rules_table),
}


def rewrite(text: str, name: str, body: str) -> str:
    start, end = f"<!-- catalogue:{name} -->", f"<!-- /catalogue:{name} -->"
    if start not in text or end not in text:
        raise SystemExit(f"the markers {start} ... {end} are missing")
    head, _, rest = text.partition(start)
    _, _, tail = rest.partition(end)
    return f"{head}{start}\n{body}\n{end}{tail}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 and show the difference if a list is stale")
    args = parser.parse_args(argv)
    stale = 0
    for name, (path, render) in BLOCKS.items():
        old = path.read_text(encoding="utf-8")
        new = rewrite(old, name, render())
        if new == old:
            continue
        rel = path.relative_to(ROOT)
        if args.check:
            stale += 1
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(True), new.splitlines(True), f"{rel} (now)", f"{rel} (catalogue)"))
        else:
            path.write_text(new, encoding="utf-8")
            print(f"{rel}: list '{name}' rewritten from the catalogue")
    if stale:
        print(f"{stale} list(s) out of date: run .venv/bin/python scripts/catalogue_docs.py",
              file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
