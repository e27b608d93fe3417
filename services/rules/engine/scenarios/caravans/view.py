"""What a seat sees of the caravans, and the drawing of camels.

Camels, caravans and bids are public; a named placement is sealed, so a view shows who has named
one and, to the voter alone, what (docs/rules/chance-and-hidden-information.md §14.8)."""

from __future__ import annotations

from typing import Any

import msgspec

from events.caravans import CamelPathNamed
from events.events import Event
from services.rules.engine.narration import Sketch
from services.rules.engine.scenarios.caravans.common import BID, CAMELS, NAME_PATH, SECOND, ext
from services.rules.engine.state import State


def view_ext(state: State, seat: int | None) -> dict[str, Any]:
    x = ext(state)
    vote: dict[str, Any] | None = None
    if state.phase in (BID, NAME_PATH, SECOND):
        named = [s for s in range(state.n) if x.choices[2 * s] != -1]
        mine = None
        if seat is not None and seat in named:
            mine = x.choices[2 * seat: 2 * seat + 2]
        vote = {"builder": state.current, "options": list(x.options), "votes": x.votes[:],
                "named": named, "mine": mine,
                "second": x.second if state.phase == SECOND else None}
    return {
        "camels_left": CAMELS - len(x.camels),
        "camels": [[e, c] for e, c in sorted(x.camels.items())],
        "caravans": [None if k is None else {"edges": k.edges[:], "head": k.head}
                     for k in x.caravans],
        "started": x.started[:],
        "vote": vote,
    }


def redact_named(e: CamelPathNamed, seat: int | None) -> Event:
    """caravans.vote.sealed: the placement is the voter's until the vote is revealed."""
    if seat == e.seat:
        return e
    return msgspec.structs.replace(e, caravan=None, edge=None)


def drawing(state: State, sketch: Sketch) -> None:
    """A camel is a `C` on its path (one letter: the text board has room for no more)."""
    for edge in sorted(ext(state).camels):
        sketch.mark("edge", edge, "C")
