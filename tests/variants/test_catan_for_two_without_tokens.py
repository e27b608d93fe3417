"""Catan for Two with the trade tokens out of play (`catan_for_two.token.not_used`): a scenario
that replaces them (the Fishermen's fish, docs/rules/combinations.md §13.3) writes
`GameCreated.setup["catan-for-two.trade_tokens"] = [0]`; no token is dealt, gained or spent, and
a face-up knight cannot be discarded for tokens."""

from __future__ import annotations

from events.catan_for_two import DiscardKnight, ForceTrade, TradeTokensGained
from events.commands import PlaceSettlement
from events.events import ModuleSpec
from services.rules.engine import initial_state, pending
from services.rules.engine.testing import Table
from services.rules.engine.variants.catan_for_two.common import TOKENS_KEY, two

TWO = ModuleSpec(name="catan-for-two")


def test_catan_for_two_token_not_used_when_the_setup_takes_the_tokens_out() -> None:
    t = Table(seats=2, modules=[TWO], setup=False)
    t.created.setup[TOKENS_KEY] = [0]
    t.state = initial_state(t.created)
    assert two(t.state).tokens == [0, 0]
    assert two(t.state).supply == 0
    assert not two(t.state).in_play
    coast = next(o for o in pending(t.state)[0].options if isinstance(o, PlaceSettlement)
                 and t.state.board.topo.vertex_is_coastal[o.vertex])
    assert not [e for e in t.when(coast) if isinstance(e, TradeTokensGained)]
    t.turn_of(0)
    t.give(1, ore=3)
    t.rejects(ForceTrade(seat=0), "catan_for_two.token.not_used")
    t.state.players[0].knights = 1
    t.rejects(DiscardKnight(seat=0), "catan_for_two.token.not_used")
    options = pending(t.state)[0].options
    assert not [o for o in options if isinstance(o, ForceTrade | DiscardKnight)]


def test_catan_for_two_tokens_are_in_play_by_default() -> None:
    t = Table(seats=2, modules=[TWO], setup=False)
    assert two(t.state).in_play
    assert two(t.state).tokens == [5, 5]
