"""The `hexlog` fixture: the command as a user runs it (tests/cli/cli_helpers.py)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from cli_helpers import hexlog  # noqa: E402, F401  (the fixture)
