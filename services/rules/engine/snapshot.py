"""State snapshots: a state as plain JSON and back (docs/design.md "Snapshots").

Plain data rather than pickle: a snapshot read from Redis must never be able to run code.
`load(dump(s), created)` rebuilds a state equal to `s` (`to_dict` equal); the board and ruleset
come from the game's creation event, not from the snapshot.
"""

from __future__ import annotations

from typing import Any

import msgspec

from events.events import GameCreated
from services.rules.engine import initial_state
from services.rules.engine.restore import restore
from services.rules.engine.state import State

__all__ = ["dump", "load", "restore"]

SCHEMA = 1


def dump(state: State) -> bytes:
    """`state.to_dict()` as JSON, without its deep copy (`plain_dict`): py-spy put the copy at
    more than half of the time the rules service spent saving snapshots, which it does on the
    command path."""
    return msgspec.json.encode(state.plain_dict())


def load(data: bytes, created: GameCreated) -> State:
    d: dict[str, Any] = msgspec.json.decode(data)  # `State.to_dict` data: restore reads it
    return restore(initial_state(created), d)
