"""Every scenario and variant package has the same skeleton (docs/adding-a-scenario.md, section
2): its state in `state.py`, what views show of it in `view.py`, its marks on a board in
`drawing.py`. A maintainer opening any package finds each part under the same name."""

from __future__ import annotations

import importlib

import msgspec
import pytest

from events.events import ModuleSpec
from services.rules.engine.modules import MODULES, build_ruleset
from services.rules.engine.ruleset import Module

PACKAGES = sorted(
    (m for m in MODULES.values()
     if hasattr(importlib.import_module(type(m).__module__), "__path__")),  # a package
    key=lambda m: m.name)


def home(module: Module) -> str:
    return type(module).__module__


def test_the_packages_are_found() -> None:
    names = {m.name for m in PACKAGES}
    assert {"fishermen", "rivers", "pirate-islands", "catan-for-two"} <= names


@pytest.mark.parametrize("module", PACKAGES, ids=lambda m: m.name)
def test_state_view_and_drawing_each_in_their_file(module: Module) -> None:
    rules = build_ruleset("skeleton", (ModuleSpec(module.name),))
    package = home(module)
    misplaced = []
    for name, key in rules.states.keys.items():
        if key.plain or not key.kind.__module__.startswith(package + "."):
            continue  # a plain value, or another module's state (the base's undo)
        if not issubclass(key.kind, msgspec.Struct) or key.kind.__module__ != package + ".state":
            misplaced.append(f"state {key.kind.__name__} in {key.kind.__module__}")
        view = rules.states.view.get(name)
        if view is not None and view.__module__ != package + ".view":
            misplaced.append(f"view {view.__name__} in {view.__module__}")
    if module.drawing is not None and module.drawing.__module__ != package + ".drawing":
        misplaced.append(f"drawing in {module.drawing.__module__}")
    assert not misplaced, f"{module.name}: {misplaced}"
