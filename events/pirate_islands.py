"""Commands and events of the Seafarers scenario The Pirate Islands (docs/rules/pirate-islands.md
§11; engine package `services.rules.engine.scenarios.pirate_islands`).

Ships, warships, the pirate fleet, fortresses and gold are public. The cards the fleet loots
are seen only by their owner (`FleetLooted.resources` is redacted for everyone else, who see
how many), like a robber's steal.
"""

from __future__ import annotations

from typing import Literal

from events.commands import Command
from events.events import Event
from events.registry import register_module
from events.schema import widened
from events.types import Bundle, Resource

WarshipCard = Literal["knight", "victory_point"]
FleetResult = Literal["loss", "reward", "tie"]
FortressResult = Literal["hit", "tie", "repelled"]

# --- commands -------------------------------------------------------------------------------


class BuildShip(Command, frozen=True, kw_only=True):
    """A ship (1 lumber, 1 wool) at the open end of the seat's route, on its lane (§11.4);
    free while placing Road Building's pieces."""

    edge: int


class MoveShip(Command, frozen=True, kw_only=True):
    """The route's open ship (its front) moved to another place a new ship could go."""

    ship: int
    to: int


class CommissionWarship(Command, frozen=True, kw_only=True):
    """Play a Knight (with 4 seats also a Victory Point card) to make a ship a warship (§11.8)."""

    card: WarshipCard = "knight"


class AttackFortress(Command, frozen=True, kw_only=True):
    """Attack the seat's own pirate fortress (its vertex) from the front of the route (§11.10)."""

    fortress: int


class ChooseFleetReward(Command, frozen=True, kw_only=True):
    """The resource a seat stronger than the fleet takes from the bank (§11.7)."""

    resource: Resource


class ChooseGold(Command, frozen=True, kw_only=True):
    """The resources a seat takes for what gold fields paid it (one per unit due, §11.6)."""

    resources: Bundle


class StealOnSeven(Command, frozen=True, kw_only=True):
    """On a 7 the roller draws a random card from a seat of their choice, or no one (§11.9)."""

    victim: int | None = None


# --- events ---------------------------------------------------------------------------------


class ShipBuilt(Event, frozen=True, kw_only=True):
    seat: int
    edge: int
    free: bool = False


class ShipMoved(Event, frozen=True, kw_only=True):
    seat: int
    ship: int  # the edge it left
    to: int


class FleetMoved(Event, frozen=True, kw_only=True):
    """The fleet sailed `steps` (the smaller die) along its loop to loop place `index`."""

    seat: int  # the roller
    steps: int
    index: int
    hex: int


class FleetAttacked(Event, frozen=True, kw_only=True):
    """The fleet (strength = the smaller die) against a seat's warships."""

    seat: int
    strength: int
    warships: int
    result: FleetResult


class FleetLooted(Event, frozen=True, kw_only=True):
    """Cards the fleet took to the bank; drawn at chance keys fleetloss:n … n+count-1.
    `resources` is None for everyone but the looted seat."""

    seat: int
    count: int
    n: int
    resources: Bundle | None = None


class FleetRewardDue(Event, frozen=True, kw_only=True):
    """A seat beat the fleet and names a resource; the seats after it are attacked then."""

    seat: int
    remaining: tuple[int, ...]
    strength: int
    total: int


class FleetRewardTaken(Event, frozen=True, kw_only=True):
    seat: int
    resource: Resource


class FleetRemoved(Event, frozen=True, kw_only=True):
    """Every fortress has fallen: the fleet leaves the board."""


class WarshipCommissioned(Event, frozen=True, kw_only=True):
    seat: int
    card: WarshipCard
    warships: int  # the seat's warships now


class FortressAttacked(Event, frozen=True, kw_only=True):
    """One die (chance key fortress:n) against the attacker's warships."""

    seat: int
    fortress: int
    roll: int
    warships: int
    result: FortressResult
    strength: int  # the fortress's strength after the attack
    n: int


class FortressCaptured(Event, frozen=True, kw_only=True):
    """The fortress fell: it is the attacker's settlement from now on."""

    seat: int
    vertex: int


class GoldDue(Event, frozen=True, kw_only=True):
    """Per seat, how many resources of their choice the gold fields pay."""

    counts: tuple[int, ...]


class GoldTaken(Event, frozen=True, kw_only=True):
    seat: int
    resources: Bundle


class SevenStealChosen(Event, frozen=True, kw_only=True):
    """The roller of a 7 draws from `victim` (a CardStolen follows) or from no one."""

    seat: int
    victim: int | None = None


register_module(__name__, Command, Event)
# v2 (2026-12): resources and cards are any name of the game's vocabulary (events.types).
widened("FleetLooted", "FleetRewardTaken", "GoldTaken")
