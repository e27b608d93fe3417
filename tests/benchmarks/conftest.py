"""For the benchmarks' tests: `cli_helpers` (tests/cli) is importable, and the `hexlog` fixture
runs the command as a user does (tests/cli/cli_helpers.py)."""

from __future__ import annotations

import sys
from pathlib import Path

CLI = Path(__file__).parents[1] / "cli"
if str(CLI) not in sys.path:
    sys.path.insert(0, str(CLI))

from cli_helpers import hexlog  # noqa: E402, F401  (the fixture)
