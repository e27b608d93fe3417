"""For every scenario's tests: `scenario_kit` (this directory), `cli_helpers` (tests/cli) and the
audit helpers (tests/audit) are importable, and the `hexlog` fixture runs the command as a user
does (tests/cli/cli_helpers.py)."""

from __future__ import annotations

import sys
from pathlib import Path

TESTS = Path(__file__).parents[1]
for folder in (TESTS / "audit", TESTS / "cli", TESTS / "scenarios"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from cli_helpers import hexlog  # noqa: E402, F401  (the fixture)
