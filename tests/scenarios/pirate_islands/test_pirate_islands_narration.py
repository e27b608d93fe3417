"""`hexlog replay` tells every event of the scenario in words (its module's narration), and a
reader who may not see the fleet's loot reads only how many cards it took."""

from __future__ import annotations

import inspect

from pirate_helpers import pirate, table

import events.pirate_islands as wire
from events.commands import RollDice
from events.events import Event
from events.pirate_islands import FleetLooted
from services.render.narrate import Context, narrate
from services.rules.engine import MODULES, redact


def test_every_event_of_the_scenario_has_a_narrator() -> None:
    kinds = [c for _, c in inspect.getmembers(wire, inspect.isclass)
             if issubclass(c, Event) and c.__module__ == wire.__name__]
    assert len(kinds) >= 14
    narration = MODULES["pirate-islands"].narration
    assert [k.__name__ for k in kinds if k not in narration] == []


def test_the_fleet_and_its_loot_in_words() -> None:
    t = table()
    t.give(0, ore=2)
    pirate(t).fleet = 11
    t.turn_of(0, rolled=False)
    t.script("dice", (2, 6))
    t.script("fleetloss", "ore")
    events = t.when(RollDice(seat=0))
    ctx = Context(t.state.names, t.state.board)
    lines = [narrate(e, ctx) for e in events]
    sea = t.state.board.parse_hex("(3,5)")
    assert f"the pirate fleet sails 2 sea hex(es) to the sea ({ctx.hex_label(sea)})" in lines
    assert any(line.startswith("the pirate fleet (strength 2) attacks seat0") for line in lines)
    looted = next(e for e in events if isinstance(e, FleetLooted))
    assert narrate(looted, ctx) == "the pirate fleet loots 1 ore from seat0 (Red)"
    hidden = redact(t.state, looted, 1)
    assert narrate(hidden, ctx) == "the pirate fleet loots 1 card(s) from seat0 (Red)"
