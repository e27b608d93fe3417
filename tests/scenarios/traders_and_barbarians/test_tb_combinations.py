"""Which modules Traders & Barbarians combines with (docs/rules/combinations.md §13.3): the
Friendly Robber is refused with its reason (there is no robber); Harbormaster, Event Cards,
Catan for Two (tested in their own files), victory-points and undo are played; every allowed
table plays to its end and audits clean."""

from __future__ import annotations

import pytest
from recording import Recorder, bot_chooser
from tampering_kit import audit_recorded
from tb_helpers import TB

from events.events import ModuleSpec
from services.rules.engine import RulesetError, new_game
from services.rules.engine.modules import MODULES, check_combination


@pytest.mark.parametrize("first", [True, False])
def test_friendly_robber_is_refused_with_the_reason(first: bool) -> None:
    robber = ModuleSpec(name="friendly-robber")
    specs = (TB, robber) if first else (robber, TB)
    with pytest.raises(RulesetError, match="there is no robber in Traders & Barbarians"):
        check_combination(specs, 4)
    with pytest.raises(RulesetError, match="no robber"):
        new_game("g", 4, b"s", modules=specs)


def test_the_module_says_what_it_combines_with() -> None:
    module = MODULES["traders-and-barbarians"]
    assert module.kind == "scenario"
    assert module.seats == (2, 3, 4)
    assert set(module.conflicts) == {"friendly-robber"}
    for name in ("harbormaster", "event-cards", "victory-points", "undo"):
        check_combination((TB, ModuleSpec(name=name)), 4)
    check_combination((TB, ModuleSpec(name="catan-for-two")), 2)


@pytest.mark.parametrize("extra", [
    ModuleSpec(name="harbormaster"),
    ModuleSpec(name="victory-points", params={"target": 10}),
    ModuleSpec(name="undo"),
])
def test_allowed_tables_play_to_the_end_and_audit_clean(extra: ModuleSpec) -> None:
    rec = Recorder.new(f"g-{extra.name}", extra.name.encode(), seats=3, modules=[TB, extra],
                       turn_limit=150)
    rec.play(bot_chooser(["heuristic", "random", "heuristic"]), max_decisions=50_000)
    assert rec.state.finished
    assert audit_recorded(rec).exit_code == 0
    if extra.name == "victory-points":
        assert rec.state.rules.hooks.win_target(rec.state, 0) == 10
