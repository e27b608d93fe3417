"""`hexlog rulesets --explain`: for a set of modules, each command's handler chain and each
hook's wrappers, in install order, from the provenance every typed registration writes; and
registration only through those typed calls."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from services.cli.main import main
from services.rules.engine import hook_keys
from services.rules.engine.hooktable import HOOK_NAMES, Hook, HookList, HookTable
from services.rules.engine.ruleset import Ruleset

ENGINE = Path(__file__).resolve().parents[2] / "services" / "rules" / "engine"


def chain(out: str, section: str, name: str) -> list[str]:
    """The lines (who, how, function) under `name` in `section` of the explain text."""
    block = out.split(f"\n{section}:\n", 1)[1].split("\n\n", 1)[0]
    lines = block.splitlines()
    start = lines.index(f"  {name}")
    steps = []
    for line in lines[start + 1:]:
        if not line.startswith("    "):
            break
        steps.append(" ".join(re.split(r"\s{2,}", line.strip())))
    return steps


def test_explain_prints_a_commands_handler_chain_in_install_order(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The effective PlaceSettlement of Fishermen with Catan for Two: the base handler,
    wrapped by each module in the order they were installed (the order they are named)."""
    assert main(["rulesets", "--explain", "fishermen,catan-for-two"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("base + fishermen, catan-for-two\n")
    assert chain(out, "commands", "PlaceSettlement") == [
        "base sets base.setup.place_settlement",
        "fishermen wraps scenarios.fishermen.tokens.setup_fishing",
        "catan-for-two wraps variants.catan_for_two.tokens.gaining",
    ]
    assert main(["rulesets", "--explain", "catan-for-two,fishermen"]) == 0
    out = capsys.readouterr().out
    assert [s.split()[0] for s in chain(out, "commands", "PlaceSettlement")] == [
        "base", "catan-for-two", "fishermen"]


def test_explain_prints_each_hooks_wrappers_and_a_pairs_rules(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rulesets", "--explain", "oil-springs,harbormaster"]) == 0
    out = capsys.readouterr().out
    assert chain(out, "hooks", "win_target") == [
        "base sets base.scoring.base_win_target",
        "oil-springs wraps scenarios.oil_springs.disaster.win_target_install",
        "harbormaster wraps variants.harbormaster.win_target_install_Harbormaster",
    ]
    # A pair's rule is named by the pair.
    assert main(["rulesets", "--explain", "fishermen,catan-for-two"]) == 0
    out = capsys.readouterr().out
    assert chain(out, "module state", "fishermen")[-1].startswith(
        "fishermen + catan-for-two wraps")  # the fish stock starts smaller with two


def test_explain_prints_the_settings_each_module_changed(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Targets, set-up rounds and the Longest Road card are settings, changed by a typed call
    (`rules.settings`) that names who changed them, like any registration."""
    assert main(["rulesets", "--explain", "traders-and-barbarians"]) == 0
    out = capsys.readouterr().out
    assert chain(out, "settings", "target") == ["base sets 10", "traders-and-barbarians replaces 13"]
    assert chain(out, "settings", "setup") == [
        "base sets ('settlement', 'settlement')",
        "traders-and-barbarians replaces ('settlement', 'city')"]
    assert chain(out, "settings", "longest_road") == [
        "base sets True", "traders-and-barbarians replaces False"]
    assert main(["rulesets", "--explain", "caravans"]) == 0
    assert chain(capsys.readouterr().out, "settings", "target") == [
        "base sets 10", "caravans replaces 12"]


def test_a_setting_out_of_range_is_refused() -> None:
    rules: Ruleset[object] = Ruleset("test")
    with pytest.raises(ValueError, match="target must be positive"):
        rules.settings(target=0)
    with pytest.raises(ValueError, match="at least one set-up round"):
        rules.settings(setup=())
    assert rules.base_target == 10


def test_explain_of_the_base_game_and_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rulesets", "--explain", "base"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("base (no modules)\n")
    assert chain(out, "hooks", "roll") == ["base sets base.turn.base_roll"]
    assert main(["rulesets", "--explain", "event-cards", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hooks"]["roll"] == [["base", "sets", "base.turn.base_roll"],
                                     ["event-cards", "replaces",
                                      "variants.event_cards.draw_and_resolve"]]


def test_explain_refuses_modules_no_game_can_have(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rulesets", "--explain", "rivers,fishermen"]) == 2
    err = capsys.readouterr().err
    assert "one scenario per game" in err
    assert main(["rulesets", "--explain", "nowhere"]) == 2
    assert "unknown rule module 'nowhere'" in capsys.readouterr().err


def test_every_hook_has_its_typed_key() -> None:
    """hook_keys.py names every hook of the table, as a single or a list hook as it is."""
    table: HookTable[object] = HookTable()
    keys = {k.name: k for k in vars(hook_keys).values() if isinstance(k, Hook | HookList)}
    assert set(keys) == set(HOOK_NAMES)
    for name, key in keys.items():
        assert isinstance(key, HookList) == isinstance(getattr(table, name), list), name
        assert getattr(hook_keys, name.upper()) is key


RAW = re.compile(
    r"rules\.(registry|hooks|cache|states)\.\w+(\[[^]]*\])?\s*(=|\|=|\+=)[^=]"
    r"|rules\.(registry|hooks|cache|states)\.\w+(\[[^]]*\])?\.(update|add|append|insert|extend|"
    r"setdefault|pop|remove)\(")


@pytest.mark.parametrize("path", sorted(ENGINE.rglob("*.py")),
                         ids=lambda p: str(p.relative_to(ENGINE)))
def test_registration_goes_only_through_typed_calls(path: Path) -> None:
    """No module writes into a ruleset's tables or hooks by hand: every entry is made by a
    typed call, which also writes its provenance."""
    if path.name in ("ruleset.py", "registry.py", "hooktable.py", "modstate.py"):
        return
    assert not RAW.search(path.read_text()), RAW.search(path.read_text())
