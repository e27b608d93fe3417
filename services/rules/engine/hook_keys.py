"""The keys of the hooks (hooktable.py), typed against the engine's State: what a module passes
to `rules.set_hook`, `rules.wrap_hook` and `rules.add_hook`. One key per hook of
`HookTable`, under the same name in capitals (tests/hooks/test_registration.py checks they
match)."""

from __future__ import annotations

from typing import Final

from services.rules.engine import hooks
from services.rules.engine.hooktable import Hook, HookList
from services.rules.engine.state import State

ROLL: Final[Hook[hooks.Roll[State]]] = Hook("roll")
RESOLVE_DICE: Final[Hook[hooks.ResolveDice[State]]] = Hook("resolve_dice")
RESOLVE_NUMBER: Final[Hook[hooks.ResolveNumber[State]]] = Hook("resolve_number")
ROLL_RESOLVED: Final[Hook[hooks.StateStep[State]]] = Hook("roll_resolved")
PRODUCTION: Final[Hook[hooks.Production[State]]] = Hook("production")
SEVEN: Final[Hook[hooks.Seven[State]]] = Hook("seven")
SEVEN_STAGE: Final[Hook[hooks.StateStep[State]]] = Hook("seven_stage")
ROBBER_HEXES: Final[Hook[hooks.RobberHexes[State]]] = Hook("robber_hexes")
ROBBER_VICTIMS: Final[Hook[hooks.RobberVictims[State]]] = Hook("robber_victims")
ROBBER_HOME: Final[Hook[hooks.RobberHome[State]]] = Hook("robber_home")
STEAL: Final[Hook[hooks.Steal[State]]] = Hook("steal")
WINS: Final[Hook[hooks.Wins[State]]] = Hook("wins")
WIN_TARGET: Final[Hook[hooks.SeatNumber[State]]] = Hook("win_target")
ROUTE_WEIGHT: Final[Hook[hooks.RouteWeight[State]]] = Hook("route_weight")

END_OF_TURN: Final[HookList[hooks.EndOfTurn[State]]] = HookList("end_of_turn")
VP_BONUS: Final[HookList[hooks.VpBonus[State]]] = HookList("vp_bonus")
ROAD_BLOCKED: Final[HookList[hooks.PlaceCheck[State]]] = HookList("road_blocked")
SETTLEMENT_BLOCKED: Final[HookList[hooks.PlaceCheck[State]]] = HookList("settlement_blocked")
ROAD_PERMITS: Final[HookList[hooks.PlacePermit[State]]] = HookList("road_permits")
SETTLEMENT_PERMITS: Final[HookList[hooks.PlacePermit[State]]] = HookList("settlement_permits")
BUILDING_VOID: Final[HookList[hooks.PlacePermit[State]]] = HookList("building_void")
EXTRA_OPTIONS: Final[HookList[hooks.ExtraOptions[State]]] = HookList("extra_options")
PHASE_REFUSAL: Final[HookList[hooks.PhaseRefusal[State]]] = HookList("phase_refusal")
ROBBER_REFUSAL: Final[HookList[hooks.RobberRefusal[State]]] = HookList("robber_refusal")
