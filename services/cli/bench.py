"""`hexlog bench engine`: complete games with random bots in-process, and their rates."""

from __future__ import annotations

import resource
import time
from contextlib import nullcontext
from typing import Any

from bots.local import play
from bots.random_bot import RandomBot
from events.events import ModuleSpec
from services.rules.build import engine_build
from services.rules.engine import new_game
from services.rules.engine.chance import SeededDealer


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def bench_engine(
    games: int,
    ruleset: str = "base",
    variants: tuple[ModuleSpec, ...] = (),
    seats: int = 4,
    seed: int = 0,
    progress: bool = True,
) -> dict[str, Any]:
    if games < 1:
        raise ValueError(f"a benchmark plays at least one game, not {games}")
    decisions = events = 0
    unfinished = 0
    start = time.perf_counter()
    with _progress(games) if progress else nullcontext() as shown:
        for g in range(games):
            game_seed = f"bench:{seed}:{g}".encode()
            created = new_game(f"bench-{g}", seats, game_seed, modules=variants, ruleset=ruleset,
                               turn_limit=2000)
            bots = [RandomBot(seed * 1000 + g * 10 + s) for s in range(seats)]
            game = play(created, bots, SeededDealer(game_seed), keep_log=False, deterministic=False)
            decisions += game.decisions
            events += game.state.version - 1
            unfinished += game.state.winner < 0
            if shown is not None:
                shown.update(g + 1, rate=f"{(g + 1) / (time.perf_counter() - start):.1f} games/s")
    elapsed = time.perf_counter() - start
    return {
        "ruleset": ruleset,
        "build": engine_build(),  # "compiled" (mypyc) or "interpreted"
        "variants": [v.name for v in variants],
        "games": games,
        "games_per_s": games / elapsed,
        "decisions_per_s": decisions / elapsed,
        "events_per_s": events / elapsed,
        "decisions_per_game": decisions / games,
        "unfinished_games": unfinished,
        "peak_rss_mb": peak_rss_mb(),
        "seconds": elapsed,
    }


def _progress(games: int) -> Any:
    """A bar on a terminal (rich is only loaded then: `--json` runs measure the engine's
    memory, compared with catanatron's in benchmarks/README.md)."""
    from services.cli.progress import CountProgress

    return CountProgress(games)


def format_engine(result: dict[str, Any]) -> str:
    names = ", ".join(result["variants"]) or "no variants"
    return "\n".join(
        [
            f"engine benchmark: ruleset {result['ruleset']} ({names}), {result['games']} games, "
            f"random bots, in-process",
            f"  engine build       {result['build']:>10}  (scripts/build_engine.py)",
            f"  games/s            {result['games_per_s']:10.1f}",
            f"  decisions/s        {result['decisions_per_s']:10.0f}",
            f"  events/s           {result['events_per_s']:10.0f}",
            f"  decisions/game     {result['decisions_per_game']:10.1f}",
            f"  unfinished games   {result['unfinished_games']:10d}  (hit the 2000-turn safety limit)",
            f"  peak RSS           {result['peak_rss_mb']:10.1f} MB",
        ]
    )
