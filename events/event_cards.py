"""Commands and events of the Catan Event Cards variant (docs/rules/event-cards.md §3).

The drawn card is public (`EventCardDrawn`). The choices of a simultaneous stage
(`EventChoiceMade`) are private until the stage resolves; cards handed from one player to
another (`NeighborsGifted`, `AssistanceGiven`) are seen only by giver and receiver. The
engine's redactors (services/rules/engine/variants/event_cards.py) do the hiding.
"""

from __future__ import annotations

from typing import Literal

from events.commands import Command
from events.events import Event
from events.registry import register_module
from events.schema import widened
from events.types import Bundle, Resource

EventName = Literal[
    "none",
    "robber_attacks",
    "epidemic",
    "earthquake",
    "good_neighbors",
    "tournament",
    "trade_advantage",
    "calm_sea",
    "robber_flees",
    "neighborly_assistance",
    "conflict",
    "plentiful_year",
    "new_year",
]

# --- commands: answers to an event's stage, and the repair of a damaged road --------------


class DamageRoad(Command, frozen=True, kw_only=True):
    """Earthquake: the road of your own that you turn sideways."""

    edge: int


class GiveToNeighbor(Command, frozen=True, kw_only=True):
    """Good Neighbors: the card you give to the player on your left."""

    resource: Resource


class TakeResource(Command, frozen=True, kw_only=True):
    """Tournament, Calm Sea, Plentiful Year: the resource you take from the bank."""

    resource: Resource


class AssistPlayer(Command, frozen=True, kw_only=True):
    """Neighborly Assistance: a leader gives `resource` to seat `to` (fewer VP)."""

    resource: Resource
    to: int


class TakeCardFrom(Command, frozen=True, kw_only=True):
    """Trade Advantage, Conflict: the player you take a random card from."""

    victim: int


class RepairRoad(Command, frozen=True, kw_only=True):
    """Pay 1 lumber + 1 brick to turn your damaged road back (a player has at most one)."""


# --- events ---------------------------------------------------------------------------------


class EventCardDrawn(Event, frozen=True, kw_only=True):
    """A card revealed from the event deck: `index` is its position in deck `cycle`.

    New Year (`event="new_year"`, `number=0`) ends the cycle; the next card is drawn from the
    rebuilt deck `cycle + 1` in the same command (it is the turn's "roll")."""

    seat: int
    number: int
    event: EventName
    cycle: int
    index: int


class EventChoiceRequired(Event, frozen=True, kw_only=True):
    """The card's event asks these seats to choose (in this order, for Neighborly Assistance)."""

    event: EventName
    seats: tuple[int, ...]


class EventChoiceMade(Event, frozen=True, kw_only=True):
    """Private until the stage resolves: only `seat` sees its `resource` or `edge`."""

    seat: int
    event: EventName
    resource: Resource | None = None
    edge: int | None = None


class RoadsDamaged(Event, frozen=True, kw_only=True):
    """Earthquake: per seat the road turned sideways (-1: none)."""

    edges: tuple[int, ...]


class NeighborsGifted(Event, frozen=True, kw_only=True):
    """Good Neighbors: `givers[i]` gave `resources[i]` to `receivers[i]`, the seat on its left.
    Private: a seat sees only the card it gave and the card it received."""

    givers: tuple[int, ...]
    receivers: tuple[int, ...]
    resources: tuple[Resource | None, ...]


class EventResourcesGranted(Event, frozen=True, kw_only=True):
    """Tournament, Calm Sea, Plentiful Year: what each seat took from the bank, after the
    bank shortage rule (`short`: resources nobody got)."""

    event: EventName
    gains: tuple[Bundle, ...]
    short: tuple[Resource, ...] = ()


class AssistanceGiven(Event, frozen=True, kw_only=True):
    """Neighborly Assistance. Private: only giver and receiver see `resource`."""

    giver: int
    receiver: int
    resource: Resource | None


class VictimChosen(Event, frozen=True, kw_only=True):
    """Trade Advantage / Conflict: `seat` takes a random card from `victim` (a `CardStolen`
    follows)."""

    seat: int
    victim: int
    event: EventName


class RobberFled(Event, frozen=True, kw_only=True):
    """Robber Flees: the robber goes back to the desert; nobody is robbed."""

    hex: int


class RoadRepaired(Event, frozen=True, kw_only=True):
    seat: int
    edge: int


register_module(__name__, Command, Event)
# v2 (2026-12): resources and cards are any name of the game's vocabulary (events.types).
widened("AssistanceGiven", "EventChoiceMade", "EventResourcesGranted", "NeighborsGifted")
