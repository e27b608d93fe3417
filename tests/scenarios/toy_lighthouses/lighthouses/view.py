"""What every seat sees of the Lighthouses: each seat's beacons (public)."""

from __future__ import annotations

from typing import TypedDict

from lighthouses.common import BEACONS
from services.rules.engine.state import State


class BeaconsView(TypedDict):
    """What a viewer sees (`view.ext["toy-lighthouses"]`): the shape the bots read."""

    beacons: list[list[int]]  # per seat, the corners lit


def view_beacons(state: State, seat: int | None) -> BeaconsView:
    return {"beacons": [list(v) for v in BEACONS.of(state).lit]}
