"""The decider's dispatch: `decide`, `evolve`, `step`, `pending` and `next_prompt`
(docs/design.md "The decider contract"), re-exported by the engine package.

They live in a module of their own, not in the package's `__init__`, because packages stay
interpreted in the compiled build (scripts/build_engine.py) and these four run on every
decision of every game.
"""

from __future__ import annotations

from collections.abc import Callable

from events.commands import Command
from events.events import Event
from events.prompts import Prompt
from services.rules.engine.chance import Dealer
from services.rules.engine.rules import reject
from services.rules.engine.state import State


def decide(state: State, command: Command, dealer: Dealer) -> list[Event]:
    """The events `command` causes, or Rejected. Never changes `state`."""
    events = _handler(state, command)(state, command, dealer)
    derive_after = state.rules.registry.derive_after
    for e in events:
        if type(e) in derive_after:
            scratch = state.copy()
            for folded in events:
                evolve(scratch, folded)
            return _with_consequences(scratch, list(events), dealer)
    return events


def step(state: State, command: Command, dealer: Dealer) -> list[Event]:
    """`decide`, then `evolve` of each event it returns, in one pass: the same events and
    the same state after, for a caller that folds the events at once (the in-process game
    loop, a search bot's playouts). The derivers then run on `state` itself, not on a scratch
    copy folded a second time. A rejected command raises before anything is folded: `state`
    is unchanged."""
    events = _handler(state, command)(state, command, dealer)
    derive_after = state.rules.registry.derive_after
    triggered = False
    for e in events:
        evolve(state, e)
        if type(e) in derive_after:
            triggered = True
    return _with_consequences(state, list(events), dealer) if triggered else events


Handler = Callable[[State, Command, Dealer], list[Event]]


def _handler(state: State, command: Command) -> Handler:
    """The handler that judges `command`, once the game, the seat and the phase allow it."""
    rules = state.rules
    if state.finished:
        raise reject("base.game.over", "the game is over")
    handler = rules.registry.handlers.get(type(command))
    if handler is None:
        raise reject("base.command.unknown", f"{type(command).__name__} is not part of this ruleset")
    if not 0 <= command.seat < state.n:
        raise reject("base.seat.unknown", f"there is no seat {command.seat} in this game")
    allowed = rules.registry.phase_commands.get(state.phase, ())
    if type(command) not in allowed:
        raise reject(
            phase_refusal(state, command),
            f"{type(command).__name__} is not possible during {state.phase}",
        )
    return handler


def phase_refusal(state: State, command: Command) -> str:
    """The most specific rule a command breaks by coming at the wrong moment."""
    for explain in state.rules.hooks.phase_refusal:
        rule_id = explain(state, command)
        if rule_id is not None:
            return rule_id
    return "base.turn.wrong_phase"


def _with_consequences(folded: State, out: list[Event], dealer: Dealer) -> list[Event]:
    """Run the derivers (awards, victory, module consequences) on `folded`, a state the
    events `out` have already been folded into; their events are folded too and appended."""
    seen = {type(e) for e in out}
    for triggers, derive in folded.rules.registry.derivers:
        if folded.finished:
            break
        if triggers.isdisjoint(seen):
            continue
        for e in derive(folded, dealer):
            evolve(folded, e)
            seen.add(type(e))
            out.append(e)
    return out


def evolve(state: State, event: Event) -> State:
    """Fold one event into the state (in place). Never fails on a valid log."""
    state.rules.registry.evolvers[type(event)](state, event)
    state.version += 1
    return state


def pending(state: State) -> list[Prompt]:
    """Who must act now, each with the legal commands; empty when the game is over."""
    if state.finished:
        return []
    return state.rules.registry.prompters[state.phase](state)


def next_prompt(state: State, prompts: list[Prompt]) -> Prompt:
    """Which of several prompts is answered first: others answer before the active seat
    closes (discards, trade answers). The rules service, the local game loop and the tests
    all use this order, so a game plays the same everywhere."""
    for p in prompts:
        if p.seat != state.current:
            return p
    return prompts[0]
