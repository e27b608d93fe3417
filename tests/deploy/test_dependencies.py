"""A plain install (`pip install hexlog`, no extra) runs the main job: every third-party package
the tournament, the rules service, the bot worker and the projector import is a dependency of
hexlog's own, or of one of those. The suite's venv holds the dev and service extras too, so a
missing declaration is invisible to every other test: a package that only arrived through an
extra (the metrics client came with the homeserver the chat tests start) would fail a user."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
# What the README's main job and `hexlog up` without options load.
MAIN_JOB = ("services.cli.main", "services.cli.tournament", "services.cli.up",
            "services.rules.service", "services.rules.app", "bots.worker",
            "services.projections.projector", "services.cli.projections")
PROBE = f"""
import json, sys
for name in {MAIN_JOB!r}:
    __import__(name)
print(json.dumps(sorted(m.__file__ for n, m in sys.modules.items()
                        if n.split('.')[0] in ("events", "services", "bots")
                        and getattr(m, '__file__', None))))
"""


def imported_at_load(path: Path) -> set[str]:
    """The top-level names a module imports when it loads (not inside a function, nor under
    `if TYPE_CHECKING`): what a plain install must bring for it to import at all."""
    names: set[str] = set()
    source = path.with_suffix(".py")  # a compiled engine module: read its source
    if not source.exists():
        return names
    body = list(ast.parse(source.read_text()).body)
    while body:
        node = body.pop()
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
        elif isinstance(node, ast.Try):
            body.extend(node.body)
        elif isinstance(node, ast.If) and "TYPE_CHECKING" not in ast.unparse(node.test):
            body.extend(node.body + node.orelse)
    return names


def normalise(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def closure(requirements: list[str]) -> set[str]:
    """The distributions `requirements` install, theirs included (extras followed; markers
    of this interpreter)."""
    seen: set[tuple[str, frozenset[str]]] = set()  # a package with some extras
    todo = [Requirement(r) for r in requirements]
    while todo:
        req = todo.pop()
        if req.marker is not None and not req.marker.evaluate({"extra": ""}):
            continue
        key = (normalise(req.name), frozenset(req.extras))
        if key in seen:
            continue
        seen.add(key)
        try:
            dist = metadata.distribution(req.name)
        except metadata.PackageNotFoundError:
            continue
        for text in dist.requires or []:
            sub = Requirement(text)
            wanted = sub.marker is None or sub.marker.evaluate({"extra": ""}) or any(
                sub.marker.evaluate({"extra": extra}) for extra in req.extras)
            if wanted:
                sub.marker = None
                todo.append(sub)
    return {name for name, _ in seen}


def test_the_main_job_imports_only_what_a_plain_install_brings() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    installed = closure(project["dependencies"])
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    imported = set().union(*(imported_at_load(Path(f)) for f in json.loads(out.stdout)))
    provided = metadata.packages_distributions()
    undeclared = {}
    for module in sorted(imported):
        if module in sys.stdlib_module_names or module in {"events", "services", "bots"}:
            continue
        dists = {normalise(d) for d in provided.get(module, [])}
        if dists and not dists & installed:
            undeclared[module] = sorted(dists)
    assert undeclared == {}, "imported by the main job, not brought by pyproject's dependencies"


def test_the_check_sees_a_package_that_only_an_extra_brings() -> None:
    # The check itself: pytest comes only with the dev extra, so it is outside the closure.
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert "pytest" not in closure(project["dependencies"])
    assert "msgspec" in closure(project["dependencies"])
