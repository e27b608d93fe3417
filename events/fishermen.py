"""Commands and events of the Fishermen of Catan scenario (docs/rules/fishermen.md §6; engine
package `services.rules.engine.scenarios.fishermen`).

A fish token shows 1, 2 or 3 fish; the old boot is shuffled in with them. The value of a token
in a hand is private to its holder (`FishDrawn.fish` is redacted for everyone else); spent and
returned tokens lie face up, so their values are public, and so is the boot.

Every fish action names the tokens paid (`tokens`: their values, e.g. (3, 2)); the fish on them
must reach the action's price, and no change is given.
"""

from __future__ import annotations

from typing import Literal

from events.commands import Command
from events.events import Event
from events.registry import register_module
from events.schema import widened
from events.types import DevCard, Resource

FishAction = Literal["robber", "steal", "bank", "road", "devcard"]
OffBoardReason = Literal["fish", "robber_flees", "no_legal_hex"]

# --- commands -------------------------------------------------------------------------------


class FishRemoveRobber(Command, frozen=True, kw_only=True):
    """2 fish: the robber leaves the board (also before the roll)."""

    tokens: tuple[int, ...]


class FishSteal(Command, frozen=True, kw_only=True):
    """3 fish: draw one random resource card from `victim`."""

    victim: int
    tokens: tuple[int, ...]


class FishTakeResource(Command, frozen=True, kw_only=True):
    """4 fish: one resource of choice from the bank."""

    resource: Resource
    tokens: tuple[int, ...]


class FishBuildRoad(Command, frozen=True, kw_only=True):
    """5 fish: a free road on `edge`, by the normal placement rules."""

    edge: int
    tokens: tuple[int, ...]


class FishTakeDevelopmentCard(Command, frozen=True, kw_only=True):
    """7 fish: the top development card, free."""

    tokens: tuple[int, ...]


class ReturnFish(Command, frozen=True, kw_only=True):
    """A seat above 7 fish tokens gives back the tokens of its choice (their values)."""

    tokens: tuple[int, ...]


class PassOldBoot(Command, frozen=True, kw_only=True):
    """The boot's holder hands it to `to`, who has at least the holder's public VP."""

    to: int


class LeaveRobberOff(Command, frozen=True, kw_only=True):
    """The robber has no legal hex (Friendly Robber): it leaves the board."""


# --- events ---------------------------------------------------------------------------------


class FishDrawn(Event, frozen=True, kw_only=True):
    """Private: only `seat` sees `fish` (1, 2 or 3); `n` is the chance index ("fish:<n>")."""

    seat: int
    fish: int | None
    n: int


class OldBootDrawn(Event, frozen=True, kw_only=True):
    """The draw `n` of `seat` was the old boot: shown at once, public from then on."""

    seat: int
    n: int


class FishReshuffled(Event, frozen=True, kw_only=True):
    """The supply ran out: the `tokens` spent tokens are turned over as the new supply."""

    tokens: int


class FishReturnRequired(Event, frozen=True, kw_only=True):
    """Seats above 7 fish tokens give back `counts[seat]` tokens each."""

    counts: tuple[int, ...]


class FishReturned(Event, frozen=True, kw_only=True):
    """Tokens given back to the (face-up) spent pile."""

    seat: int
    tokens: tuple[int, ...]


class FishSpent(Event, frozen=True, kw_only=True):
    """Tokens paid for a fish action, face up to the spent pile."""

    seat: int
    tokens: tuple[int, ...]
    action: FishAction


class FishResourceTaken(Event, frozen=True, kw_only=True):
    seat: int
    resource: Resource


class FishDevelopmentCardTaken(Event, frozen=True, kw_only=True):
    """Private: only `seat` sees `card`; `n` is the development draw index ("devcard:<n>")."""

    seat: int
    card: DevCard | None
    n: int


class RobberLeftBoard(Event, frozen=True, kw_only=True):
    """The robber is off the board: bought away with fish (`seat`), fled (Event Cards), or it
    had no legal hex (Friendly Robber)."""

    seat: int | None
    reason: OffBoardReason


class OldBootPassed(Event, frozen=True, kw_only=True):
    seat: int
    to: int


register_module(__name__, Command, Event)
# v2 (2026-12): resources and cards are any name of the game's vocabulary (events.types).
widened("FishDevelopmentCardTaken", "FishResourceTaken")
