"""Commands and events of the Barbarian Attack scenario (docs/rules/barbarian-attack.md §9;
engine package `services.rules.engine.scenarios.barbarian_attack`).

Everything here is public: barbarians, knights, gold, prisoners and the scenario's development
cards (carried out the moment they are bought). Hands stay hidden through the base events.
Hexes, edges and seats are the board's integer ids; a relocation from the supply has
`source = -1`. With Catan for Two the shared foreign knight stands for seat `FOREIGN` (-1) in a
battle's `knights` (§9.12).
"""

from __future__ import annotations

from typing import Literal

from events.catan_for_two import NeutralPiece
from events.commands import Command
from events.events import Event
from events.registry import register_module
from events.schema import widened
from events.types import Resource

AttackCard = Literal["knighthood", "swift_knight", "treason", "intrigue"]
ATTACK_CARDS: tuple[AttackCard, ...] = ("knighthood", "swift_knight", "treason", "intrigue")
FROM_SUPPLY = -1
FOREIGN = -1  # the foreign knight's "seat" in a battle (Catan for Two)

# --- commands -------------------------------------------------------------------------------


class RaiseKnight(Command, frozen=True, kw_only=True):
    """Knighthood (a free castle path) or Swift Knight (any free path): where the knight goes."""

    edge: int


class RelocateByTreason(Command, frozen=True, kw_only=True):
    """Treason: one barbarian from `source` (a coastal hex, or -1: the supply) to `target`."""

    source: int
    target: int


class CaptureByIntrigue(Command, frozen=True, kw_only=True):
    """Intrigue: one barbarian of this coastal hex becomes the seat's prisoner."""

    hex: int


class BeginMarch(Command, frozen=True, kw_only=True):
    """Trading and building are over: the knights march (a march step begins it too)."""


class MarchKnight(Command, frozen=True, kw_only=True):
    """A knight walks from path `source` to path `target` (3 paths, 5 with `boost`: 1 grain)."""

    source: int
    target: int
    boost: bool = False


class MarchForeignKnight(Command, frozen=True, kw_only=True):
    """Catan for Two (§9.12): the active seat marches the shared foreign knight to `target`,
    after its own knights (up to 3 paths, as a knight's march)."""

    target: int


class MoveBarbarianByTokens(Command, frozen=True, kw_only=True):
    """Catan for Two (§9.12): the token action moves one barbarian from coastal hex `source`
    to coastal hex `target`."""

    source: int
    target: int


class ChooseSevenVictim(Command, frozen=True, kw_only=True):
    """After a 7's discards: draw one random resource card from `victim`."""

    victim: int


class BuyResourceWithGold(Command, frozen=True, kw_only=True):
    """2 gold for 1 resource from the bank (twice per turn at most)."""

    resource: Resource


class SellResourceForGold(Command, frozen=True, kw_only=True):
    """The seat's ratio (4, 3 or 2) of one resource for 1 gold."""

    resource: Resource


# --- events ---------------------------------------------------------------------------------


class BarbariansLanded(Event, frozen=True, kw_only=True):
    """A landing: its different totals in the order thrown (`n`: the first one's chance index),
    and the hexes that took a barbarian, in order (a full hex's total lands nothing)."""

    totals: tuple[int, ...]
    hexes: tuple[int, ...]
    n: int


class AttackCardDrawn(Event, frozen=True, kw_only=True):
    """A development card bought (`free`: Intrigue's replacement draw), shown to all.

    `lost`: a knight card with no use, or an Intrigue with no barbarian on the board."""

    seat: int
    card: AttackCard
    n: int
    free: bool = False
    lost: bool = False


class KnightRaised(Event, frozen=True, kw_only=True):
    seat: int
    edge: int


class BarbarianRelocatedByTreason(Event, frozen=True, kw_only=True):
    seat: int
    source: int
    target: int


class BarbarianCapturedByIntrigue(Event, frozen=True, kw_only=True):
    seat: int
    hex: int


class MarchBegun(Event, frozen=True, kw_only=True):
    seat: int


class KnightMarched(Event, frozen=True, kw_only=True):
    seat: int
    source: int
    target: int
    boost: bool


class CoastalBattleWon(Event, frozen=True, kw_only=True):
    """A won battle at `hex`: its `barbarians` shared as `prisoners` (per seat), `gold` paid per
    seat (compensation and lost knights), the winners of each throw-off (`throws`, chance index
    `n` on), the colour die `die` (index `die_n`) and the knights it removed `(seat, edge)`."""

    hex: int
    barbarians: int
    knights: tuple[tuple[int, int], ...]
    prisoners: tuple[int, ...]
    gold: tuple[int, ...]
    throws: tuple[tuple[int, ...], ...]
    n: int
    die: int
    die_n: int
    lost: tuple[tuple[int, int], ...]


class ForeignKnightJoined(Event, frozen=True, kw_only=True):
    """Catan for Two: the foreign knight enters on castle path `edge` with the first knight."""

    edge: int


class ForeignKnightMarched(Event, frozen=True, kw_only=True):
    seat: int
    source: int
    target: int


class BarbarianMovedByTokens(Event, frozen=True, kw_only=True):
    """Catan for Two: the token action moved a barbarian; `tokens` went back to the supply."""

    seat: int
    source: int
    target: int
    tokens: int


class NeutralPieceReconsidered(Event, frozen=True, kw_only=True):
    """Catan for Two: a landing conquered the sites the owed neutral piece had; it is now
    `piece` ("road" when no settlement fits any more), or nothing (None) when none fits."""

    seat: int
    piece: NeutralPiece | None


class SevenVictimChosen(Event, frozen=True, kw_only=True):
    """A 7's steal: the active seat picked `victim` (the card follows as `CardStolen`)."""

    seat: int
    victim: int


class ResourceBoughtWithGold(Event, frozen=True, kw_only=True):
    seat: int
    resource: Resource


class ResourceSoldForGold(Event, frozen=True, kw_only=True):
    seat: int
    resource: Resource
    count: int


register_module(__name__, Command, Event)
# v2 (2026-12): resources and cards are any name of the game's vocabulary (events.types).
widened("ResourceBoughtWithGold", "ResourceSoldForGold")
