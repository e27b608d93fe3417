"""For the environments' tests: the rulesets they run on (`rl_cases`, this directory) and the
`hexlog` fixture that runs the command as a user does (tests/cli/cli_helpers.py)."""

from __future__ import annotations

import sys
from pathlib import Path

TESTS = Path(__file__).parents[1]
for folder in (TESTS / "cli", TESTS / "rl"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from cli_helpers import hexlog  # noqa: E402, F401  (the fixture)
