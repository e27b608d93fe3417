"""Events: what happened, in the past tense. The log is a sequence of these, wrapped in
`events.envelope.EventEnvelope` (version, time, causing command, schema, rules version).

Private parts (a stolen card, a drawn development card) are plain fields here; `redact` in the
engine's views decides who may see them. Every chance outcome is written into an event, so a
fold never draws anything.
"""

from __future__ import annotations

import msgspec

from events.registry import register_module
from events.schema import widened
from events.types import Bundle, DevCard, HarborKind, Resource, Terrain, TradeBundle


# `gc=False` (inherited by every event): an event holds plain data (numbers, strings, and
# tuples, lists and dicts of them), so it can never be part of a reference cycle, and the cyclic
# collector need not know it. Without its header an event is smaller and made and freed about a
# third faster; a game makes one or two per decision. Commands and prompts are the same.
class Event(msgspec.Struct, tag=True, frozen=True, kw_only=True, gc=False):
    """Base of every event."""


class Tile(msgspec.Struct, frozen=True, array_like=True):
    """One hex of the layout: axial (q, r), terrain, number token (0 = none)."""

    q: int
    r: int
    terrain: Terrain
    number: int = 0


class Harbor(msgspec.Struct, frozen=True, array_like=True):
    """A harbor on the edge between a sea hex and a land hex."""

    sea: tuple[int, int]
    land: tuple[int, int]
    kind: HarborKind


class ModuleSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A rule module and its parameters, as chosen at game creation."""

    name: str
    params: dict[str, int | str | bool] = {}


class GameCreated(Event, frozen=True, kw_only=True):
    game_id: str
    ruleset: str
    modules: tuple[ModuleSpec, ...]
    seats: int
    names: tuple[str, ...]
    map: str
    tiles: tuple[Tile, ...]
    harbors: tuple[Harbor, ...]
    robber: tuple[int, int] | None
    seed_sha256: str
    turn_limit: int = 0  # 0: none; else the game ends undecided after this many turns
    # Module-specific public set-up data (e.g. neutral settlements), decided with the layout.
    setup: dict[str, list[int]] = {}


# --- set-up ---------------------------------------------------------------------------------


class SettlementBuilt(Event, frozen=True, kw_only=True):
    seat: int
    vertex: int
    free: bool = False


class RoadBuilt(Event, frozen=True, kw_only=True):
    seat: int
    edge: int
    free: bool = False


class CityBuilt(Event, frozen=True, kw_only=True):
    seat: int
    vertex: int


class StartingResourcesTaken(Event, frozen=True, kw_only=True):
    seat: int
    resources: Bundle


# --- the turn -------------------------------------------------------------------------------


class DiceRolled(Event, frozen=True, kw_only=True):
    seat: int
    d1: int
    d2: int
    n: int  # which roll of the game this is (the chance index)


class ResourcesProduced(Event, frozen=True, kw_only=True):
    """Per seat what it received; `short` names resources nobody got for bank shortage."""

    gains: tuple[Bundle, ...]
    short: tuple[Resource, ...] = ()


class DiscardRequired(Event, frozen=True, kw_only=True):
    counts: tuple[int, ...]  # per seat, 0 = nothing to discard


class ResourcesDiscarded(Event, frozen=True, kw_only=True):
    seat: int
    resources: Bundle


class RobberMoved(Event, frozen=True, kw_only=True):
    seat: int
    hex: int
    victim: int | None = None


class CardStolen(Event, frozen=True, kw_only=True):
    """Private: only thief and victim see `resource`; `n` is the chance index. A card the
    thief chose (MoveRobber's `take`, Oil Springs' oil) was not drawn: `n` is -1 and the
    card is public."""

    thief: int
    victim: int
    resource: Resource | None
    n: int


class TurnEnded(Event, frozen=True, kw_only=True):
    seat: int
    next: int


# --- building and cards ---------------------------------------------------------------------


class DevelopmentCardBought(Event, frozen=True, kw_only=True):
    """Private: only the buyer sees `card`; `n` is the draw index."""

    seat: int
    card: DevCard | None
    n: int


class KnightPlayed(Event, frozen=True, kw_only=True):
    seat: int


class RoadBuildingPlayed(Event, frozen=True, kw_only=True):
    seat: int
    roads: int  # free roads granted (fewer when pieces run out)


class YearOfPlentyPlayed(Event, frozen=True, kw_only=True):
    seat: int
    resources: Bundle


class MonopolyPlayed(Event, frozen=True, kw_only=True):
    seat: int
    resource: Resource
    taken: tuple[int, ...]  # per seat, how many cards went to the player


class LongestRoadChanged(Event, frozen=True, kw_only=True):
    holder: int | None
    length: int


class LargestArmyChanged(Event, frozen=True, kw_only=True):
    holder: int | None
    knights: int


# --- trade ----------------------------------------------------------------------------------


class MaritimeTraded(Event, frozen=True, kw_only=True):
    seat: int
    give: Resource
    count: int
    get: Resource


class TradeProposed(Event, frozen=True, kw_only=True):
    seat: int
    give: TradeBundle
    get: TradeBundle
    to: tuple[int, ...]


class TradeAnswered(Event, frozen=True, kw_only=True):
    """A responder accepted, rejected or countered (then `give`/`get` are its own terms)."""

    seat: int
    answer: str  # "accept" | "reject" | "counter"
    give: TradeBundle = {}
    get: TradeBundle = {}


class TradeCompleted(Event, frozen=True, kw_only=True):
    """`seat` gave `give` to `partner` and received `get` from it (cards, and the game's
    currency where it has one)."""

    seat: int
    partner: int
    give: TradeBundle
    get: TradeBundle


class TradeCancelled(Event, frozen=True, kw_only=True):
    seat: int


# --- the table ------------------------------------------------------------------------------


class SeatForfeited(Event, frozen=True, kw_only=True):
    """A seat's controller left the game for good (a bot that disconnected): from here on the
    rules service plays the seat's default moves at once, and rankings put it last."""

    seat: int
    reason: str


# --- end ------------------------------------------------------------------------------------


class GameFinished(Event, frozen=True, kw_only=True):
    """The game is over; `seed` is revealed so anyone can audit every chance outcome."""

    winner: int | None
    scores: tuple[int, ...]
    reason: str  # "victory" | "turn_limit" | module-specific
    seed: str  # hex


register_module(__name__, Event)

# v2 (2026-12): resources, cards, terrains and harbor kinds are any name the game's vocabulary
# knows (events.types), no longer the base game's list only; trades carry currency too.
widened(
    "GameCreated", "StartingResourcesTaken", "ResourcesProduced", "ResourcesDiscarded",
    "CardStolen", "DevelopmentCardBought", "YearOfPlentyPlayed", "MonopolyPlayed",
    "MaritimeTraded", "TradeProposed", "TradeAnswered", "TradeCompleted",
)
