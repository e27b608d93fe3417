"""What each viewer sees of the fish (docs/rules/chance-and-hidden-information.md §14.6).

Public: the grounds and the lake, how many tokens each seat holds, the supply's size, the
spent pile (face up), the boot and its holder. Private: the values of a seat's tokens (only
that seat; a spectator sees counts) and the fish a draw brought (`FishDrawn.fish`)."""

from __future__ import annotations

from typing import TypedDict

from events.events import Event
from events.fishermen import FishAction, FishDrawn
from services.rules.engine.scenarios.fishermen.actions import price
from services.rules.engine.scenarios.fishermen.common import (
    BOOT,
    LAKE_NUMBERS,
    PRICES,
    fish,
    tokens_of,
)
from services.rules.engine.scenarios.fishermen.waters import waters
from services.rules.engine.state import NO_ONE, State


class FishView(TypedDict):
    """What a viewer sees of the fish (`view["ext"]["fishermen"]`)."""

    grounds: list[list[int]]  # [sea hex, number] per fishing ground
    lake: int | None
    lake_numbers: list[int]
    tokens: list[int]  # per seat: how many fish tokens it holds
    hand: dict[str, int] | None  # the viewer's own tokens: fish ("1", "2", "3") -> count
    supply: int
    boot_in_supply: bool
    spent: dict[str, int]  # fish -> count, face up
    boot: int | None  # the boot's holder
    return_due: list[int]
    prices: dict[FishAction, int]  # the viewer's prices (the list prices for a spectator)


def view_ext(state: State, seat: int | None) -> FishView:
    f = fish(state)
    w = waters(state)
    mine = f.hands[seat] if seat is not None and 0 <= seat < state.n else None
    prices = dict(PRICES)
    if seat is not None and mine is not None:  # a seat's own prices (Catan for Two discount)
        prices = {a: price(state, seat, a) for a in PRICES}
    return {
        "grounds": [[h, n] for h, n, _ in w.grounds],
        "lake": None if w.lake == NO_ONE else w.lake,
        "lake_numbers": list(LAKE_NUMBERS),
        "tokens": [tokens_of(h) for h in f.hands],
        "hand": None if mine is None else {str(k): mine[k] for k in (1, 2, 3)},
        "supply": sum(f.supply),
        "boot_in_supply": f.supply[BOOT] > 0,
        "spent": {str(k): f.spent[k] for k in (1, 2, 3)},
        "boot": None if f.boot == NO_ONE else f.boot,
        "return_due": list(f.due),
        "prices": prices,
    }


def redact_drawn(e: FishDrawn, seat: int | None) -> Event:
    if seat == e.seat:
        return e
    return FishDrawn(seat=e.seat, fish=None, n=e.n)


def referee_ext(state: State) -> dict[str, list[dict[str, int]]]:
    """The referee sees the values of every hand's tokens."""
    return {"hands": [{str(k): h[k] for k in (1, 2, 3)} for h in fish(state).hands]}
