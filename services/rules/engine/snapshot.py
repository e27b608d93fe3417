"""State snapshots: a state as plain JSON and back (DESIGN.md "Snapshots are a cache").

Plain data rather than pickle: a snapshot read from Redis must never be able to run code.
`load(dump(s), created)` rebuilds a state equal to `s` (`to_dict` equal); the board and ruleset
come from the game's creation event, not from the snapshot.
"""

from __future__ import annotations

from typing import Any

import msgspec

from events.events import GameCreated
from services.rules.engine.state import Player, State, Trade

SCHEMA = 1
_TUPLES = ("names", "setup_order")


def dump(state: State) -> bytes:
    return msgspec.json.encode(state.to_dict())


def load(data: bytes, created: GameCreated) -> State:
    from services.rules.engine import initial_state

    d: dict[str, Any] = msgspec.json.decode(data)
    return restore(initial_state(created), d)


def restore(state: State, d: dict[str, Any]) -> State:
    """Overwrite `state` (of the same game: board and ruleset) with `to_dict` data."""
    for name, value in d.items():
        if name == "players":
            state.players = [_player(p) for p in value]
        elif name == "trade":
            state.trade = None if value is None else _trade(value)
        elif name == "ext":
            state.ext = {k: state.rules.ext_from_dict[k](v) for k, v in value.items()}
        elif name in _TUPLES:
            setattr(state, name, tuple(value))
        else:
            setattr(state, name, value)
    return state


def _player(d: dict[str, Any]) -> Player:
    p = Player(d["seat"])
    for name in Player.__slots__:
        value = d[name]
        if name in ("roads", "settlements", "cities"):
            value = set(value)
        setattr(p, name, value)
    return p


def _trade(d: dict[str, Any]) -> Trade:
    t = Trade(d["proposer"], d["give"], d["get"], tuple(d["to"]))
    t.answers = {
        int(k): v if isinstance(v, str) else (v[0], v[1]) for k, v in d["answers"].items()
    }
    return t
