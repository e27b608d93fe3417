"""The search bot (bots/search.py): only its view, always a legal command, the same command for
the same decision seed, and whole games in every ruleset hexlog builds."""

from __future__ import annotations

import pytest

from bots.heuristic import HeuristicBot
from bots.local import play
from bots.sdk import Bot, reseed
from bots.search import SearchBot
from events.commands import Command
from events.events import ModuleSpec
from services.rules.engine import MODULES, decide, evolve, new_game, next_prompt, pending, view
from services.rules.engine.chance import SeededDealer
from services.rules.engine.state import MAIN, State


def main_decision(seed: bytes) -> tuple[State, int]:
    """A four-seat game played by heuristic bots up to a main stage with a real choice."""
    created = new_game("s", 4, seed)
    from services.rules.engine import initial_state

    state = initial_state(created)
    dealer = SeededDealer(seed)
    bots = [HeuristicBot(i) for i in range(4)]
    while True:
        prompts = pending(state)
        prompt = next_prompt(state, prompts)
        if state.phase == MAIN and state.turn > 12 and len(prompt.options) > 2:
            return state, prompt.seat
        command = bots[prompt.seat].choose(view(state, prompt.seat), prompt)
        for e in decide(state, command, dealer):
            evolve(state, e)


def choose(bot: SearchBot, state: State, seat: int) -> Command:
    prompt = next_prompt(state, pending(state))
    reseed(bot, "game-seed", seat, state.version)
    return bot.choose(view(state, seat), prompt)


def test_search_bot_decides_from_its_view_only() -> None:
    state, seat = main_decision(b"only-the-view")
    other = state.copy()
    # Shuffle the others' hidden cards (same counts): the seat's view does not change ...
    seats = [s for s in range(4) if s != seat]
    a, b = seats[0], seats[1]
    other.players[a].hand, other.players[b].hand = (
        shuffled_like(other.players[a].hand, other.players[b].hand),
        shuffled_like(other.players[b].hand, other.players[a].hand))
    assert view(other, seat) == view(state, seat)
    # ... so neither does its move.
    assert choose(SearchBot(1), state, seat) == choose(SearchBot(1), other, seat)


def shuffled_like(mine: list[int], theirs: list[int]) -> list[int]:
    """A hand with `mine`'s count drawn from the two hands' cards (theirs first)."""
    pool = [r for r, n in enumerate(theirs) for _ in range(n)] + [r for r, n in enumerate(mine) for _ in range(n)]
    out = [0] * len(mine)
    for r in pool[: sum(mine)]:
        out[r] += 1
    return out


def test_search_bot_is_reproducible_for_a_decision_seed_and_legal() -> None:
    state, seat = main_decision(b"reproducible")
    prompt = next_prompt(state, pending(state))
    first = choose(SearchBot(3), state, seat)
    assert first == choose(SearchBot(99), state, seat)  # the decision seed, not the bot's
    # An option of the prompt, or a domestic offer (the prompt says `may_trade`): the engine
    # takes it.
    assert first in prompt.options or prompt.may_trade
    assert decide(state.copy(), first, SeededDealer(b"judge"))


def test_search_bot_games_are_reproducible() -> None:
    created = new_game("r", 4, b"replay")
    logs = [play(created, [SearchBot(0, playouts=6), HeuristicBot(1), HeuristicBot(2),
                           HeuristicBot(3)], SeededDealer(b"replay")).log for _ in range(2)]
    assert logs[0] == logs[1]


def rulesets() -> list[tuple[str, tuple[ModuleSpec, ...], int]]:
    out: list[tuple[str, tuple[ModuleSpec, ...], int]] = [("base", (), 4)]
    for name in sorted(MODULES):
        out.append((name, (ModuleSpec(name=name),), max(MODULES[name].seats)))
    return out


@pytest.mark.parametrize(("name", "modules", "seats"), rulesets(), ids=[r[0] for r in rulesets()])
def test_search_bot_finishes_games_in_every_built_ruleset(name: str, modules: tuple[ModuleSpec, ...],
                                                          seats: int) -> None:
    created = new_game(f"every-{name}", seats, b"every", modules=modules, turn_limit=120)
    search = SearchBot(0, playouts=4)
    bots: list[Bot] = [search, *[HeuristicBot(i) for i in range(1, seats)]]
    # `play` feeds the search bot its log and raises on any illegal command.
    game = play(created, bots, SeededDealer(b"every"))
    assert game.state.finished
    assert search.stats.searched > 0 or search.stats.fallbacks


def test_the_view_determinizer_keeps_what_the_view_shows_and_deals_the_rest() -> None:
    import random

    from bots.determinize import ViewDeterminizer

    state, seat = main_decision(b"determinize")
    seen = view(state, seat)
    prompt = next_prompt(state, pending(state))
    dealt = ViewDeterminizer(seen).sample(seen, prompt, random.Random(0))
    assert dealt.players[seat].hand == state.players[seat].hand
    assert dealt.players[seat].dev == state.players[seat].dev
    for s in range(4):
        assert sum(dealt.players[s].hand) == sum(state.players[s].hand)
        assert sum(dealt.players[s].dev) == sum(state.players[s].dev)
        assert dealt.players[s].settlements == state.players[s].settlements
    assert dealt.bank == state.bank
    for r in range(5):  # every resource card is somewhere: bank or a hand
        assert dealt.bank[r] + sum(p.hand[r] for p in dealt.players) == 19
    assert dealt.vertex_owner == state.vertex_owner
    assert dealt.edge_owner == state.edge_owner
    assert [p.ratios for p in dealt.players] == [p.ratios for p in state.players]


@pytest.mark.parametrize(("name", "modules", "seats"), rulesets()[:4], ids=[r[0] for r in rulesets()[:4]])
def test_search_bot_from_views_only_finishes_games(name: str, modules: tuple[ModuleSpec, ...],
                                                    seats: int) -> None:
    """As over Redis: no log, the hidden cards dealt from the view (or the heuristic where
    the view has a module's parts)."""
    created = new_game(f"views-{name}", seats, b"views", modules=modules, turn_limit=120)
    search = SearchBot(0, playouts=4)
    search.observe = None  # type: ignore[assignment,method-assign]  # a host without the log
    bots: list[Bot] = [search, *[HeuristicBot(i) for i in range(1, seats)]]
    game = play(created, bots, SeededDealer(b"views"))
    assert game.state.finished
    assert not search.trackers


class Spy(HeuristicBot):
    """A heuristic bot that reads its log like the search bot does, and keeps it."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.seen: list[tuple[int, object]] = []

    def observe(self, seat: int, event: object) -> None:
        self.seen.append((seat, event))


def test_the_log_a_bot_is_fed_hides_the_other_seats_secrets() -> None:
    from events.events import CardStolen, DevelopmentCardBought

    spies = [Spy(i) for i in range(4)]
    play(new_game("spy", 4, b"spy"), list(spies), SeededDealer(b"spy"))
    stolen = bought = 0
    for spy in spies:
        for seat, e in spy.seen:
            if isinstance(e, CardStolen) and seat not in (e.thief, e.victim):
                assert e.resource is None
                stolen += 1
            if isinstance(e, DevelopmentCardBought) and seat != e.seat:
                assert e.card is None
                bought += 1
    assert stolen
    assert bought
