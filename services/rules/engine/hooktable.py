"""The hook table of a ruleset: the functions the base rules call at each step (hooks.py says
what each one is asked). The base rules set every single hook; a module wraps one (receives the
previous function and returns one that calls it), replaces it, or adds to a list hook. Modules
do it through the ruleset's typed calls with the hook's key (`hook_keys.py`):

    rules.wrap_hook(WINS, wrap_wins)          # a single hook, wrapped
    rules.set_hook(ROBBER_HOME, off_board)    # a single hook, replaced
    rules.add_hook(ROAD_BLOCKED, blocked)     # a list hook, one more entry (first=True: first)

so every change is named in the ruleset's provenance (`hexlog rulesets --explain`).
"""

from __future__ import annotations

from typing import Generic, NoReturn, TypeVar

from services.rules.engine import hooks

ST = TypeVar("ST")  # the state type (engine.state.State)
F = TypeVar("F")


class Hook(Generic[F]):
    """The key of a single hook: `F` is its function type (a hooks.py Protocol)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"Hook({self.name!r})"


class HookList(Generic[F]):
    """The key of a list hook: every entry is asked, in order."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"HookList({self.name!r})"


def _unset(*args: object) -> NoReturn:
    raise NotImplementedError("hook not installed")


# The hooks in the order the table declares them (compiled instances have no __dict__).
HOOK_NAMES: tuple[str, ...] = (
    "roll",
    "resolve_dice",
    "resolve_number",
    "roll_resolved",
    "production",
    "seven",
    "seven_stage",
    "robber_hexes",
    "robber_victims",
    "robber_home",
    "steal",
    "end_of_turn",
    "wins",
    "win_target",
    "vp_bonus",
    "road_blocked",
    "settlement_blocked",
    "road_permits",
    "settlement_permits",
    "building_void",
    "route_weight",
    "extra_options",
    "phase_refusal",
    "robber_refusal",
)


# A native class when compiled: every hook the engine calls on each decision is a C struct
# field, not a dictionary lookup.
class HookTable(Generic[ST]):
    # The roll:
    roll: hooks.Roll[ST]
    resolve_dice: hooks.ResolveDice[ST]
    resolve_number: hooks.ResolveNumber[ST]
    roll_resolved: hooks.StateStep[ST]
    production: hooks.Production[ST]
    # … a 7 and the robber:
    seven: hooks.Seven[ST]
    seven_stage: hooks.StateStep[ST]
    robber_hexes: hooks.RobberHexes[ST]
    robber_victims: hooks.RobberVictims[ST]
    robber_home: hooks.RobberHome[ST]
    steal: hooks.Steal[ST]
    # … the end of a turn and of the game:
    end_of_turn: list[hooks.EndOfTurn[ST]]
    wins: hooks.Wins[ST]
    win_target: hooks.SeatNumber[ST]
    vp_bonus: list[hooks.VpBonus[ST]]
    # … where pieces go, and what routes count:
    road_blocked: list[hooks.PlaceCheck[ST]]
    settlement_blocked: list[hooks.PlaceCheck[ST]]
    road_permits: list[hooks.PlacePermit[ST]]
    settlement_permits: list[hooks.PlacePermit[ST]]
    # … a building on the board that counts for nothing (a conquered one): True voids it.
    building_void: list[hooks.PlacePermit[ST]]
    route_weight: hooks.RouteWeight[ST] | None
    # … what else a seat may do, and why a command is refused:
    extra_options: list[hooks.ExtraOptions[ST]]
    phase_refusal: list[hooks.PhaseRefusal[ST]]
    robber_refusal: list[hooks.RobberRefusal[ST]]

    def __init__(self) -> None:
        self.roll = _unset
        self.resolve_dice = _unset
        self.resolve_number = _unset
        self.roll_resolved = _unset
        self.production = _unset
        self.seven = _unset
        self.seven_stage = _unset
        self.robber_hexes = _unset
        self.robber_victims = _unset
        self.robber_home = _unset
        self.steal = _unset
        self.end_of_turn = []
        self.wins = _unset
        self.win_target = _unset
        self.vp_bonus = []
        self.road_blocked = []
        self.settlement_blocked = []
        self.road_permits = []
        self.settlement_permits = []
        self.building_void = []
        self.route_weight = None
        self.extra_options = []
        self.phase_refusal = []
        self.robber_refusal = []
