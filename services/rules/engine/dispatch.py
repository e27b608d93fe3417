"""The decider's dispatch: `decide`, `evolve`, `pending` and `next_prompt` (docs/design.md
"The decider contract"), re-exported by the engine package.

They live in a module of their own, not in the package's `__init__`, because packages stay
interpreted in the compiled build (scripts/build_engine.py) and these four run on every
decision of every game.
"""

from __future__ import annotations

from events.commands import Command
from events.events import Event
from events.prompts import Prompt
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.state import State


def decide(state: State, command: Command, dealer: Dealer) -> list[Event]:
    """The events `command` causes, or Rejected. Never changes `state`."""
    rules = state.rules
    if state.finished:
        raise reject("base.game.over", "the game is over")
    handler = rules.handlers.get(type(command))
    if handler is None:
        raise reject("base.command.unknown", f"{type(command).__name__} is not part of this ruleset")
    if not 0 <= command.seat < state.n:
        raise reject("base.seat.unknown", f"there is no seat {command.seat} in this game")
    allowed = rules.phase_commands.get(state.phase, ())
    if type(command) not in allowed:
        raise reject(
            phase_refusal(state, command),
            f"{type(command).__name__} is not possible during {state.phase}",
        )
    events = handler(state, command, dealer)
    derive_after = rules.derive_after
    for e in events:
        if type(e) in derive_after:
            return _with_consequences(state, events, dealer)
    return events


def phase_refusal(state: State, command: Command) -> str:
    """The most specific rule a command breaks by coming at the wrong moment."""
    for explain in state.rules.phase_refusal:
        rule_id = explain(state, command)
        if rule_id is not None:
            return rule_id
    return "base.turn.wrong_phase"


def _with_consequences(state: State, events: list[Event], dealer: Dealer) -> list[Event]:
    """Run the derivers (awards, victory, module consequences) on a scratch copy."""
    scratch = state.copy()
    for e in events:
        evolve(scratch, e)
    seen = {type(e) for e in events}
    out = list(events)
    for triggers, derive in state.rules.derivers:
        if scratch.finished:
            break
        if triggers.isdisjoint(seen):
            continue
        for e in derive(scratch, dealer):
            evolve(scratch, e)
            seen.add(type(e))
            out.append(e)
    return out


def evolve(state: State, event: Event) -> State:
    """Fold one event into the state (in place). Never fails on a valid log."""
    state.rules.evolvers[type(event)](state, event)
    state.version += 1
    return state


def pending(state: State) -> list[Prompt]:
    """Who must act now, each with the legal commands; empty when the game is over."""
    if state.finished:
        return []
    return state.rules.prompters[state.phase](state)


def next_prompt(state: State, prompts: list[Prompt]) -> Prompt:
    """Which of several prompts is answered first: others answer before the active seat
    closes (discards, trade answers). The rules service, the local game loop and the tests
    all use this order, so a game plays the same everywhere."""
    for p in prompts:
        if p.seat != state.current:
            return p
    return prompts[0]
