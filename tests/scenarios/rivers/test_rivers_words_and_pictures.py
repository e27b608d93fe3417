"""What a reader sees of a Rivers game: its events told in words (`Module.narration`, as
`hexlog replay` uses it), its bridge sites drawn, and a seat's view: gold, the Settlers and
the bridges are public, another seat's hand stays hidden."""

from __future__ import annotations

from rivers_helpers import BRIDGE_SITE, NEAR_SITE, paid_up, table
from scenario_kit import Marks, Names

from events.rivers import BuildBridge, BuyWithGold, SellForGold
from services.rules.engine import view
from services.rules.engine.modules import MODULES
from services.rules.engine.scenarios.rivers.common import places


def test_rivers_events_are_told_in_words_and_bridges_drawn() -> None:
    t = table()
    t.place(0, t.vertex(NEAR_SITE))
    paid_up(t)
    t.give(0, lumber=1, brick=2, ore=4)
    events = t.when(BuildBridge(seat=0, edge=t.edge(BRIDGE_SITE)))
    events += t.when(BuyWithGold(seat=0, resource="grain"))
    events += t.when(SellForGold(seat=0, resource="ore"))
    narration = MODULES["rivers"].narration
    told = [narration[type(e)](e, Names()) for e in events if type(e) in narration]
    e = t.edge(BRIDGE_SITE)
    assert told == [
        f"seat0 builds a bridge across the river at e{e}",
        f"seat0 earns 3 gold for the bridge across the river at e{e}",
        "seat0 pays 2 gold for 1 grain",
        "seat0 sells 4 ore to the bank for gold",
        "seat0 receives 1 gold from the bank",
    ]
    sketch = Marks()
    drawing = MODULES["rivers"].drawing
    assert drawing is not None
    drawing(t.state, sketch)
    assert ("edge", e, "B0") in sketch.marks
    assert sum(text == "~" for _, _, text in sketch.marks) == len(places(t.state).bridge_sites) - 1


def test_a_seat_sees_everybodys_gold_but_only_its_own_hand() -> None:
    t = table()
    t.state.ext["rivers"].gold[:] = [3, 1, 0]
    t.give(1, ore=2)
    seen = view(t.state, 0)
    assert seen.ext["rivers"]["gold"] == [3, 1, 0]
    assert seen.ext["rivers"]["wealthiest"] == 0
    assert seen.ext["rivers"]["poor"] == [2]
    assert seen.players[1].hand is None
    assert seen.players[1].cards == 2
    assert view(t.state, None).ext["rivers"]["gold"] == [3, 1, 0]
