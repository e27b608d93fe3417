"""Every allowed pair of the four Traders & Barbarians variants (friendly-robber, harbormaster,
event-cards, catan-for-two): 500 complete random games per pair, plus a few HeuristicBot games,
checked against the invariants of the engine and of each module.

Seats: a pair with catan-for-two is a 2-seat game (plus its two neutrals); the other pairs play
4 seats, every fifth game 3. Pairs are found from the module catalogue (`check_combination`),
so a new conflict or seat limit changes this list without an edit here.

Checked after EVERY event (cheap, O(players)):
  * per resource: bank + every hand == 19, nothing negative;
  * piece limits: 15 roads, 5 settlements, 4 cities per owner (neutrals included);
  * `score(state)` == VP recounted from scratch: buildings from `vertex_owner`/`vertex_level`,
    Longest Road / Largest Army for seats only (a neutral may hold Longest Road), the
    Harbormaster card, victory-point cards;
  * module counters: catan-for-two tokens + supply == 20 and neutrals hold no cards; the
    event deck's public counts (`index`, `drawn` within the deck's copies), damaged roads are
    roads of their owner;
  * the turn's chance: with catan-for-two two different dice totals per turn (re-rolls aside),
    with event-cards no dice at all and one number card per draw, with both exactly two number
    cards per turn (combination rule `catan_for_two.event_cards.two_draws`);
  * friendly-robber: every `RobberMoved` avoids protected players unless no hex was open (then
    the desert), and never robs a protected player (the check of friendly_harbor_games.py).
Checked after every command: the Harbormaster holder agrees with the harbor points recounted
from the board, and nobody has reached the target without winning.
Checked once per game (the expensive ones): a replay of the log (initial_state + evolve) equals
the live state (`to_dict`), the event deck per cycle (check_deck of test_event_cards.py), a
winner has the target; every 25th game also a snapshot round trip.

Runtime: the 3000 random games are shared out over up to 2 worker processes (fork), about
2 minutes on 2 cores; nothing is sampled — every game, every event is checked.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor

import pytest
from friendly_harbor_games import Checker as FriendlyHarborChecker
from friendly_harbor_games import play_to_end, replay
from test_event_cards import check_deck

from bots.heuristic import HeuristicBot
from bots.random_bot import RandomBot
from bots.sdk import Bot
from events.catan_for_two import DiceRerolled
from events.event_cards import EventCardDrawn
from events.events import (
    DiceRolled,
    Event,
    GameCreated,
    GameFinished,
    ModuleSpec,
    RobberMoved,
    TurnEnded,
)
from events.types import DEV_INDEX, RESOURCES
from services.rules.engine import (
    RulesetError,
    check_combination,
    new_game,
    score,
    snapshot,
)
from services.rules.engine.chance import SeededDealer
from services.rules.engine.state import NO_ONE, SETUP, State
from services.rules.engine.variants.event_cards_deck import DECK

VARIANTS = ("friendly-robber", "harbormaster", "event-cards", "catan-for-two")
GAMES = 500
HEURISTIC_GAMES = 6
VP_CARD = DEV_INDEX["victory_point"]
START_VP = 2


def seats_for(pair: Sequence[str]) -> tuple[int, ...]:
    """The seat counts a pair allows, most first (catan-for-two: 2)."""
    out = []
    for seats in (4, 3, 2):
        try:
            check_combination(tuple(ModuleSpec(name=n) for n in pair), seats)
        except RulesetError:
            continue
        out.append(seats)
    return tuple(out)


PAIRS = [pair for pair in itertools.combinations(VARIANTS, 2) if seats_for(pair)]


def seat_plan(pair: Sequence[str], g: int) -> int:
    allowed = seats_for(pair)
    if allowed == (2,):
        return 2
    return 3 if g % 5 == 4 and 3 in allowed else allowed[0]


# --- the checker ----------------------------------------------------------------------------


class PairChecker:
    def __init__(self, pair: Sequence[str]) -> None:
        self.friendly = "friendly-robber" in pair
        self.harbor = "harbormaster" in pair
        self.cards = "event-cards" in pair
        self.two = "catan-for-two" in pair
        # Reused for the Friendly Robber's robber check and the Harbormaster holder check.
        self.fh = FriendlyHarborChecker(friendly=self.friendly, harbormaster=self.harbor)
        self.counts: Counter[str] = Counter()
        self.new_game()

    def new_game(self) -> None:
        self.totals: list[int] = []  # this turn's dice totals (catan-for-two)
        self.numbers = 0  # this turn's number cards

    def recount(self, state: State) -> tuple[list[int], tuple[int, ...]]:
        """(public VP, total VP) per seat, from the raw state."""
        n = state.n
        public = [0] * n
        for o, level in zip(state.vertex_owner, state.vertex_level, strict=True):
            if 0 <= o < n:
                public[o] += level  # settlement 1, city 2; neutral pieces score nothing
        for holder in (state.longest_holder, state.army_holder):
            if 0 <= holder < n:
                public[holder] += 2
        if self.harbor and state.ext["harbormaster"] != NO_ONE:
            public[state.ext["harbormaster"]] += 2
        return public, tuple(public[s] + state.players[s].dev[VP_CARD] for s in range(n))

    def after_event(self, state: State, e: Event) -> None:
        players = state.players
        bank = state.bank
        for r in range(5):
            assert bank[r] + sum(p.hand[r] for p in players) == 19, (RESOURCES[r], e)
            assert bank[r] >= 0
            assert all(p.hand[r] >= 0 for p in players), e
        for p in players:
            assert len(p.roads) <= 15
            assert len(p.settlements) <= 5
            assert len(p.cities) <= 4
        public, total = self.recount(state)
        assert score(state) == total, (score(state), total, e)
        if self.two:
            self.check_two(state)
        if self.cards:
            self.check_cards(state)
        kind = type(e)
        self.counts[kind.__name__] += 1
        if kind is DiceRolled:
            assert not self.cards, "event cards replace the dice"
            self.totals.append(e.d1 + e.d2)  # type: ignore[attr-defined]
            if self.two:
                assert len(self.totals) <= 2
                assert len(set(self.totals)) == len(self.totals), self.totals
        elif kind is DiceRerolled:
            assert not self.cards
            assert self.totals == [e.d1 + e.d2]  # type: ignore[attr-defined]
        elif kind is EventCardDrawn:
            if e.event != "new_year":  # type: ignore[attr-defined]
                self.numbers += 1
                assert self.numbers <= (2 if self.two else 1), "too many cards this turn"
        elif kind is TurnEnded:
            self.check_turn_chance()
        elif kind is RobberMoved and self.friendly:
            self.fh.check_robber(state, e, public)  # type: ignore[arg-type]
        elif kind is GameFinished:
            winner = e.winner  # type: ignore[attr-defined]
            if winner is not None:
                assert total[winner] >= state.rules.hooks.win_target(state, winner)

    def check_turn_chance(self) -> None:
        if self.cards:
            assert self.numbers == (2 if self.two else 1), self.numbers
        else:
            assert len(self.totals) == (2 if self.two else 1), self.totals
        self.new_game()

    def check_two(self, state: State) -> None:
        t = state.ext["catan-for-two"]
        assert sum(t.tokens) + t.supply == 20
        assert min(t.tokens) >= 0
        assert t.supply >= 0
        for p in state.players[state.n:]:
            assert not any(p.hand)
            assert not any(p.dev)
            assert not p.cities

    def check_cards(self, state: State) -> None:
        x = state.ext["event_cards"]
        assert 0 <= x.index <= x.per_cycle
        assert sum(x.drawn) == x.index
        assert all(d <= c for d, c in zip(x.drawn, DECK.copies, strict=True))
        for s, edge in enumerate(x.damaged):
            assert edge == NO_ONE or edge in state.players[s].roads

    def before_command(self, state: State) -> None:
        self.fh.before_command(state)

    def after_command(self, state: State) -> None:
        self.fh.after_command(state)  # the Harbormaster holder has >= 3 and the most; no missed win


# --- playing --------------------------------------------------------------------------------


def play_checked(pair: Sequence[str], g: int, bots: Sequence[Bot], seed: bytes,
                 checker: PairChecker) -> tuple[GameCreated, State, list[Event]]:
    seats = len(bots)
    created = new_game(f"pair-{g}", seats, seed, modules=[ModuleSpec(name=n) for n in pair],
                       turn_limit=1000)
    checker.new_game()
    state, log = play_to_end(created, bots, SeededDealer(seed), checker)
    return created, state, log


def play_games(pair: tuple[str, ...], games: range, kind: str = "random") -> Counter[str]:
    """Play and check `games` of `pair`; the counts of what happened (for coverage checks)."""
    checker = PairChecker(pair)
    for g in games:
        seats = seat_plan(pair, g)
        cls = HeuristicBot if kind == "heuristic" else RandomBot
        bots: list[Bot] = [cls(g * 10 + s) for s in range(seats)]
        seed = f"pair:{kind}:{'+'.join(pair)}:{g}".encode()
        created, state, log = play_checked(pair, g, bots, seed, checker)
        assert replay(created, log).to_dict() == state.to_dict(), f"replay differs, game {g}"
        if checker.cards:
            check_deck(log)
        if g % 25 == 0:
            restored = snapshot.load(snapshot.dump(state), created)
            assert restored.to_dict() == state.to_dict()
        checker.counts["games"] += 1
        checker.counts[f"seats{seats}"] += 1
        checker.counts["won" if state.winner != NO_ONE else "undecided"] += 1
        assert state.phase != SETUP
    return checker.counts + checker.fh.counts


def chunks(n: int, parts: int) -> Iterator[range]:
    step = -(-n // parts)
    for start in range(0, n, step):
        yield range(start, min(n, start + step))


@pytest.fixture(scope="module")
def pool() -> Iterator[ProcessPoolExecutor | None]:
    workers = min(2, os.cpu_count() or 1)
    if workers < 2:
        yield None
        return
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as ex:
        yield ex


def test_pairs_are_every_combination_of_the_four_variants() -> None:
    assert len(PAIRS) == 6
    for pair in PAIRS:
        assert seats_for(pair) == ((2,) if "catan-for-two" in pair else (4, 3, 2))


@pytest.mark.slow  # a sweep: the interpreted pass runs it, the compiled pass does not (Makefile)
@pytest.mark.parametrize("pair", PAIRS, ids=["+".join(p) for p in PAIRS])
def test_pair_500_random_games_keep_every_invariant_and_replay_exactly(
        pair: tuple[str, ...], pool: ProcessPoolExecutor | None) -> None:
    if pool is None:
        counts = play_games(pair, range(GAMES))
    else:
        counts = Counter[str]()
        for part in [pool.submit(play_games, pair, r) for r in chunks(GAMES, 2)]:
            counts.update(part.result())
    assert counts["games"] == GAMES
    # Random play can starve itself; the turn limit ends those few games undecided.
    assert counts["won"] >= GAMES * 0.97, counts
    if "catan-for-two" not in pair:
        assert counts["seats3"] == GAMES // 5
    expected = {"TurnEnded", "RobberMoved", "CardStolen", "DiscardRequired"}
    if "event-cards" in pair:
        expected |= {"EventCardDrawn", "RoadsDamaged", "NeighborsGifted", "EventResourcesGranted",
                     "AssistanceGiven", "VictimChosen", "RobberFled", "RoadRepaired"}
    else:
        expected |= {"DiceRolled"}
    if "catan-for-two" in pair:
        expected |= {"NeutralRoadBuilt", "NeutralSettlementBuilt", "ForcedTradeReturned",
                     "RobberSentToDesert", "KnightDiscarded", "TradeTokensGained"}
        if "event-cards" not in pair:
            expected |= {"DiceRerolled"}
    if "harbormaster" in pair:
        expected |= {"HarbormasterChanged"}
    if "friendly-robber" in pair:
        expected |= {"robber_with_protected"}
    assert expected <= set(counts), expected - set(counts)


@pytest.mark.parametrize("pair", PAIRS, ids=["+".join(p) for p in PAIRS])
def test_pair_heuristic_bots_play_complete_games(pair: tuple[str, ...]) -> None:
    counts = play_games(pair, range(HEURISTIC_GAMES), kind="heuristic")
    assert counts["won"] == HEURISTIC_GAMES, counts
