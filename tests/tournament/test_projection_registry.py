"""A projector runs every projection hexlog ships, whatever its process imported before.

The tournament registers its standings projection when its package is imported; a projector
made in a process that never imported it (a test run alone, a script) used to rebuild without
the tournament's results and standings, silently. Run in a fresh interpreter so no other test's
imports can hide that.
"""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import sys
from redis.asyncio import Redis
from services.projections.projector import Projector
assert "services.tournament" not in sys.modules, "the probe must start without the tournament"
print(sorted(Projector(Redis()).projections))
"""


def test_a_projector_made_without_the_tournament_imported_still_keeps_its_standings() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['tournament']"
