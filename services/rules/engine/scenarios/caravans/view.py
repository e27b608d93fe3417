"""What a seat sees of the caravans, and the drawing of camels.

Camels, caravans and bids are public; a named placement is sealed, so a view shows who has named
one and, to the voter alone, what (docs/rules/chance-and-hidden-information.md §14.8)."""

from __future__ import annotations

from typing import TypedDict

import msgspec

from events.caravans import CamelPathNamed
from events.events import Event
from services.rules.engine.scenarios.caravans.common import BID, CAMELS, NAME_PATH, SECOND, ext
from services.rules.engine.state import State


class CaravanView(TypedDict):
    """One caravan: its camels' paths in the order placed, and its head vertex."""

    edges: list[int]
    head: int


class VoteView(TypedDict):
    """The camel vote under way (phases BID, NAME_PATH and SECOND)."""

    builder: int  # the seat whose build opened it
    options: list[int]  # the legal (caravan, path) pairs, flat
    votes: list[int]  # per seat, its bid (-1: not yet bid)
    named: list[int]  # the seats that have named their sealed placement
    mine: list[int] | None  # the viewer's own (caravan, path), once named
    second: int | None  # with Catan for Two: who places the second camel


class CaravansView(TypedDict):
    """What a viewer sees of the caravans (`view["ext"]["caravans"]`)."""

    camels_left: int
    camels: list[list[int]]  # [path, caravan] per camel placed
    caravans: list[CaravanView | None]  # by arrow (None: unused, or merged into another)
    started: list[bool]  # per arrow: its first camel was placed
    vote: VoteView | None


def view_ext(state: State, seat: int | None) -> CaravansView:
    x = ext(state)
    vote: VoteView | None = None
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
