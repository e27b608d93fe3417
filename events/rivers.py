"""Commands and events of the Rivers of Catan scenario (docs/rules/rivers.md §7; engine module
`services.rules.engine.scenarios.rivers`).

Gold is public (docs/rules/chance-and-hidden-information.md §14.7): nothing here is redacted.
Gold is no resource card, so it never travels in a base event's bundle: it moves only with
`GoldEarned`, `GoldSpent` and `GoldTradeCompleted`. A trade with gold between two players
is this module's own offer (`OfferGoldTrade`, answered by the seat it is made to), public
like the base game's trades.
"""

from __future__ import annotations

from typing import Literal

from events.commands import Command
from events.events import Event
from events.registry import register_module
from events.types import Bundle, Resource

GoldReason = Literal["road", "settlement", "bridge", "sale"]
NeutralBridgePiece = Literal["bridge", "road"]

# --- commands -------------------------------------------------------------------------------


class BuildBridge(Command, frozen=True, kw_only=True):
    """A bridge (1 lumber, 2 brick) on a bridge site, connected to the seat's network (§7.3)."""

    edge: int


class BuyWithGold(Command, frozen=True, kw_only=True):
    """2 gold for 1 resource from the bank; at most twice per turn (§7.4)."""

    resource: Resource


class SellForGold(Command, frozen=True, kw_only=True):
    """Resources of one kind for 1 gold at the seat's maritime ratio (4, 3, or 2) (§7.4)."""

    resource: Resource


class BuildNeutralBridge(Command, frozen=True, kw_only=True):
    """With Catan for Two: the free bridge owed to a neutral after building a bridge."""

    neutral: int
    edge: int


class OfferGoldTrade(Command, frozen=True, kw_only=True):
    """The active seat offers `give` cards and `give_gold` gold to `partner` for `get` cards
    and `get_gold` gold; gold on one side at least (without gold it is a base trade)."""

    partner: int
    give: Bundle = {}
    get: Bundle = {}
    give_gold: int = 0
    get_gold: int = 0


class AcceptGoldTrade(Command, frozen=True, kw_only=True):
    """The seat the gold offer is made to takes it."""


class DeclineGoldTrade(Command, frozen=True, kw_only=True):
    """The seat the gold offer is made to turns it down."""


# --- events ---------------------------------------------------------------------------------


class BridgeBuilt(Event, frozen=True, kw_only=True):
    seat: int
    edge: int


class GoldEarned(Event, frozen=True, kw_only=True):
    """`gold` from the supply for a piece built by a river (`place`: its edge or vertex),
    or for resources sold (`reason` "sale", `place` -1)."""

    seat: int
    gold: int
    reason: GoldReason
    place: int


class GoldSpent(Event, frozen=True, kw_only=True):
    """`gold` back to the supply for one `resource` from the bank."""

    seat: int
    gold: int
    resource: Resource


class ResourcesSoldForGold(Event, frozen=True, kw_only=True):
    """`count` cards of `resource` to the bank (the seat's ratio); `GoldEarned` follows."""

    seat: int
    resource: Resource
    count: int


class NeutralBridgeRequired(Event, frozen=True, kw_only=True):
    """With Catan for Two: `seat` built a bridge and owes a neutral `piece` (a road only
    when no neutral bridge fits)."""

    seat: int
    piece: NeutralBridgePiece


class NeutralBridgeBuilt(Event, frozen=True, kw_only=True):
    seat: int  # who built it
    neutral: int
    edge: int


class GoldTradeOffered(Event, frozen=True, kw_only=True):
    seat: int
    partner: int
    give: Bundle
    get: Bundle
    give_gold: int
    get_gold: int


class GoldTradeCompleted(Event, frozen=True, kw_only=True):
    """The offer taken: cards and gold change hands as offered."""

    seat: int
    partner: int
    give: Bundle
    get: Bundle
    give_gold: int
    get_gold: int


class GoldTradeDeclined(Event, frozen=True, kw_only=True):
    seat: int  # the proposer
    partner: int


register_module(__name__, Command, Event)
