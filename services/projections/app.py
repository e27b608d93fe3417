"""`hexlog serve projections`: the projector as a long-running service."""

from __future__ import annotations

import services.tournament  # noqa: F401  (registers the tournament's projection)
from services.projections.projector import run

__all__ = ["run"]
