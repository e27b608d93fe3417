"""The Rivers of Catan with Catan for Two: the neutral bridge (docs/rules/rivers.md §7.7,
`rivers.two_player.neutral_bridge`).

A player who builds a bridge builds a free bridge for a neutral of their choice (each neutral
has 3, reaching that neutral's network like any bridge); a neutral road only when no neutral
bridge fits, placed in Catan for Two's own stage (`NEUTRAL_OWNERS.owe`). Neutral pieces earn no
gold. The swamp tokens and the robber to a swamp need no rule here: Catan for Two's tokens and
robber action read "the desert" as any desert-like terrain, which the swamps are.
"""

from __future__ import annotations

from events.commands import Command
from events.events import Event
from events.prompts import Prompt
from events.rivers import BuildBridge, BuildNeutralBridge, NeutralBridgeBuilt, NeutralBridgeRequired
from services.rules.engine import pieces
from services.rules.engine.base.common import check_place, require_current
from services.rules.engine.base.scoring import derive_longest_road
from services.rules.engine.base.sites import pieces_left
from services.rules.engine.capabilities import NEUTRAL_OWNERS, NeutralOwners
from services.rules.engine.chance import Dealer
from services.rules.engine.combinations import Combination
from services.rules.engine.registry import Handler
from services.rules.engine.rules import reject
from services.rules.engine.scenarios.rivers.bridges import bridge_sites_for, site_problem
from services.rules.engine.scenarios.rivers.common import BRIDGE, NEUTRAL_BRIDGE, rivers
from services.rules.engine.state import Rules, State

RULE = "rivers.two_player.neutral_bridge"


def neutral_owners(state: State) -> NeutralOwners:
    owners = state.rules.capability(NEUTRAL_OWNERS)
    assert owners is not None, "installed only with Catan for Two, which provides it"
    return owners


def neutral_bridge_options(state: State, seat: int) -> list[BuildNeutralBridge]:
    return [BuildNeutralBridge(seat=seat, neutral=k, edge=e)
            for k in neutral_owners(state).owners(state) for e in bridge_sites_for(state, k)]


def owed_after_bridge(state: State, seat: int) -> str | None:
    """What a bridge owes the neutrals on this board: a bridge, else a road, else nothing."""
    if neutral_bridge_options(state, seat):
        return "bridge"
    if neutral_owners(state).options(state, seat, "road"):
        return "road"
    return None


def owing(build_bridge: Handler[State]) -> Handler[State]:
    """Wrap BuildBridge: the bridge, then the neutral piece it owes (if one fits)."""

    def handler(state: State, cmd: BuildBridge, dealer: Dealer) -> list[Event]:
        events = list(build_bridge(state, cmd, dealer))
        scratch = state.copy()
        for e in events:
            state.rules.registry.evolvers[type(e)](scratch, e)
        piece = owed_after_bridge(scratch, cmd.seat)
        if piece == "bridge":
            events.append(NeutralBridgeRequired(seat=cmd.seat, piece="bridge"))
        elif piece == "road":
            events.append(NeutralBridgeRequired(seat=cmd.seat, piece="road"))
        return events

    return handler


def evolve_required(state: State, e: NeutralBridgeRequired) -> None:
    if e.piece == "bridge":
        r = rivers(state)
        r.owed, r.resume = True, state.phase
        state.phase = NEUTRAL_BRIDGE
        return
    neutral_owners(state).owe(state, "road")  # Catan for Two's own stage places it


def build_neutral_bridge(state: State, cmd: BuildNeutralBridge, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    if cmd.neutral not in neutral_owners(state).owners(state):
        raise reject(RULE, f"{cmd.neutral} is not a neutral player")
    check_place(state, "edge", cmd.edge)
    if pieces_left(state, cmd.neutral, BRIDGE) <= 0:
        raise reject("rivers.bridge.limit", "that neutral player has no bridge left")
    problem = site_problem(state, cmd.neutral, cmd.edge)
    if problem is not None:
        raise problem
    return [NeutralBridgeBuilt(seat=cmd.seat, neutral=cmd.neutral, edge=cmd.edge)]


def evolve_neutral_bridge(state: State, e: NeutralBridgeBuilt) -> None:
    pieces.place(state, e.neutral, BRIDGE, e.edge)
    r = rivers(state)
    state.phase, r.owed = r.resume, False


def prompt_neutral_bridge(state: State) -> list[Prompt]:
    seat = state.current
    options: list[Command] = list(neutral_bridge_options(state, seat))
    return [Prompt(seat=seat, stage=NEUTRAL_BRIDGE, options=options, default=options[0])]


def install(rules: Rules) -> None:
    rules.handle(BuildBridge, owing(rules.registry.handlers[BuildBridge]))
    rules.handle(BuildNeutralBridge, build_neutral_bridge)
    rules.allow(NEUTRAL_BRIDGE, BuildNeutralBridge)
    rules.prompt(NEUTRAL_BRIDGE, prompt_neutral_bridge)
    rules.evolve_with(NeutralBridgeRequired, evolve_required)
    rules.evolve_with(NeutralBridgeBuilt, evolve_neutral_bridge)
    rules.derive((NeutralBridgeBuilt,), derive_longest_road)  # a neutral may take it
    rules.add_vp_events(NeutralBridgeBuilt)
    # Public and without chance: a table playing with undo may take them back.
    rules.reversible_events(NeutralBridgeRequired, NeutralBridgeBuilt)


COMBINATION = Combination(
    pair=("rivers", "catan-for-two"), install=install,
    description="a bridge owes a neutral bridge (or road); neutral pieces earn no gold")
