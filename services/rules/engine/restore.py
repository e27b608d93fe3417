"""A state overwritten from its plain-data form (`State.to_dict`): what snapshots load and what
undo rebuilds from. Only the state's own types are needed here, so the rules (undo) can use it
without importing the whole engine. Keys a state of an older build did not have keep the values
`initial_state` gave them; so do a player's pieces of kinds an older build did not know."""

from __future__ import annotations

from typing import Any

from services.rules.engine.state import PLAYER_FIELDS, Player, State, Trade

_TUPLES = ("names", "setup_order")


def restore(state: State, d: dict[str, Any]) -> State:
    """Overwrite `state` (of the same game: board and ruleset) with `to_dict` data.

    `Any`: decoded JSON, each value set into a typed attribute (checked there in the compiled
    build), or read by the module's StateKey."""
    for name, value in d.items():
        if name == "players":
            state.players = [_player(p) for p in value]
        elif name == "trade":
            state.trade = None if value is None else _trade(value)
        elif name == "ext":
            state.ext = state.rules.states.load_all(value)
        elif name in _TUPLES:
            setattr(state, name, tuple(value))
        else:
            setattr(state, name, value)
    return state


def _player(d: dict[str, Any]) -> Player:
    p = Player(d["seat"])
    for name in PLAYER_FIELDS:
        if name not in d:
            continue  # a snapshot of an older build (module pieces: none)
        value = d[name]
        if name in ("roads", "settlements", "cities"):
            value = set(value)
        elif name == "pieces":
            value = {k: set(v) for k, v in value.items()}
        setattr(p, name, value)
    return p


def _trade(d: dict[str, Any]) -> Trade:
    t = Trade(d["proposer"], d["give"], d["get"], tuple(d["to"]))
    t.answers = {
        int(k): v if isinstance(v, str) else (v[0], v[1]) for k, v in d["answers"].items()
    }
    return t
