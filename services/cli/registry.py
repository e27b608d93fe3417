"""Subcommands defined outside `main.py`; each entry adds its parser to the subparsers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

COMMANDS: list[Callable[[Any], None]] = []
