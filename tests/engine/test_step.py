"""`step` (decide and fold in one pass) is `decide` followed by `evolve` of each event: the same
events and the same state after, for the base game and every variant and scenario (found
afresh, so modules merged later are covered). A rejected step folds nothing."""

from __future__ import annotations

import pytest

from bots.random_bot import RandomBot
from events.commands import BuildCity
from events.events import ModuleSpec
from services.rules.engine import (
    Rejected,
    decide,
    evolve,
    initial_state,
    new_game,
    next_prompt,
    pending,
    step,
)
from services.rules.engine.chance import SeededDealer
from services.rules.engine.modules import MODULES


def cases() -> list[tuple[str, int]]:
    """(module or "", seats): the base game and each module at its largest table."""
    return [("", 4), ("", 2)] + [
        (name, max(set(MODULES[name].seats) & {2, 3, 4})) for name in sorted(MODULES)
    ]


@pytest.mark.parametrize(("module", "seats"), cases(), ids=lambda c: str(c) or "base")
def test_step_gives_the_events_and_state_of_decide_then_evolve(module: str, seats: int) -> None:
    kind = MODULES[module].kind if module else "base"
    ruleset = module if kind == "scenario" else "base"
    specs = (ModuleSpec(name=module),) if module else ()
    derived = 0  # decisions whose events came partly from derivers (awards, victory, …)
    for g in range(2):
        seed = f"step:{module}:{g}".encode()
        created = new_game(f"step-{g}", seats, seed, modules=specs, ruleset=ruleset,
                           turn_limit=200)
        folded, stepped = initial_state(created), initial_state(created)
        dealer_a, dealer_b = SeededDealer(seed), SeededDealer(seed)
        bots = [RandomBot(g * 10 + s) for s in range(seats)]
        while not folded.finished:
            prompts = pending(folded)
            prompt = next_prompt(folded, prompts)
            command = bots[prompt.seat].choose(None, prompt)
            events = decide(folded, command, dealer_a)
            for e in events:
                evolve(folded, e)
            assert step(stepped, command, dealer_b) == events, f"decision at version {folded.version}"
            derived += any(type(e) in folded.rules.registry.derive_after for e in events)
        assert stepped.finished
        assert stepped.to_dict() == folded.to_dict()
    assert derived > 0  # the derivers' path (no scratch copy) was exercised


def test_a_rejected_step_folds_nothing() -> None:
    seed = b"step:rejected"
    state = initial_state(new_game("step-rejected", 4, seed))
    dealer = SeededDealer(seed)
    bots = [RandomBot(s) for s in range(4)]
    while state.phase != "main":
        prompt = next_prompt(state, pending(state))
        step(state, bots[prompt.seat].choose(None, prompt), dealer)
    before = state.to_dict()
    empty = next(v for v, owner in enumerate(state.vertex_owner) if owner < 0)
    with pytest.raises(Rejected):
        step(state, BuildCity(seat=state.current, vertex=empty), dealer)
    assert state.to_dict() == before
