"""The heuristic bot in a camel vote (scenarios/caravans/advice.py): it bids spare wool and grain
when a point is at stake and names the placement that gives its own building a second camel;
the random bot plays whole games."""

from __future__ import annotations

from caravans_kit import NORTH, lay, open_vote, start, table

from bots.heuristic import HeuristicBot
from bots.random_bot import RandomBot
from events.caravans import BidForCamel, NameCamelPath
from events.events import ModuleSpec
from services.rules.engine import new_game, pending, view
from services.rules.engine.chance import SeededDealer


def test_the_heuristic_bot_bids_and_names_the_camel_that_scores_for_it() -> None:
    t = table()
    mine = t.vertex("(0,-1)/(1,-2)/(1,-1)")  # the north caravan's head after its first camel
    t.place(0, mine)
    lay(t, NORTH, start(t, NORTH))
    open_vote(t, seat=0)
    t.give(0, wool=3, grain=2)
    bot = HeuristicBot(1)
    prompt = pending(t.state)[0]
    bid = bot.choose(view(t.state, 0), prompt)
    assert isinstance(bid, BidForCamel)
    assert bid.wool + bid.grain == 3  # a point at stake: three votes, one of each kept
    t.when(bid)
    for seat in (1, 2):
        t.when(BidForCamel(seat=seat))
    prompt = pending(t.state)[0]
    named = bot.choose(view(t.state, 0), prompt)
    assert isinstance(named, NameCamelPath)
    assert named.caravan == NORTH
    assert mine in t.state.board.topo.edge_vertices[named.edge]


def test_the_heuristic_bot_keeps_its_cards_when_nothing_is_at_stake() -> None:
    t = table()
    open_vote(t, seat=0)
    t.give(0, wool=3, grain=3)
    bid = HeuristicBot(1).choose(view(t.state, 0), pending(t.state)[0])
    assert bid == BidForCamel(seat=0, wool=0, grain=0)


def test_random_bots_play_caravans_to_the_end() -> None:
    from bots.local import play

    for i, seats in enumerate((2, 3, 4)):
        seed = f"rb-{i}".encode()
        created = new_game(f"g{i}", seats, seed, modules=(ModuleSpec(name="caravans"),))
        game = play(created, [RandomBot(s) for s in range(seats)], SeededDealer(seed))
        assert game.state.finished
