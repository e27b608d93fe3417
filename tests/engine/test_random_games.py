"""Property tests: complete random games keep the engine's invariants (docs/rules/base.md §1).

1,000 games in a fixed sweep (70% four seats, 15% three, 15% two; random bots, with a heuristic
seat in every fifth game, a trading bot that makes and counters domestic offers in every seventh,
and a table of heuristic bots now and then), plus a hypothesis fuzzer over seeds, seat counts
and bot mixes. The invariants are those of `engine_helpers.Checker`:

* after EVERY event (cheap): for each resource bank + all hands == 19 and nothing negative;
  piece limits 15 / 5 / 4; the 25 development cards all accounted for (deck, hands, played);
  VP recounted from the board, the award holders and the VP cards == `score(state)`; a
  `CardStolen` / `DevelopmentCardBought` redacted for every uninvolved seat and spectator hides
  the card; a victory is won by the active seat with the target reached;
* after every command (when derived awards have settled): Longest Road and Largest Army
  holders follow §1.8/§1.9, and the active seat never sits at the target without having won;
* at a sampled subset of events, every 97th and at the end (expensive): `view(state, seat)` for
  every seat and a spectator shows no other seat's hand, development cards or total VP;
  players' pieces match the board; the distance rule holds; every road length equals an
  independent longest-trail search.

The sampling keeps the sweep fast (the engine plays ~75 games/s; the per-event checks roughly
halve that). The legality of prompts is checked separately on fewer games, because probing
every edge, vertex, hex and trade with `decide` costs more than playing.
"""

from __future__ import annotations

from collections import Counter

import pytest
from engine_helpers import Checker, make_bots, play_game, random_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.commands import (
    BuildCity,
    BuildRoad,
    BuildSettlement,
    Command,
    MaritimeTrade,
    MoveRobber,
)
from events.types import RESOURCES
from services.rules.engine import decide, pending
from services.rules.engine.chance import SeededDealer
from services.rules.engine.rules import Rejected
from services.rules.engine.state import MAIN, ROBBER, State

GAMES = 1000
CHUNKS = 10

# Every kind of event a base game can produce; each chunk of the sweep must show all of them.
EXPECTED_EVENTS = {
    "SettlementBuilt", "RoadBuilt", "CityBuilt", "StartingResourcesTaken", "DiceRolled",
    "ResourcesProduced", "DiscardRequired", "ResourcesDiscarded", "RobberMoved", "CardStolen",
    "TurnEnded", "DevelopmentCardBought", "KnightPlayed", "RoadBuildingPlayed",
    "YearOfPlentyPlayed", "MonopolyPlayed", "LongestRoadChanged", "LargestArmyChanged",
    "MaritimeTraded", "TradeProposed", "TradeAnswered", "TradeCompleted", "TradeCancelled",
    "GameFinished",
}  # fmt: skip


def game_setup(i: int) -> tuple[int, list[str], bool]:
    """Seats, bots and layout of the i-th game of the sweep."""
    seats = 4 if i % 20 < 14 else 3 if i % 20 < 17 else 2
    kinds = ["random"] * seats
    if i % 5 == 1:
        kinds[i % seats] = "heuristic"
    if i % 7 == 2:
        kinds[(i + 1) % seats] = "trading"
    if i % 50 == 3:
        kinds = ["heuristic"] * seats
    return seats, kinds, i % 10 == 9


def play_checked(i: int) -> Checker:
    seats, kinds, beginner = game_setup(i)
    seed = f"sweep-{i}".encode()
    checker = Checker(sample=97)
    game = play_game(random_game(seats, seed, beginner=beginner), make_bots(kinds, i), seed, checker)
    checker.check_expensive(game.state)
    assert game.state.finished
    return checker


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_a_thousand_random_games_keep_every_invariant_after_every_event(chunk: int) -> None:
    seen: Counter[str] = Counter()
    per = GAMES // CHUNKS
    for i in range(chunk * per, (chunk + 1) * per):
        seen.update(play_checked(i).counts)
    assert seen["GameFinished"] == per
    missing = EXPECTED_EVENTS - set(seen)
    assert not missing, f"chunk {chunk} never saw {sorted(missing)}"


@settings(max_examples=25, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.binary(min_size=1, max_size=12),
    seats=st.integers(min_value=2, max_value=4),
    kinds=st.lists(st.sampled_from(["random", "heuristic", "trading"]), min_size=4, max_size=4),
    beginner=st.booleans(),
)
def test_hypothesis_random_games_keep_every_invariant(
    seed: bytes, seats: int, kinds: list[str], beginner: bool
) -> None:
    checker = Checker(sample=53)
    game = play_game(random_game(seats, seed, beginner), make_bots(kinds[:seats], len(seed)),
                     seed, checker)
    checker.check_expensive(game.state)
    assert game.state.finished


# --- prompts list exactly the legal commands ------------------------------------------------


def accepted(state: State, command: Command) -> bool:
    try:
        decide(state, command, SeededDealer(b"probe"))
    except Rejected:
        return False
    return True


def check_prompts(state: State) -> None:
    """Every listed option is accepted; for the enumerable kinds (builds, maritime trades,
    robber moves) nothing unlisted is."""
    prompts = pending(state)
    for prompt in prompts:
        for option in prompt.options:
            assert accepted(state, option), f"{option!r} is offered but refused"
        assert accepted(state, prompt.default), f"default {prompt.default!r} is refused"
    seat = state.current
    topo = state.board.topo
    offered = {o for p in prompts if p.seat == seat for o in p.options}
    probes: list[Command] = []
    if state.phase == MAIN:
        probes += [BuildRoad(seat=seat, edge=e) for e in range(len(topo.edges))]
        probes += [BuildSettlement(seat=seat, vertex=v) for v in range(len(topo.vertices))]
        probes += [BuildCity(seat=seat, vertex=v) for v in range(len(topo.vertices))]
        probes += [MaritimeTrade(seat=seat, give=a, get=b) for a in RESOURCES for b in RESOURCES]
    elif state.phase == ROBBER:
        probes += [MoveRobber(seat=seat, hex=h, victim=v)
                   for h in range(len(topo.hexes)) for v in [None, *range(state.n)]]
    for probe in probes:
        assert accepted(state, probe) == (probe in offered), f"{probe!r}: prompt and decide disagree"


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_prompts_offer_exactly_the_commands_decide_accepts(seats: int) -> None:
    from bots.local import next_prompt
    from services.rules.engine import evolve, initial_state, view

    checked = 0
    for g in range(6):
        seed = f"prompts-{seats}-{g}".encode()
        bots = make_bots(["trading", "random", "heuristic", "random"][:seats], g)
        state = initial_state(random_game(seats, seed))
        dealer = SeededDealer(seed)
        step = 0
        while not state.finished:
            if step % 11 == 0 or state.phase == ROBBER:
                check_prompts(state)
                checked += 1
            prompt = next_prompt(state, pending(state))
            bot = bots[prompt.seat]
            command = bot.choose(view(state, prompt.seat) if bot.needs_view else None, prompt)
            for e in decide(state, command, dealer):
                evolve(state, e)
            step += 1
    assert checked > 100
