"""The bots in the Rivers of Catan: the heuristic bot, with the scenario's advice, builds
bridges, buys with gold only what completes its build, sells only to leave the Poor Settlers,
and beats the random bot; the random bot plays to the end (test_rivers_random_games.py)."""

from __future__ import annotations

from collections import Counter

from rivers_helpers import NEAR_SITE, gold, paid_up, table

from bots.heuristic import HeuristicBot
from bots.local import next_prompt
from bots.random_bot import RandomBot
from bots.sdk import Bot
from events.events import ModuleSpec
from events.rivers import BridgeBuilt, BuildBridge, BuyWithGold, GoldSpent, SellForGold
from services.rules.engine import decide, evolve, initial_state, new_game, pending, view
from services.rules.engine.chance import SeededDealer


def test_the_heuristic_bot_builds_an_offered_bridge_after_its_buildings() -> None:
    t = table()
    t.place(0, t.vertex(NEAR_SITE))
    paid_up(t)
    t.give(0, lumber=1, brick=2)
    choice = HeuristicBot(1).choose(view(t.state, 0), pending(t.state)[0])
    assert isinstance(choice, BuildBridge)


def test_the_heuristic_bot_buys_what_completes_its_settlement_but_not_into_poverty() -> None:
    t = table()
    t.give(0, lumber=1, brick=1, wool=1)  # a settlement short of a grain
    gold(t).gold[:] = [4, 1, 1]
    choice = HeuristicBot(1).choose(view(t.state, 0), pending(t.state)[0])
    assert choice == BuyWithGold(seat=0, resource="grain")
    gold(t).gold[:] = [2, 1, 1]  # buying would leave seat 0 the poorest: -2 for +1
    choice = HeuristicBot(1).choose(view(t.state, 0), pending(t.state)[0])
    assert not isinstance(choice, BuyWithGold)


def test_the_heuristic_bot_sells_a_surplus_card_only_to_leave_the_poor_settlers() -> None:
    t = table()
    t.give(0, ore=5)
    gold(t).gold[:] = [1, 1, 3]  # tied poorest with seat 1: 1 gold lifts seat 0 out
    assert HeuristicBot(1).choose(view(t.state, 0), pending(t.state)[0]) == SellForGold(
        seat=0, resource="ore")
    gold(t).gold[:] = [0, 1, 1]  # 1 gold would leave everybody tied: still poor, keep the cards
    assert not isinstance(HeuristicBot(1).choose(view(t.state, 0), pending(t.state)[0]), SellForGold)
    gold(t).gold[:] = [2, 1, 3]  # not poor: keep the cards
    assert not isinstance(HeuristicBot(1).choose(view(t.state, 0), pending(t.state)[0]), SellForGold)


def test_the_heuristic_bot_beats_the_random_bot_and_uses_bridges_and_gold() -> None:
    wins: Counter[str] = Counter()
    used: Counter[str] = Counter()
    for i in range(12):
        seed = f"rivers-bots-{i}".encode()
        state = initial_state(new_game(f"b{i}", 4, seed, modules=[ModuleSpec(name="rivers")],
                                       turn_limit=400))
        dealer = SeededDealer(seed)
        heuristic = {i % 4, (i + 2) % 4}
        bots: list[Bot] = [HeuristicBot(i * 4 + s) if s in heuristic else RandomBot(i * 4 + s)
                           for s in range(4)]
        while not state.finished:
            prompt = next_prompt(state, pending(state))
            bot = bots[prompt.seat]
            command = bot.choose(view(state, prompt.seat) if bot.needs_view else None, prompt)
            for e in decide(state, command, dealer):
                evolve(state, e)
                if isinstance(e, BridgeBuilt | GoldSpent) and e.seat in heuristic:
                    used[type(e).__name__] += 1
        wins["heuristic" if state.winner in heuristic else "other"] += 1
    assert wins["heuristic"] >= 11
    assert used["BridgeBuilt"] >= 6
    assert used["GoldSpent"] >= 6
