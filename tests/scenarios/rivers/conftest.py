"""The `hexlog` fixture of tests/cli (the command as a user runs it) for the Rivers tests."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[2] / "cli"))

from cli_helpers import Hexlog  # noqa: E402


@pytest.fixture
def hexlog(tmp_path: Path) -> Iterator[Hexlog]:
    h = Hexlog(tmp_path)
    yield h
    h.stop_all()
