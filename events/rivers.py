"""Commands and events of the Rivers of Catan scenario (docs/rules/rivers.md §7; engine module
`services.rules.engine.scenarios.rivers`).

Gold is public (docs/rules/chance-and-hidden-information.md §14.7): nothing here is redacted.
Gold is no resource card but the game's currency (engine/vocab.py): it moves with `GoldEarned`
and `GoldSpent`, and in a trade between players as the base trade's "gold" (`ProposeTrade`,
`TradeCompleted`). Until 2026-12 such a trade was this module's own offer (`OfferGoldTrade`,
answered by the seat it was made to); those types are retired, and their upcasters (at the
end) read old logs into the base trade's shapes.
"""

from __future__ import annotations

from typing import Any, Literal

from events.commands import Command
from events.events import Event
from events.registry import register_module
from events.schema import retired, retired_command, widened
from events.types import Resource

GOLD = "gold"

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





register_module(__name__, Command, Event)
widened("GoldSpent", "ResourcesSoldForGold")  # v2: `resource` is any name of the vocabulary


# --- retired shapes (before 2026-12): gold rides in the base trade now ---------------------


def _with_gold(bundle: dict[str, int], gold: int) -> dict[str, int]:
    return {**bundle, GOLD: gold} if gold else dict(bundle)


@retired_command("OfferGoldTrade")
def _offer_gold_trade(d: dict[str, Any]) -> dict[str, Any]:
    return {"type": "ProposeTrade", "seat": d["seat"],
            "give": _with_gold(d.get("give", {}), d.get("give_gold", 0)),
            "get": _with_gold(d.get("get", {}), d.get("get_gold", 0)), "to": [d["partner"]]}


@retired_command("AcceptGoldTrade")
def _accept_gold_trade(d: dict[str, Any]) -> dict[str, Any]:
    return {"type": "AcceptTrade", "seat": d["seat"]}


@retired_command("DeclineGoldTrade")
def _decline_gold_trade(d: dict[str, Any]) -> dict[str, Any]:
    return {"type": "RejectTrade", "seat": d["seat"]}


@retired("GoldTradeOffered", into="TradeProposed", at=2)
def _gold_trade_offered(d: dict[str, Any]) -> dict[str, Any]:
    return {"seat": d["seat"], "give": _with_gold(d["give"], d["give_gold"]),
            "get": _with_gold(d["get"], d["get_gold"]), "to": [d["partner"]]}


@retired("GoldTradeCompleted", into="TradeCompleted", at=2)
def _gold_trade_completed(d: dict[str, Any]) -> dict[str, Any]:
    return {"seat": d["seat"], "partner": d["partner"],
            "give": _with_gold(d["give"], d["give_gold"]), "get": _with_gold(d["get"], d["get_gold"])}


@retired("GoldTradeDeclined", into="TradeAnswered", at=2)
def _gold_trade_declined(d: dict[str, Any]) -> dict[str, Any]:
    return {"seat": d["partner"], "answer": "reject"}
