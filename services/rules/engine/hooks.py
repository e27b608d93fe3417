"""The typed hooks a ruleset holds: what the base rules ask, and modules wrap or extend.

Each hook is a Protocol over the state type `S` (the engine's `State`), so this file and
`ruleset.py` need not import the state (and the state can name its ruleset's type without an
import circle). A module *wraps* a single hook (keeps the previous function and calls it) or
*appends* to a list hook; the base rules only ever call hooks.

    hook                     called when                             base answer
    roll                     the turn's production step              roll two dice
    resolve_dice             the faces are known, before production  resolve_number(d1 + d2)
    resolve_number           a number is to be resolved              production, or seven
    seven                    a 7 (decide side)                       discards of > 7 cards
    seven_stage              a 7's discards are done (evolve side)   the robber phase
    roll_resolved            production (or a 7) is over             the main phase
    production               gains per seat for a number             buildings x level by hex
    robber_hexes / victims   where the robber may go, whom to rob
    robber_home              where "to the desert" sends the robber   the first desert, else off an off-board map
    steal                    the robber's (or a card's) theft         a random resource card
    end_of_turn (list)       the active seat ends its turn           nothing (the turn passes)
    wins                     is this seat the winner now             total VP >= win_target
    win_target / vp_bonus    VP needed / module VP
    road_blocked, settlement_blocked (lists)   a rule id refusing a place
    road_permits, settlement_permits (lists)   allow a place the base would refuse
    building_void (list)     a building that counts for nothing      none (Harbormaster asks)
    route_weight             an edge's count in a route (camels)     None: every edge counts 1
    extra_options, phase_refusal, robber_refusal (lists)
"""

from __future__ import annotations

from typing import Protocol, TypeVar

from events.commands import Command
from events.events import Event
from events.prompts import Prompt
from services.rules.engine.chance import Dealer

S = TypeVar("S", contravariant=True)


class Roll(Protocol[S]):
    def __call__(self, state: S, seat: int, dealer: Dealer, /) -> list[Event]: ...


class ResolveDice(Protocol[S]):
    """Both faces, before production: Pirate Islands moves its fleet by the smaller die."""

    def __call__(self, state: S, seat: int, d1: int, d2: int, dealer: Dealer, /) -> list[Event]: ...


class ResolveNumber(Protocol[S]):
    def __call__(self, state: S, seat: int, total: int, dealer: Dealer, /) -> list[Event]: ...


class Seven(Protocol[S]):
    """What a 7 does when it is decided (discards, a fleet, a barbarian …)."""

    def __call__(self, state: S, seat: int, dealer: Dealer, /) -> list[Event]: ...


class StateStep(Protocol[S]):
    """An evolve-side step: move the state to its next phase (no events, no chance)."""

    def __call__(self, state: S, /) -> None: ...


class Steal(Protocol[S]):
    """What the thief takes from the victim (a random card; Oil Springs: oil or a card)."""

    def __call__(self, state: S, thief: int, victim: int, dealer: Dealer, /) -> list[Event]: ...


class Production(Protocol[S]):
    def __call__(self, state: S, total: int, /) -> list[list[int]]: ...


class RobberHexes(Protocol[S]):
    def __call__(self, state: S, seat: int, /) -> list[int]: ...


class RobberHome(Protocol[S]):
    """Where a rule that sends the robber "to the desert" sends it (Robber Flees, the
    Friendly Robber's last resort): a hex, -1 for off the board (a scenario whose desert is
    gone), or None when there is no such place (the robber stays where it is)."""

    def __call__(self, state: S, /) -> int | None: ...


class RobberVictims(Protocol[S]):
    def __call__(self, state: S, seat: int, hex_id: int, /) -> list[int]: ...


class EndOfTurn(Protocol[S]):
    """A step of the end of the turn, before it passes (a vote, a battle, a disaster check).

    Returns the step's events; a step that opens a stage (its events move the phase away from
    the main phase) stops the turn there, and the stage, once closed, calls
    `base.turn.finish_turn` to run the remaining steps and pass the turn. A step must return
    nothing once it is done for this turn (its module remembers)."""

    def __call__(self, state: S, seat: int, dealer: Dealer, /) -> list[Event]: ...


class Wins(Protocol[S]):
    """Whether `seat` wins now (it is its turn). Pirate Islands: fortress and 10 VP."""

    def __call__(self, state: S, seat: int, /) -> bool: ...


class SeatNumber(Protocol[S]):
    def __call__(self, state: S, seat: int, /) -> int: ...


class VpBonus(Protocol[S]):
    def __call__(self, state: S, seat: int, public: bool, /) -> int: ...


class PlaceCheck(Protocol[S]):
    """A module's restriction on a place (edge or vertex): a rule id, or None."""

    def __call__(self, state: S, seat: int, place: int, /) -> str | None: ...


class PlacePermit(Protocol[S]):
    """A module's permission for a place the base would refuse (a ship on sea, a settlement
    a ship reaches): True allows it."""

    def __call__(self, state: S, seat: int, place: int, /) -> bool: ...


class RouteWeight(Protocol[S]):
    """How many roads the seat's route piece on `edge` counts for (a road beside a camel: 2)."""

    def __call__(self, state: S, seat: int, edge: int, /) -> int: ...


class ExtraOptions(Protocol[S]):
    def __call__(self, state: S, seat: int, phase: str, /) -> list[Command]: ...


class PhaseRefusal(Protocol[S]):
    def __call__(self, state: S, command: Command, /) -> str | None: ...


class RobberRefusal(Protocol[S]):
    def __call__(self, state: S, seat: int, hex_id: int, victim: int | None, /) -> str | None: ...


class Prompter(Protocol[S]):
    """Who must act in a phase, with the legal commands."""

    def __call__(self, state: S, /) -> list[Prompt]: ...


class Deriver(Protocol[S]):
    def __call__(self, state: S, dealer: Dealer, /) -> list[Event]: ...
