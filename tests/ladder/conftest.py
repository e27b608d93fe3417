"""The ladder's tests run `hexlog up --ladder` (tests/ladder/ladder_helpers.py)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
