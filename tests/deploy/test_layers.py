"""The layers as contracts (pyproject.toml `[tool.importlinter]`), checked on every run.

`lint-imports` holds each contract; this test runs it, and makes sure the two contracts that
must name modules one by one (what the engine and the bots may not import) name every module
of the rules service: a new module there is covered the day it is added, not forgotten.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def contracts() -> dict[str, dict[str, object]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    return {c["name"]: c for c in config["contracts"]}


def rules_service_modules() -> set[str]:
    """services.rules.* but the engine: the rules service's own modules."""
    return {f"services.rules.{p.stem}" for p in (ROOT / "services" / "rules").glob("*.py")
            if p.stem != "__init__"}


def test_every_contract_holds() -> None:
    lint = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    assert lint is not None, "import-linter is a dev dependency: pip install -e '.[dev]'"
    done = subprocess.run([lint], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "BROKEN" not in done.stdout
    assert done.stdout.count("KEPT") == len(contracts())


def test_the_engine_and_bot_contracts_name_every_rules_service_module() -> None:
    engine = set(contracts()["the engine imports nothing but itself and the wire types"]
                 ["forbidden_modules"])  # type: ignore[arg-type]
    bots = set(contracts()["bots import the engine, not the rules service"]
               ["forbidden_modules"])  # type: ignore[arg-type]
    service = rules_service_modules()
    assert service - engine == set(), "add these to the engine's forbidden modules"
    assert service - bots == set(), "add these to the bots' forbidden modules"
    packages = {f"services.{p.name}" for p in (ROOT / "services").iterdir()
                if (p / "__init__.py").exists() and p.name != "rules"}
    modules = {f"services.{p.stem}" for p in (ROOT / "services").glob("*.py")
               if p.stem != "__init__"}
    assert (packages | modules) - engine == set(), "the engine may import none of these"
