"""What every seat sees of the Lighthouses: each seat's beacons (public)."""

from __future__ import annotations

from typing import Any

from lighthouses.common import BEACONS
from services.rules.engine.state import State


def view_beacons(state: State, seat: int | None) -> dict[str, Any]:
    return {"beacons": [list(v) for v in BEACONS.of(state).lit]}
