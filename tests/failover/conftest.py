"""Replicated sets of their own for the failover tests: an embedded primary, replica and three
Sentinels (services/runtime/ha.py), and the `hexlog` command as a user runs it
(tests/cli/cli_helpers.py). Nothing here uses the test session's server: each test's set is its
own, killed and revived at will."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "cli"))

from cli_helpers import hexlog  # noqa: E402, F401  (the fixture)

from services.runtime.ha import EmbeddedHA  # noqa: E402


@pytest.fixture
def ha_set(tmp_path: Path) -> Iterator[EmbeddedHA]:
    """A primary, a replica and three Sentinels, whole and in sync."""
    ha = EmbeddedHA(tmp_path / "ha").start()
    yield ha
    ha.stop()
