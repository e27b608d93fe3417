"""Commands: what a seat asks the rules to do. Imperative names; the tag is the class name.

Every command names the seat that issues it. The envelope (`events.envelope.CommandEnvelope`)
adds the client-made `command_id`, the game and `expected_version`; the entry that carries
it is signed with the seat's turn key (events/auth.py).
Board places are stable integer ids of the game's map (`vertex`, `edge`, `hex`); the human form
("(0,0)/(0,-1)/(1,-1)") is produced by `services.rules.engine.board.Board.vertex_name` for logs.
"""

from __future__ import annotations

import msgspec

from events.registry import register_module
from events.types import Bundle, Resource, TradeBundle


# Plain data, out of the cyclic collector's sight (`gc=False`, inherited): see events.events.Event.
class Command(msgspec.Struct, tag=True, frozen=True, forbid_unknown_fields=True, kw_only=True,
              gc=False):
    """Base of every command; `seat` is 0-based."""

    seat: int


# --- set-up (docs/rules/base.md §1.3) ---------------------------------------------------------------


class PlaceSettlement(Command, frozen=True, kw_only=True):
    vertex: int


class PlaceRoad(Command, frozen=True, kw_only=True):
    edge: int


# --- the turn (§1.4) ----------------------------------------------------------------------


class RollDice(Command, frozen=True, kw_only=True):
    pass


class EndTurn(Command, frozen=True, kw_only=True):
    pass


class DiscardResources(Command, frozen=True, kw_only=True):
    resources: Bundle


class MoveRobber(Command, frozen=True, kw_only=True):
    """Move the robber to `hex` and rob `victim`: a random resource card, or the card named in
    `take` where a rule lets the thief choose (Oil Springs: "oil")."""

    hex: int
    victim: int | None = None
    take: Resource | None = None


# --- building (§1.7) ------------------------------------------------------------------------


class BuildRoad(Command, frozen=True, kw_only=True):
    edge: int


class BuildSettlement(Command, frozen=True, kw_only=True):
    vertex: int


class BuildCity(Command, frozen=True, kw_only=True):
    vertex: int


# --- development cards (§1.8) ----------------------------------------------------------------


class BuyDevelopmentCard(Command, frozen=True, kw_only=True):
    pass


class PlayKnight(Command, frozen=True, kw_only=True):
    pass


class PlayRoadBuilding(Command, frozen=True, kw_only=True):
    pass


class StopRoadBuilding(Command, frozen=True, kw_only=True):
    """Give up the remaining free roads of Road Building (only when none can be placed)."""


class PlayYearOfPlenty(Command, frozen=True, kw_only=True):
    resources: tuple[Resource, Resource]


class PlayMonopoly(Command, frozen=True, kw_only=True):
    resource: Resource


# --- trade (§1.10) --------------------------------------------------------------------------


class MaritimeTrade(Command, frozen=True, kw_only=True):
    """Give `give` at the seat's best ratio for it (4, 3 or 2) and take one `get`."""

    give: Resource
    get: Resource


class ProposeTrade(Command, frozen=True, kw_only=True):
    """The active seat offers `give` for `get`; `to` limits who may answer (default: all).
    Either side may name any resource of the game and its currency (gold), where it has one."""

    give: TradeBundle
    get: TradeBundle
    to: tuple[int, ...] = ()


class AcceptTrade(Command, frozen=True, kw_only=True):
    pass


class RejectTrade(Command, frozen=True, kw_only=True):
    pass


class CounterTrade(Command, frozen=True, kw_only=True):
    """A responder's own terms, from the responder's side: it gives `give`, wants `get`."""

    give: TradeBundle
    get: TradeBundle


class ConfirmTrade(Command, frozen=True, kw_only=True):
    """The proposer closes the deal with one seat that accepted (or countered)."""

    partner: int


class CancelTrade(Command, frozen=True, kw_only=True):
    pass


register_module(__name__, Command)
