"""Helpers for the Caravans tests: a table on the caravans map, votes and camels put in place."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from events.caravans import BidForCamel, NameCamelPath
from events.commands import EndTurn
from events.events import Event, ModuleSpec
from services.rules.engine.scenarios.caravans import camels
from services.rules.engine.scenarios.caravans.common import CaravanState, ext
from services.rules.engine.testing import Table

SPEC = ModuleSpec(name="caravans")
NORTH, SOUTH_EAST, SOUTH_WEST = 0, 1, 2


def table(seats: int = 3, variants: Sequence[str] = (), **kw: Any) -> Table:
    modules = [SPEC, *(ModuleSpec(name=v) for v in variants)]
    return Table(seats=seats, modules=modules, **kw)


def x(t: Table) -> CaravanState:
    return ext(t.state)


def start(t: Table, arrow: int) -> int:
    return camels.geometry(t.state.board).start_paths[arrow]


def lay(t: Table, caravan: int, *edges: str | int) -> None:
    """Camels put down for `caravan` in order (no vote), merging as the rules say."""
    for where in edges:
        edge = where if isinstance(where, int) else t.edge(where)
        merged = camels.merge_target(t.state, caravan, camels.far_end(t.state, caravan, edge))
        camels.place(t.state, caravan, edge, merged)


def open_vote(t: Table, seat: int = 0) -> list[Event]:
    """`seat`'s turn ends after a build (the trigger is tested on its own)."""
    t.turn_of(seat)
    x(t).built = True
    return t.when(EndTurn(seat=seat))


def bid_all(t: Table, *bids: tuple[int, int]) -> list[Event]:
    """Everyone bids in order from the builder: (wool, grain) per bidder, given the cards."""
    events: list[Event] = []
    for i, (wool, grain) in enumerate(bids):
        seat = (t.state.current + i) % t.state.n
        t.give(seat, wool=wool, grain=grain)
        events += t.when(BidForCamel(seat=seat, wool=wool, grain=grain))
    return events


def name(t: Table, seat: int, caravan: int, edge: int) -> list[Event]:
    return t.when(NameCamelPath(seat=seat, caravan=caravan, edge=edge))


def of(events: Sequence[Event], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]
