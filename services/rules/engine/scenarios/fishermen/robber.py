"""The robber of the Fishermen (docs/rules/fishermen.md §6.5, §6.8): it starts off the board
(the map says `robber = "none"`) and the base lets an off-board robber enter on any land hex
at the next 7 or Knight. It leaves the board when bought away with fish, when Event Cards'
Robber Flees is drawn (the pair's rule: engine/combinations/fishermen_event_cards.py), and when
it has no legal hex (Friendly Robber protecting everyone: "no legal hex" is asked of the
`robber_hexes` hook whatever wrapped it, when a command is decided)."""

from __future__ import annotations

from collections.abc import Callable

from events.commands import MoveRobber
from events.events import Event
from events.fishermen import LeaveRobberOff, RobberLeftBoard
from events.prompts import Prompt
from services.rules.engine import hook_keys as hk
from services.rules.engine import hooks
from services.rules.engine.base.common import require_current
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.state import MAIN, NO_ONE, ROBBER, ROLL, Rules, State


def no_legal_hex(state: State, seat: int) -> bool:
    """Whether the robber has nowhere to go: no hex at all, or only the one it stands on
    (Friendly Robber's fallback on a map without a desert)."""
    return all(h == state.robber for h in state.rules.hooks.robber_hexes(state, seat))


def leave_off(state: State, cmd: LeaveRobberOff, dealer: Dealer) -> list[Event]:
    require_current(state, cmd.seat)
    if not no_legal_hex(state, cmd.seat):
        raise reject("fishermen.friendly_robber.offboard", "the robber has a hex to go to")
    return [RobberLeftBoard(seat=cmd.seat, reason="no_legal_hex")]


MoveHandler = Callable[[State, MoveRobber, Dealer], list[Event]]


def guarded_move(previous: MoveHandler) -> MoveHandler:
    def handler(state: State, cmd: MoveRobber, dealer: Dealer) -> list[Event]:
        if no_legal_hex(state, cmd.seat) and cmd.seat == state.current:
            raise reject("fishermen.friendly_robber.offboard",
                         "the robber has no legal hex: it leaves the board")
        return previous(state, cmd, dealer)

    return handler


def offboard_prompt(previous: hooks.Prompter[State]) -> hooks.Prompter[State]:
    def prompt(state: State) -> list[Prompt]:
        seat = state.current
        if no_legal_hex(state, seat):
            leave = LeaveRobberOff(seat=seat)
            return [Prompt(seat=seat, stage=ROBBER, options=[leave], default=leave)]
        return previous(state)

    return prompt


def evolve_left(state: State, e: RobberLeftBoard) -> None:
    state.robber = NO_ONE
    if e.reason != "no_legal_hex":
        return
    # In place of a robber move: the 7 or the Knight goes on as after one.
    if state.robber_from == "seven":
        state.rules.hooks.roll_resolved(state)
    else:
        state.phase = MAIN if state.rolled else ROLL


def install(rules: Rules) -> None:
    rules.handle(LeaveRobberOff, leave_off)
    rules.allow(ROBBER, LeaveRobberOff)
    rules.wrap_handler(MoveRobber, guarded_move)
    rules.wrap_prompter(ROBBER, offboard_prompt)
    # This scenario takes the robber off the board itself (its own events, before production),
    # so the variants' generic "to the desert" has nowhere to send it here.
    rules.set_hook(hk.ROBBER_HOME, lambda state: None)
    rules.evolve_with(RobberLeftBoard, evolve_left)
