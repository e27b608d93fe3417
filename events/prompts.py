"""What a seat is asked, and what it may see (the bot protocol's payloads).

A `Prompt` lists every legal command for a seat as data, except the open-ended ones: a discard
(choose `discard` cards), and a domestic trade offer or counter (`may_trade`). `default` is the
move the rules service plays for a seat that does not answer before its deadline.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from msgspec import Meta

from events.commands import Command
from events.events import Harbor, Tile
from events.types import Bundle, TradeBundle


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


# The fields' meanings are part of the bot protocol: they go into view.schema.json and into the
# table of docs/protocol.md §12, both made from here (`hexlog schemas`).
class PlayerView(msgspec.Struct, kw_only=True):
    """One seat as the viewer may see it (an entry of `View.players`)."""

    seat: Annotated[int, Meta(description="the seat (0-based)")]
    name: Annotated[str, Meta(description="the seat's name, e.g. `random0`")]
    cards: Annotated[int, Meta(description="how many resource cards it holds")]
    hand: Annotated[Bundle | None, Meta(
        description="its resource cards, count per resource: in its own view (and the "
                    "referee's) only, else null")]
    dev_cards: Annotated[int, Meta(description="how many development cards it holds")]
    dev_hand: Annotated[dict[str, int] | None, Meta(
        description="its development cards, count per kind: in its own view (and the "
                    "referee's) only, else null")]
    knights: Annotated[int, Meta(description="how many Knights it has played")]
    public_vp: Annotated[int, Meta(
        description="its victory points everyone sees (hidden VP cards left out)")]
    vp: Annotated[int | None, Meta(
        description="its victory points, hidden VP cards included: in its own view (and the "
                    "referee's) only, else null")]
    roads: Annotated[list[int], Meta(description="the edge ids of its roads (§5)")]
    settlements: Annotated[list[int], Meta(description="the vertex ids of its settlements")]
    cities: Annotated[list[int], Meta(description="the vertex ids of its cities")]
    road_length: Annotated[int, Meta(description="the length of its longest road")]
    pieces_left: Annotated[dict[str, int], Meta(
        description="the pieces it may still build, by kind (`road`, `settlement`, `city`, "
                    "and a module's: `ship`, `bridge` …)")]


class TradeView(msgspec.Struct, kw_only=True):
    """The open domestic trade offer (`View.trade`)."""

    proposer: Annotated[int, Meta(description="the seat that made the offer")]
    give: Annotated[TradeBundle, Meta(
        description="what the proposer gives, count per resource (and currency, e.g. gold)")]
    get: Annotated[TradeBundle, Meta(
        description="what the proposer asks for, count per resource (and currency)")]
    to: Annotated[list[int], Meta(description="the seats the offer is made to")]
    answers: Annotated[dict[int, Any], Meta(
        description="the answers so far, by seat: `accept`, `reject`, or a counter-offer "
                    "`{\"give\": …, \"get\": …}` from the answering seat's side")]


class View(msgspec.Struct, kw_only=True):
    """One seat's picture of the game, hidden information left out (or a spectator's:
    `seat` null)."""

    game_id: Annotated[str, Meta(description="the game's id")]
    seat: Annotated[int | None, Meta(
        description="whose view this is: a seat, or null for a spectator")]
    version: Annotated[int, Meta(
        description="the game's version the view shows: the number of events in its log")]
    phase: Annotated[str, Meta(
        description="the phase the game is in (`setup`, `roll`, `main`, … `over`; a "
                    "module's are named after it, e.g. `caravans.bid`); what a seat is asked "
                    "is its prompt's `stage`")]
    current: Annotated[int, Meta(description="the seat whose turn it is (in set-up: who places)")]
    turn: Annotated[int, Meta(
        description="the turn's number: 0 during set-up, 1 for the first turn after it")]
    last_roll: Annotated[int, Meta(
        description="the number last rolled (or drawn, with Event Cards); 0 before the first "
                    "roll")]
    robber: Annotated[int, Meta(
        description="the id of the hex the robber stands on (§5); -1 while it is off the "
                    "board")]
    bank: Annotated[Bundle, Meta(description="the bank's resource cards, count per resource")]
    dev_deck: Annotated[int, Meta(description="how many development cards are left to buy")]
    longest_road: Annotated[int | None, Meta(
        description="the seat holding Longest Road, or null")]
    largest_army: Annotated[int | None, Meta(
        description="the seat holding Largest Army, or null")]
    vp_target: Annotated[int, Meta(
        description="the victory points the viewing seat needs to win (a spectator: the "
                    "current seat's)")]
    winner: Annotated[int | None, Meta(
        description="the seat that won, once the game is over; null before, and after a game "
                    "that ended without a winner")]
    finished: Annotated[bool, Meta(description="whether the game is over")]
    players: Annotated[list[PlayerView], Meta(description="every seat, in seat order")]
    trade: Annotated[TradeView | None, Meta(
        description="the open domestic trade offer, or null")]
    tiles: Annotated[tuple[Tile, ...], Meta(
        description="every hex of the map, sea included: axial `q`, `r`, its terrain and its "
                    "number token (0: none)")]
    harbors: Annotated[tuple[Harbor, ...], Meta(
        description="every harbor: its sea hex and land hex (axial) and its kind, `3:1` or "
                    "the resource it trades 2:1")]
    ext: Annotated[dict[str, Any], Meta(
        description="what the game's modules add, by module (e.g. `fishermen`), and `board` "
                    "(a scenario's map) and `resources` (module resources, such as oil); "
                    "empty in a base game")] = {}
