"""What a seat is asked, and what it may see (the bot protocol's payloads).

A `Prompt` lists every legal command for a seat as data, except the open-ended ones: a discard
(choose `discard` cards), and a domestic trade offer or counter (`may_trade`). `default` is the
move the rules service plays for a seat that does not answer before its deadline.
"""

from __future__ import annotations

from typing import Any

import msgspec

from events.commands import Command
from events.events import Harbor, Tile
from events.types import Bundle


# One per decision; plain data, out of the cyclic collector's sight (`gc=False`: see
# events.events.Event).
class Prompt(msgspec.Struct, kw_only=True, gc=False):
    seat: int
    stage: str
    options: list[Command]
    default: Command
    discard: int = 0
    hand: Bundle | None = None  # the seat's own hand, given with a discard
    may_trade: bool = False


class PlayerView(msgspec.Struct, kw_only=True):
    seat: int
    name: str
    cards: int  # resource cards held
    hand: Bundle | None  # only for the seat itself (or a referee)
    dev_cards: int
    dev_hand: dict[str, int] | None  # only for the seat itself (or a referee)
    knights: int
    public_vp: int
    vp: int | None  # with hidden VP cards: only for the seat itself (or a referee)
    roads: list[int]
    settlements: list[int]
    cities: list[int]
    road_length: int
    pieces_left: dict[str, int]


class TradeView(msgspec.Struct, kw_only=True):
    proposer: int
    give: Bundle
    get: Bundle
    to: list[int]
    answers: dict[int, Any]


class View(msgspec.Struct, kw_only=True):
    """One seat's (or a spectator's, seat None) picture of the game."""

    game_id: str
    seat: int | None
    version: int
    phase: str
    current: int
    turn: int
    last_roll: int
    robber: int
    bank: Bundle
    dev_deck: int
    longest_road: int | None
    largest_army: int | None
    vp_target: int
    winner: int | None
    finished: bool
    players: list[PlayerView]
    trade: TradeView | None
    tiles: tuple[Tile, ...]
    harbors: tuple[Harbor, ...]
    ext: dict[str, Any] = {}
