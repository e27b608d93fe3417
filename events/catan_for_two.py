"""Commands and events of the Catan for Two variant (docs/rules/catan-for-two.md §5; engine module
`services.rules.engine.variants.catan_for_two`).

Neutral players are owners 2 and 3 of a 2-seat game (`neutral` fields): they never act, the
active seat builds for them. Trade tokens are public counters. The cards of a forced trade are
private to the two players (`redact` hides them from spectators), like a robber's steal.
"""

from __future__ import annotations

from typing import Literal

from events.commands import Command
from events.events import Event
from events.registry import register_module
from events.schema import widened
from events.types import Bundle, Resource

NeutralPiece = Literal["road", "settlement"]
TokenAction = Literal["forced_trade", "robber_to_desert"]

# --- commands -------------------------------------------------------------------------------


class BuildNeutralRoad(Command, frozen=True, kw_only=True):
    """The free road the active seat owes a neutral player after building a road (§5 rule 5)."""

    neutral: int
    edge: int


class BuildNeutralSettlement(Command, frozen=True, kw_only=True):
    """The free settlement owed to a neutral player after building a settlement."""

    neutral: int
    vertex: int


class ForceTrade(Command, frozen=True, kw_only=True):
    """Token action: draw 2 random cards from the opponent, then give 2 back (§5 rule 4)."""


class GiveBackCards(Command, frozen=True, kw_only=True):
    """The 2 cards of the active seat's choice that end a forced trade."""

    resources: Bundle


class SendRobberToDesert(Command, frozen=True, kw_only=True):
    """Token action: the robber goes back to the desert; nobody is robbed (§5 rule 3)."""


class DiscardKnight(Command, frozen=True, kw_only=True):
    """Once per turn: a face-up knight goes to the discard pile for 2 trade tokens (rule 6)."""


# --- events ---------------------------------------------------------------------------------


class DiceRerolled(Event, frozen=True, kw_only=True):
    """The second roll repeated the first total: logged, no effect, roll again (§5 rule 8)."""

    seat: int
    d1: int
    d2: int
    n: int  # the chance index ("dice:<n>"), as in DiceRolled


class NeutralBuildRequired(Event, frozen=True, kw_only=True):
    """`seat` built a `cause` and now owes a neutral `piece` (a road when no neutral
    settlement fits anywhere)."""

    seat: int
    piece: NeutralPiece
    cause: NeutralPiece


class NeutralRoadBuilt(Event, frozen=True, kw_only=True):
    seat: int  # who built it
    neutral: int
    edge: int


class NeutralSettlementBuilt(Event, frozen=True, kw_only=True):
    seat: int
    neutral: int
    vertex: int


class TradeTokensGained(Event, frozen=True, kw_only=True):
    """From the supply; `reason` is "desert", "coast", "desert+coast" or "knight"."""

    seat: int
    tokens: int
    reason: str


class TradeTokensSpent(Event, frozen=True, kw_only=True):
    """The turn's one token action is paid for; the tokens go back to the supply."""

    seat: int
    tokens: int
    action: TokenAction


class ForcedTradeDrawn(Event, frozen=True, kw_only=True):
    """Private: only `seat` and `victim` see `cards`; `n` numbers the forced trades (chance
    keys "forcedtrade:<n>:<i>")."""

    seat: int
    victim: int
    count: int
    cards: tuple[Resource, ...] | None
    n: int


class ForcedTradeReturned(Event, frozen=True, kw_only=True):
    """Private: only `seat` and `victim` see `resources` (the cards given back)."""

    seat: int
    victim: int
    count: int
    resources: Bundle | None


class RobberSentToDesert(Event, frozen=True, kw_only=True):
    seat: int
    hex: int


class KnightDiscarded(Event, frozen=True, kw_only=True):
    """A face-up knight of `seat` left the table (it no longer counts for Largest Army)."""

    seat: int


register_module(__name__, Command, Event)
# v2 (2026-12): resources and cards are any name of the game's vocabulary (events.types).
widened("ForcedTradeDrawn", "ForcedTradeReturned")
