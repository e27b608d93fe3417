"""`hexlog serve projections`: the projector as a long-running service."""

from __future__ import annotations

from services.projections.projector import run

__all__ = ["run"]
