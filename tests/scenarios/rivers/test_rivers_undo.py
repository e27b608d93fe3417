"""A table playing Rivers with undo may take back a bridge with its gold, a purchase with gold
or a sale: the scenario declares its public, chance-free events reversible."""

from __future__ import annotations

from typing import Any

from rivers_helpers import BRIDGE_SITE, NEAR_SITE, RIVERS, paid_up

from events.commands import RollDice
from events.disputes import ApproveUndo, ProposeUndo, Reverted
from events.events import ModuleSpec
from events.rivers import BuildBridge, BuyWithGold, SellForGold
from services.rules.engine.testing import Table

CONSENT = ModuleSpec(name="undo", params={"policy": "consent"})


def without_journal(d: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in d.items() if k not in ("version", "ext")}
    out["rivers"] = d["ext"]["rivers"]
    return out


def test_a_bridge_its_gold_a_purchase_and_a_sale_are_taken_back() -> None:
    t = Table(seats=2, modules=[RIVERS, CONSENT], setup=False)
    t.turn_of(0, rolled=False)
    t.place(0, t.vertex(NEAR_SITE))
    paid_up(t)
    t.give(0, lumber=1, brick=2, ore=4)  # before the roll: its production is the checkpoint
    t.script("dice", (2, 4))
    t.when(RollDice(seat=0))
    v = t.state.version
    before = without_journal(t.state.to_dict())
    t.when(BuildBridge(seat=0, edge=t.edge(BRIDGE_SITE)))
    t.when(BuyWithGold(seat=0, resource="grain"))
    t.when(SellForGold(seat=0, resource="ore"))
    assert t.state.ext["rivers"].gold[0] == 2
    t.when(ProposeUndo(seat=1, to_version=v))
    events = t.when(ApproveUndo(seat=0))
    assert isinstance(events[-1], Reverted)
    assert without_journal(t.state.to_dict()) == before
