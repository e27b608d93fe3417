"""A projector runs the projections its caller gives it, and hexlog's services give it every
one hexlog ships (services/cli/projections.py `shipped()`).

Once the tournament registered its standings projection when its package was imported, and a
projector made in a process that never imported it rebuilt without the tournament's results,
silently. Now there is nothing to forget to import: the projector is handed its projections
(and the projections package knows no tournament: pyproject.toml's import contracts). Run in
a fresh interpreter so no other test's imports can help.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from redis.asyncio import Redis

from services.projections.projector import Projector

PROBE = """
import sys
from redis.asyncio import Redis
from services.cli.projections import shipped
from services.projections.projector import Projector
assert "services.tournament" not in sys.modules, "the probe must start without the tournament"
print(sorted(Projector(Redis(), shipped()).projections))
"""


def test_the_projector_of_hexlogs_services_keeps_the_standings_and_the_ladder() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['ladder', 'tournament']"


def test_a_projector_cannot_be_made_without_saying_which_projections_it_keeps() -> None:
    with pytest.raises(TypeError, match="projections"):
        Projector(Redis())  # type: ignore[call-arg]
