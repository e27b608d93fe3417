"""`hexlog bench search`: the search bot's speed in-process. One search bot against three
heuristic bots, seat rotated game by game; every decision of the search bot is timed (one
core, wall clock) and its playouts counted, so the report gives decision time (median, p99;
all decisions and the searched ones), playouts per second, state copies per second and the
peak memory. `view_only` makes the bot decide as it does over Redis (no log: hidden cards
dealt from the view) instead of from its belief tracker fed with its log."""

from __future__ import annotations

import time
from typing import Any

from bots.heuristic import HeuristicBot
from bots.local import play
from bots.search import DEFAULT_PLAYOUTS, SearchBot
from events.commands import Command
from events.events import ModuleSpec, TradeCompleted, TradeProposed
from events.prompts import Prompt, View
from services.cli.bench import peak_rss_mb, quantile
from services.rules.build import engine_build
from services.rules.engine import initial_state, new_game
from services.rules.engine.chance import SeededDealer


class TimedSearch(SearchBot):
    """The search bot with a stopwatch around each decision."""

    def __init__(self, seed: int, playouts: int, view_only: bool) -> None:
        super().__init__(seed, playouts)
        self.times: list[float] = []
        self.searched_times: list[float] = []
        self.view_only = view_only
        self.observing = 0.0  # seconds spent folding the log into the belief

    def observe(self, seat: int, event: Any) -> None:
        if not self.view_only:
            start = time.perf_counter()
            super().observe(seat, event)
            self.observing += time.perf_counter() - start

    def choose(self, view: View | None, prompt: Prompt) -> Command:
        before = self.stats.searched
        start = time.perf_counter()
        command = super().choose(view, prompt)
        elapsed = time.perf_counter() - start
        self.times.append(elapsed)
        if self.stats.searched > before:
            self.searched_times.append(elapsed)
        return command


def bench_search(games: int, playouts: int = DEFAULT_PLAYOUTS, seed: int = 0,
                 variants: tuple[ModuleSpec, ...] = (), seats: int = 4,
                 view_only: bool = False, ruleset: str = "base") -> dict[str, Any]:
    times: list[float] = []
    searched: list[float] = []
    total_playouts = wins = 0
    observing = 0.0
    offers = deals = 0
    fallbacks: dict[str, int] = {}
    start = time.perf_counter()
    for g in range(games):
        game_seed = f"bench-search:{seed}:{g}".encode()
        created = new_game(f"bench-search-{g}", seats, game_seed, modules=variants,
                           ruleset=ruleset, turn_limit=400)
        bot = TimedSearch(seed * 1000 + g, playouts, view_only)
        bots: list[Any] = [HeuristicBot(seed * 1000 + g * 10 + s) for s in range(seats)]
        seat = g % seats
        bots[seat] = bot
        game = play(created, bots, SeededDealer(game_seed))
        wins += game.state.winner == seat
        offers += sum(1 for e in game.log if isinstance(e, TradeProposed) and e.seat == seat)
        deals += sum(1 for e in game.log if isinstance(e, TradeCompleted) and e.seat == seat)
        times += bot.times
        searched += bot.searched_times
        total_playouts += bot.stats.playouts
        observing += bot.observing
        for reason, n in bot.stats.fallbacks.items():
            fallbacks[reason] = fallbacks.get(reason, 0) + n
    elapsed = time.perf_counter() - start
    state = initial_state(new_game("copy", seats, b"copy", modules=variants, ruleset=ruleset))
    copies = 5000
    t = time.perf_counter()
    for _ in range(copies):
        state.copy()
    copy_s = time.perf_counter() - t
    return {
        "games": games, "playouts_per_decision": playouts, "view_only": view_only,
        "ruleset": ruleset, "variants": [v.name for v in variants],
        "build": engine_build(),  # "compiled" (mypyc) or "interpreted"
        "search_wins": wins,
        "offers": offers, "offers_completed": deals,
        "decisions": len(times), "searched_decisions": len(searched),
        "decision_ms_median": 1000 * quantile(times, 0.5),
        "decision_ms_p99": 1000 * quantile(times, 0.99),
        "searched_ms_median": 1000 * quantile(searched, 0.5),
        "searched_ms_p99": 1000 * quantile(searched, 0.99),
        "playouts_per_s": total_playouts / sum(searched) if searched else 0.0,
        "state_copies_per_s": copies / copy_s,
        "belief_ms_per_decision": 1000 * observing / len(times) if times else 0.0,
        "fallbacks": fallbacks,
        "peak_rss_mb": peak_rss_mb(),
        "seconds": elapsed,
    }


def format_search(r: dict[str, Any]) -> str:
    mode = "view only (as over Redis)" if r["view_only"] else "belief tracker fed with its log"
    return "\n".join([
        f"search bot ({r['ruleset']}{''.join(' +' + v for v in r['variants'] if v != r['ruleset'])}), "
        f"{r['playouts_per_decision']} playouts per decision, {mode}: "
        f"{r['games']} games vs 3 heuristic bots, won {r['search_wins']}; "
        f"engine build {r['build']}",
        f"  decisions {r['decisions']}: median {r['decision_ms_median']:.2f} ms, "
        f"p99 {r['decision_ms_p99']:.1f} ms",
        f"  searched  {r['searched_decisions']}: median {r['searched_ms_median']:.1f} ms, "
        f"p99 {r['searched_ms_p99']:.1f} ms",
        f"  belief tracker (log folding, outside decisions): "
        f"{r['belief_ms_per_decision']:.2f} ms per decision on average",
        f"  playouts/s {r['playouts_per_s']:.0f}; state copies/s {r['state_copies_per_s']:.0f}; "
        f"peak RSS {r['peak_rss_mb']:.0f} MB; {r['seconds']:.1f} s",
        f"  domestic offers made {r['offers']}, completed {r['offers_completed']}",
        *([f"  fell back to the heuristic: {r['fallbacks']}"] if r["fallbacks"] else []),
    ])
