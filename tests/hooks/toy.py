"""A toy module per test: install a few lines of rules and get a Table playing them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from events.events import ModuleSpec
from services.rules.engine.modules import MODULES
from services.rules.engine.ruleset import Module
from services.rules.engine.state import Rules
from services.rules.engine.testing import Table


def toy(
    name: str, install: Callable[[Rules], None], parts: dict[str, Any] | None = None, **table: Any
) -> Table:
    """A Table whose ruleset is the base game plus a module running `install` (`parts`: more
    of the module, e.g. its `drawing`)."""

    class Toy(Module):  # type: ignore[type-arg]
        pass

    module = Toy()
    module.name = name
    for attr, value in (parts or {}).items():
        setattr(module, attr, value)
    module.install = lambda rules, params: install(rules)  # type: ignore[method-assign]
    MODULES[name] = module
    return Table(modules=[ModuleSpec(name=name)], **table)
