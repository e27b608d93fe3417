"""Property test: complete random games of the Rivers of Catan, alone and with the variants,
keep the scenario's invariants, and their logs audit clean.

1,000 games over nine rulesets (Rivers alone with 2-4 seats, with each variant, with all of
them), mostly random bots, a heuristic seat in every fifth game and a bot offering trades with
gold in every third. After EVERY event: for each resource bank + every hand == 19 and nothing
negative; gold never negative and its total equal to the gold earned minus the gold spent
(trades move it, never make it). After every command (consequences settled): at most 3
bridges per owner, each on a bridge site; no road on a bridge site; each seat's public VP
recounted from its pieces, awards and the Settlers; every river piece of a seat paid its
gold. Every 97th decision, every prompt option is accepted by the decider, and in the main phase a bridge on any edge, a
purchase and a sale of any resource are accepted exactly when offered. Every game ends (a
winner with the target reached, or the turn cap). One game per ruleset is recorded as the
service records it and audited (`services.audit`): it re-judges bit for bit.

The 1,000 games take about 45 s of CPU (four chunks; marked slow).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[2] / "engine"))
sys.path.insert(0, str(Path(__file__).parents[2] / "audit"))

from engine_helpers import make_bots  # noqa: E402
from recording import Recorder, bot_chooser  # noqa: E402

from bots.local import next_prompt  # noqa: E402
from bots.random_bot import RandomBot  # noqa: E402
from bots.sdk import Bot  # noqa: E402
from events.commands import Command, ProposeTrade  # noqa: E402
from events.events import Event, GameFinished, ModuleSpec  # noqa: E402
from events.prompts import Prompt, View  # noqa: E402
from events.rivers import (  # noqa: E402
    BuildBridge,
    BuyWithGold,
    GoldEarned,
    GoldSpent,
    SellForGold,
)
from events.types import RESOURCES  # noqa: E402
from services.audit.audit import audit  # noqa: E402
from services.rules.engine import decide, evolve, initial_state, new_game, pending, public_vp, view  # noqa: E402
from services.rules.engine.chance import SeededDealer  # noqa: E402
from services.rules.engine.rules import Rejected  # noqa: E402
from services.rules.engine.scenarios.rivers.common import places, rivers, wealth_vp  # noqa: E402
from services.rules.engine.scenarios.rivers.view import RiversView  # noqa: E402
from services.rules.engine.state import NO_ONE, State  # noqa: E402

GAMES = 1000
CHUNKS = 4
TURN_LIMIT = 300
COMBOS: tuple[tuple[int, tuple[str, ...]], ...] = (
    (4, ()), (3, ()), (2, ()), (4, ("friendly-robber",)), (3, ("event-cards",)),
    (4, ("harbormaster",)), (2, ("catan-for-two",)),
    (2, ("catan-for-two", "event-cards", "friendly-robber", "harbormaster")),
    (3, ("event-cards", "friendly-robber", "harbormaster")),
)


class GoldTradingBot:
    """A random bot that now and then offers another seat a trade with gold (gold is the
    game's currency: the base offer names it)."""

    name = "gold-trading"
    needs_view = True

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.inner = RandomBot(seed + 1)

    def choose(self, seen: View | None, prompt: Prompt) -> Command:
        assert seen is not None
        if prompt.stage == "main" and self.rng.random() < 0.1:
            me = seen.players[prompt.seat]
            shown: RiversView = seen.ext["rivers"]
            gold = shown["gold"][prompt.seat]
            partner = self.rng.choice([p.seat for p in seen.players if p.seat != prompt.seat])
            held = [r for r, n in (me.hand or {}).items() if n > 0]
            if gold and self.rng.random() < 0.5:
                return ProposeTrade(seat=prompt.seat, give={"gold": 1},
                                    get={self.rng.choice(RESOURCES): 1}, to=(partner,))
            if held:
                return ProposeTrade(seat=prompt.seat, give={self.rng.choice(held): 1},
                                    get={"gold": 1}, to=(partner,))
        return self.inner.choose(seen, prompt)


def game_of(i: int) -> tuple[int, tuple[ModuleSpec, ...], list[Bot]]:
    seats, variants = COMBOS[i % len(COMBOS)]
    kinds = ["random"] * seats
    if i % 5 == 1:
        kinds[i % seats] = "heuristic"
    bots = make_bots(kinds, i)
    if i % 3 == 2:
        bots[(i + 1) % seats] = GoldTradingBot(i)
    return seats, (ModuleSpec(name="rivers"), *(ModuleSpec(name=v) for v in variants)), bots


class RiversChecker:
    def __init__(self, state: State) -> None:
        self.bank_total = [state.bank[r] + sum(p.hand[r] for p in state.players)
                           for r in range(len(state.bank))]
        self.gold = 0  # earned minus spent
        self.sites = places(state).bridge_sites

    def after_event(self, state: State, e: Event) -> None:
        if isinstance(e, GoldEarned):
            self.gold += e.gold
        elif isinstance(e, GoldSpent):
            self.gold -= e.gold
        for r, total in enumerate(self.bank_total):
            assert state.bank[r] + sum(p.hand[r] for p in state.players) == total
            assert state.bank[r] >= 0
        assert all(n >= 0 for p in state.players for n in p.hand)
        gold = rivers(state).gold
        assert min(gold) >= 0
        assert sum(gold) == self.gold
        if isinstance(e, GameFinished) and e.winner is not None:
            assert e.scores[e.winner] >= state.rules.hooks.win_target(state, e.winner)

    def after_command(self, state: State) -> None:
        """Pieces and points, once a command's consequences have settled."""
        r = rivers(state)
        at = places(state)
        for p in state.players:
            bridges = p.pieces.get("bridge", set())
            assert len(bridges) <= 3
            assert bridges <= self.sites
            assert not (p.roads - bridges) & self.sites, "a road on a bridge site"
            assert all(state.edge_owner[b] == p.seat for b in bridges)
        for s in range(state.n):
            assert public_vp(state, s) == recount(state, s) + wealth_vp(r.gold, s)
        for s in range(state.n):
            p = state.players[s]
            assert (p.roads & (at.river_paths | self.sites)) <= r.paid_edges
            assert (p.settlements & at.river_vertices) <= r.paid_vertices


def recount(state: State, seat: int) -> int:
    """Public VP without the Settlers: buildings, awards and module cards (Harbormaster)."""
    p = state.players[seat]
    vp = len(p.settlements) + 2 * len(p.cities)
    vp += 2 * (state.longest_holder == seat) + 2 * (state.army_holder == seat)
    if state.ext.get("harbormaster", NO_ONE) == seat:  # the Harbormaster card's holder
        vp += 2
    return vp


def accepted(state: State, command: Command) -> bool:
    try:
        decide(state, command, SeededDealer(b"probe"))
    except Rejected:
        return False
    return True


def check_prompts(state: State) -> None:
    """Every option is accepted; in the main phase the scenario's enumerable commands (a bridge
    on any edge, a purchase or a sale of any resource) are accepted exactly when offered."""
    prompts = pending(state)
    for prompt in prompts:
        for option in prompt.options:
            assert accepted(state, option), f"{option!r} is offered but refused"
    if state.phase != "main":
        return
    seat = state.current
    offered = {o for p in prompts if p.seat == seat for o in p.options}
    probes: list[Command] = [BuildBridge(seat=seat, edge=e) for e in range(state.board.n_edges)]
    probes += [BuyWithGold(seat=seat, resource=r) for r in RESOURCES]
    probes += [SellForGold(seat=seat, resource=r) for r in RESOURCES]
    for probe in probes:
        assert accepted(state, probe) == (probe in offered), f"{probe!r}: prompt and decide disagree"


def play(i: int) -> State:
    seats, specs, bots = game_of(i)
    seed = f"rivers-sweep-{i}".encode()
    state = initial_state(new_game(f"rv-{i}", seats, seed, modules=specs, turn_limit=TURN_LIMIT))
    dealer = SeededDealer(seed)
    checker = RiversChecker(state)
    decisions = 0
    while not state.finished:
        prompt = next_prompt(state, pending(state))
        bot = bots[prompt.seat]
        if decisions % 97 == 0:
            check_prompts(state)
        command = bot.choose(view(state, prompt.seat) if bot.needs_view else None, prompt)
        try:
            events = decide(state, command, dealer)
        except Rejected:
            assert isinstance(command, ProposeTrade), command  # a random offer may not fit
            command = prompt.default
            events = decide(state, command, dealer)
        for e in events:
            evolve(state, e)
            checker.after_event(state, e)
        checker.after_command(state)
        decisions += 1
        assert decisions < 40_000
    return state


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_a_thousand_random_rivers_games_keep_every_invariant(chunk: int) -> None:
    per = GAMES // CHUNKS
    winners = 0
    for i in range(chunk * per, (chunk + 1) * per):
        state = play(i)
        assert state.finished  # a winner, or the turn cap
        winners += state.winner != NO_ONE
    assert winners >= per * 0.6


@pytest.mark.parametrize("i", range(0, len(COMBOS)))
def test_recorded_rivers_games_audit_clean(i: int) -> None:
    seats, specs, _ = game_of(i)
    rec = Recorder.new(f"rv-audit-{i}", f"rivers-audit-{i}".encode(), seats=seats,
                       modules=specs, turn_limit=TURN_LIMIT)
    rec.play(bot_chooser(["heuristic", *["random"] * (seats - 1)]), max_decisions=40_000)
    report = audit(rec.record())
    assert report.exit_code == 0, report.to_dict()
    assert report.seed == "revealed"
