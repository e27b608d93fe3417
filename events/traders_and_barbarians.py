"""Commands and events of the Traders & Barbarians scenario (docs/rules/traders-and-barbarians.md
§10; engine package `services.rules.engine.scenarios.traders_and_barbarians`).

Everything here is public except the development card a seat buys (`TraderCardBought.card`,
redacted for every other reader) and the card a barbarian steals (the base `CardStolen`).
Barbarians are numbered 0..2 (`barbarian`); places are the map's vertex and edge ids.
"""

from __future__ import annotations

from typing import Literal

from events.commands import Command
from events.events import Event
from events.registry import register_module
from events.schema import widened
from events.types import Resource

Commodity = Literal["glass", "marble", "sand", "tools"]
BarbarianCause = Literal["seven", "knight", "drive_off"]

# --- commands -------------------------------------------------------------------------------


class MoveWagon(Command, frozen=True, kw_only=True):
    """One step of the seat's wagon along `edge`, a path from the vertex it stands on (§10.6)."""

    edge: int


class PayGrainForMovement(Command, frozen=True, kw_only=True):
    """1 grain for 2 more movement points, once per turn (§10.6)."""


class EndWagonMovement(Command, frozen=True, kw_only=True):
    """End the first movement early to start the second one Swift Journey gave (§10.10)."""


class TryDriveOff(Command, frozen=True, kw_only=True):
    """Throw a die to drive off the barbarian on a path the wagon stands at (§10.9)."""

    barbarian: int


class MoveBarbarianOnPath(Command, frozen=True, kw_only=True):
    """Relocate a barbarian to a barbarian-free path (a 7, a Knight, a driven-off one)."""

    barbarian: int
    edge: int


class MoveBarbarianWithTokens(Command, frozen=True, kw_only=True):
    """Catan for Two's token action: a barbarian to a free path without a road (§10.14)."""

    barbarian: int
    edge: int


class UpgradeWagon(Command, frozen=True, kw_only=True):
    """Pay for the next wagon card (§10.8)."""


class TraderBuyResource(Command, frozen=True, kw_only=True):
    """2 gold for 1 resource from the bank, at most twice per turn (§10.11)."""

    resource: Resource


class TraderSellResource(Command, frozen=True, kw_only=True):
    """Resources of one kind for 1 gold at the seat's maritime ratio (§10.11)."""

    resource: Resource




class PlaySwiftJourney(Command, frozen=True, kw_only=True):
    """The wagon moves a second full time this turn (§10.10)."""


# --- events ---------------------------------------------------------------------------------


class WagonMovementStarted(Event, frozen=True, kw_only=True):
    """The wagon part of the turn begins (no more trading or building) with `mp` points."""

    seat: int
    mp: int


class WagonMoved(Event, frozen=True, kw_only=True):
    """One step: `mp` points spent, `toll` gold paid; `to_bank` of it goes to the supply (a
    neutral road with Catan for Two), the rest to `toll_to` (None: nobody)."""

    seat: int
    edge: int
    vertex: int  # where the wagon now stands
    mp: int
    toll: int
    toll_to: int | None
    to_bank: int = 0


class MovementPointsBought(Event, frozen=True, kw_only=True):
    """1 grain paid for `mp` more movement points."""

    seat: int
    mp: int


class SecondMovementStarted(Event, frozen=True, kw_only=True):
    """Swift Journey's second movement begins with `mp` points (the first's rest is lost)."""

    seat: int
    mp: int


class CommodityDelivered(Event, frozen=True, kw_only=True):
    """The wagon's commodity was delivered at the plaza of `hex`: 1 VP and `gold`."""

    seat: int
    commodity: Commodity
    hex: int
    gold: int


class CommodityDrawn(Event, frozen=True, kw_only=True):
    """The empty wagon drew the top token of the stack of `hex` (chance "commodity:<stack>:<n>")."""

    seat: int
    commodity: Commodity
    hex: int
    n: int


class BarbarianDriveOffTried(Event, frozen=True, kw_only=True):
    """One die thrown against a barbarian (chance "driveoff:<n>")."""

    seat: int
    barbarian: int
    die: int
    success: bool
    n: int


class BarbarianMovedOnPath(Event, frozen=True, kw_only=True):
    """A barbarian now stands on `edge`; `victim` is robbed next (a 7 or a Knight) or None."""

    seat: int
    barbarian: int
    edge: int
    cause: BarbarianCause
    victim: int | None


class BarbarianMovedWithTokens(Event, frozen=True, kw_only=True):
    """Catan for Two's token action paid with `tokens`: the barbarian now stands on `edge`."""

    seat: int
    barbarian: int
    edge: int
    tokens: int


class WagonUpgraded(Event, frozen=True, kw_only=True):
    seat: int
    level: int


class TraderBoughtResource(Event, frozen=True, kw_only=True):
    seat: int
    resource: Resource
    gold: int


class TraderSoldResource(Event, frozen=True, kw_only=True):
    seat: int
    resource: Resource
    count: int
    gold: int


class TraderCardBought(Event, frozen=True, kw_only=True):
    """Private: only the buyer sees `card` (a name of the scenario's deck); `n` is the draw
    index ("devcard:<n>")."""

    seat: int
    card: str | None
    n: int






class SwiftJourneyPlayed(Event, frozen=True, kw_only=True):
    seat: int


register_module(__name__, Command, Event)
# v2 (2026-12): resources and cards are any name of the game's vocabulary (events.types).
widened("TraderBoughtResource", "TraderSoldResource")
