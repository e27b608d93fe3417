"""A prompt's `stage` is a name a bot branches on: every stage a prompt carries must be
declared (the base game's in services/rules/engine/base/stages.py, a module's in its
`Module.stages`) by the base game or a module the game plays, and every declared stage is in
docs/protocol.md's table (§12).

Random games of every module, and of every pair of modules that may be combined, show which
stages prompts really carry. Random bots never make an open-ended command (a trade offer, an
undo proposal), which some stages need first; the bots here make one now and then. Every
declared stage must be reached too (a declaration no prompt uses is stale): a few stages are
rare (a seat above the fish limit, gold fields paying), so the tables whose modules declare a
stage not reached yet play more games, up to a bound.
"""

from __future__ import annotations

import random
from itertools import combinations
from pathlib import Path

import pytest

from events.commands import Command, ProposeTrade
from events.disputes import ProposeUndo
from events.events import ModuleSpec
from events.prompts import Prompt
from events.types import RESOURCES
from services.rules.engine import (
    MODULES,
    Rejected,
    RulesetError,
    decide,
    initial_state,
    new_game,
    next_prompt,
    pending,
    step,
)
from services.rules.engine.chance import SeededDealer
from services.rules.engine.modules import BASE_GAME, check_combination, declared_stages
from services.rules.engine.state import MAIN, State
from services.rules.engine.undo import undo_log

DOC = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
FIRST_ROUNDS = 2  # games every table plays
MAX_ROUNDS = 40  # games a table may play while a stage its modules declare is not reached
OFFER_RATE = 0.15  # how often a seat with cards makes an open-ended command at `main`


def tables() -> list[tuple[str, ...]]:
    """Every module alone, and every pair of modules that may be played together."""
    names = sorted(MODULES)
    return [(n,) for n in names] + [pair for pair in combinations(names, 2) if seats_for(pair)]


def seats_for(modules: tuple[str, ...]) -> int:
    """The most seats these modules are played with together (0: they do not combine)."""
    common = set.intersection(*(set(MODULES[m].seats) for m in modules))
    for seats in sorted(common, reverse=True):
        try:
            check_combination(tuple(ModuleSpec(name=m) for m in modules), seats)
        except RulesetError:
            return 0
        return seats
    return 0


def open_ended(state: State, prompt: Prompt, rng: random.Random) -> Command | None:
    """A trade offer, a gold offer or an undo proposal the rules may refuse (then None)."""
    seat = prompt.seat
    held = [r for r, n in zip(RESOURCES, state.players[seat].hand, strict=False) if n]
    if not held:
        return None
    give, get = rng.choice(held), rng.choice(RESOURCES)
    tries: list[Command] = [ProposeTrade(seat=seat, give={give: 1}, get={get: 1})]
    for currency in state.rules.vocab.currencies:  # gold: the base offer names it
        tries.append(ProposeTrade(seat=seat, give={give: 1}, get={currency: 1},
                                  to=((seat + 1) % state.n,)))
    if ProposeUndo in state.rules.registry.handlers:
        tries.append(ProposeUndo(seat=seat, to_version=undo_log(state).floor))
    command = rng.choice(tries)
    try:
        decide(state, command, SeededDealer(b"probe"))  # a refusal leaves the state as it was
    except Rejected:
        return None
    return command


def stages_seen(modules: tuple[str, ...], seed: bytes) -> set[str]:
    """The stages of every prompt of one game (all the prompts pending at each decision, not
    only the one answered)."""
    seats = seats_for(modules)
    created = new_game("g-stages", seats, seed, modules=[ModuleSpec(name=m) for m in modules],
                       turn_limit=150)
    state = initial_state(created)
    dealer = SeededDealer(seed)
    rng = random.Random(seed)
    seen: set[str] = set()
    while prompts := pending(state):
        seen.update(p.stage for p in prompts)
        prompt = prompts[0] if len(prompts) == 1 else next_prompt(state, prompts)
        command = None
        if prompt.stage == MAIN and prompt.may_trade and rng.random() < OFFER_RATE:
            command = open_ended(state, prompt, rng)
        if command is None:
            command = rng.choice(prompt.options) if prompt.options else prompt.default
        step(state, command, dealer)
    return seen


@pytest.fixture(scope="module")
def seen() -> dict[tuple[str, ...], set[str]]:
    """The stages seen per table (modules played)."""
    declared = declared_stages()
    out: dict[tuple[str, ...], set[str]] = {modules: set() for modules in tables()}
    missing = set(declared)
    for played in range(MAX_ROUNDS):
        for modules, stages in out.items():
            if played >= FIRST_ROUNDS and not any(declared[s][0] in modules for s in missing):
                continue
            stages |= stages_seen(modules, f"stages-{played}".encode())
            missing -= stages
        if played + 1 >= FIRST_ROUNDS and not missing:
            break
    return out


def test_every_stage_a_prompt_carries_is_declared_by_the_game_or_its_modules(
        seen: dict[tuple[str, ...], set[str]]) -> None:
    declared = declared_stages()
    for modules, stages in seen.items():
        own = {name for name, (by, _) in declared.items() if by == BASE_GAME or by in modules}
        assert stages <= own, f"{modules}: undeclared stages {sorted(stages - own)}"


def test_every_declared_stage_is_reached_by_some_game(
        seen: dict[tuple[str, ...], set[str]]) -> None:
    reached = set().union(*seen.values())
    unused = sorted(set(declared_stages()) - reached)
    assert not unused, f"declared, but no prompt of these games carries them: {unused}"


def test_every_module_is_played_alone_and_in_pairs(
        seen: dict[tuple[str, ...], set[str]]) -> None:
    assert {m for (m,) in (k for k in seen if len(k) == 1)} == set(MODULES)
    assert sum(len(k) == 2 for k in seen) > len(MODULES)  # pairs beyond the single games


def test_every_declared_stage_is_in_the_protocols_table() -> None:
    for name, (by, meaning) in declared_stages().items():
        assert f"| `{name}` | {by} | {meaning} |" in DOC, (
            f"stage {name} is not in docs/protocol.md: run `hexlog schemas`")
