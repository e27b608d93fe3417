"""Rules that exist only when two modules are played together: one module per pair.

A combination is installed when both of its modules are chosen, after every module and before
the table rules (modules.py), so it can wrap what either installed, whatever order they were
listed in; it may also adjust the game's creation data (`create`). It is the one place that
may know both modules' internals: a variant or a scenario alone only provides and asks for
capabilities (capabilities.py). `COMBINATIONS` is found like the modules: every `COMBINATION`
in this package.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from services.rules.engine.chance import Dealer
from services.rules.engine.state import Rules


def _nothing(created: dict[str, Any], dealer: Dealer) -> None:
    """A combination that changes nothing at the game's creation."""


@dataclass(frozen=True)
class Combination:
    """The pair (module names), what it installs, and what it adds at creation."""

    pair: tuple[str, str]
    install: Callable[[Rules], None]
    create: Callable[[dict[str, Any], Dealer], None] = _nothing
    description: str = ""

    def applies(self, names: set[str]) -> bool:
        return self.pair[0] in names and self.pair[1] in names
