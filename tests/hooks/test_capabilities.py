"""Capabilities (engine/capabilities.py): what one module offers the others, asked for when a
command is decided; and combination modules (engine/combinations/): the rules of a pair,
installed only when both modules are on, whatever order they were listed in."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from toy import toy

from events.events import ModuleSpec
from services.rules.engine.capabilities import (
    DAMAGED_ROADS,
    DICE_DECK,
    NEUTRAL_OWNERS,
    PURSE,
    SECOND_ROLL,
    TRADE_TOKENS,
)
from services.rules.engine.modstate import StateKey
from services.rules.engine.modules import COMBINATIONS, MODULES, build_ruleset, combinations_for
from services.rules.engine.ruleset import Capability
from services.rules.engine.state import Rules
from services.rules.engine.testing import Table

ENGINE = Path(__file__).resolve().parents[2] / "services" / "rules" / "engine"


def rules_of(*names: str) -> Rules:
    return build_ruleset("base", tuple(ModuleSpec(name=n) for n in names))


def test_a_capability_no_module_provides_is_none() -> None:
    rules = rules_of()
    for key in (PURSE, NEUTRAL_OWNERS, TRADE_TOKENS, DICE_DECK, DAMAGED_ROADS, SECOND_ROLL):
        assert rules.capability(key) is None


@pytest.mark.parametrize(("modules", "provided"), [
    (("catan-for-two",), {NEUTRAL_OWNERS, TRADE_TOKENS}),
    (("event-cards",), {DICE_DECK, DAMAGED_ROADS}),
    (("rivers",), {PURSE}),
    (("barbarian-attack",), {PURSE}),
    (("traders-and-barbarians",), {PURSE}),
    (("catan-for-two", "event-cards"), {NEUTRAL_OWNERS, TRADE_TOKENS, DICE_DECK, DAMAGED_ROADS,
                                        SECOND_ROLL}),
])
def test_each_module_provides_its_capabilities(
        modules: tuple[str, ...], provided: set[Capability[object]]) -> None:
    rules = rules_of(*modules)
    assert {k for k in rules.capabilities if isinstance(k, Capability)
            and k in (PURSE, NEUTRAL_OWNERS, TRADE_TOKENS, DICE_DECK, DAMAGED_ROADS,
                      SECOND_ROLL)} == provided


def test_a_module_asks_for_what_another_provides_when_it_decides() -> None:
    """A toy module reads Catan for Two's neutral owners through the capability: present with
    Catan for Two, None without it, whatever the order of the modules."""
    seen: list[object] = []

    def install(rules: Rules) -> None:
        def derive(state, dealer):  # type: ignore[no-untyped-def]
            owners = state.rules.capability(NEUTRAL_OWNERS)
            seen.append(None if owners is None else tuple(owners.owners(state)))
            return []

        rules.derive((), derive)
        rules.module_state(StateKey("toy-asker", int), lambda state, created: 0)

    toy("toy-asker", install, seats=2)
    for modules in (["toy-asker", "catan-for-two"], ["catan-for-two", "toy-asker"], ["toy-asker"]):
        table = Table(seats=2, modules=[ModuleSpec(name=m) for m in modules])
        owners = table.state.rules.capability(NEUTRAL_OWNERS)
        seen.append(None if owners is None else tuple(owners.owners(table.state)))
    assert seen == [(2, 3), (2, 3), None]


def test_every_combination_names_two_modules_and_installs_only_with_both() -> None:
    assert len(COMBINATIONS) >= 7
    for combination in COMBINATIONS:
        a, b = combination.pair
        assert a in MODULES
        assert b in MODULES
        assert a != b
        assert combination in combinations_for([a, b])
        assert combination in combinations_for([b, a, "harbormaster"])
        assert combination not in combinations_for([a])
        assert combination not in combinations_for([b])


def test_a_pair_rule_is_in_the_game_only_with_both_modules() -> None:
    from events.rivers import BuildNeutralBridge

    assert BuildNeutralBridge in rules_of("rivers", "catan-for-two").registry.handlers
    assert BuildNeutralBridge in rules_of("catan-for-two", "rivers").registry.handlers
    assert BuildNeutralBridge not in rules_of("rivers").registry.handlers


SOURCES = sorted((ENGINE / "scenarios").rglob("*.py")) + sorted((ENGINE / "variants").rglob("*.py"))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_no_module_asks_which_other_modules_are_on(path: Path) -> None:
    """A module asks for capabilities: it never looks for another module by name (the list of
    modules, another module's state in `state.ext` or `rules.states`)."""
    text = path.read_text()
    assert not re.search(r"spec\.name\s*==|\.modules\b|\[\"modules\"\]", text)
    assert not re.search(r"\bin (state\.|state\.rules\.|rules\.)(ext|states\.keys|states\.init)\b", text)
