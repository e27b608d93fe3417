"""The base game (docs/rules/base.md §1), one file per area; `install` puts it into a ruleset."""

from __future__ import annotations

from services.rules.engine.base import (
    building,
    devcards,
    prompts,
    scoring,
    setup,
    table,
    trade,
    turn,
)
from services.rules.engine.state import Rules


def install(rules: Rules) -> None:
    for area in (setup, building, turn, devcards, trade, scoring, prompts, table):
        area.install(rules)
