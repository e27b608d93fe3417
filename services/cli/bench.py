"""`hexlog bench engine`: complete games with random bots in-process, and their rates."""

from __future__ import annotations

import resource
import time
from contextlib import nullcontext
from typing import Any

from bots.random_bot import RandomBot
from events.events import GameCreated, ModuleSpec
from services.rules.build import engine_build
from services.rules.engine import initial_state, new_game, next_prompt, pending, step
from services.rules.engine.chance import Dealer, SeededDealer
from services.rules.engine.state import State

MAX_DECISIONS = 100_000  # a game still going after this many is a bug (games stop at 2000 turns)


def quantile(values: list[float], q: float) -> float:
    """The q-quantile of `values` (the nearest rank below; 0.0 for none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


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
            state, played = random_game(created, bots, SeededDealer(game_seed))
            decisions += played
            events += state.version - 1
            unfinished += state.winner < 0
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


def random_game(created: GameCreated, bots: list[RandomBot], dealer: Dealer) -> tuple[State, int]:
    """One game of random bots, to its end: the final state and the number of decisions.

    The loop has the shape of fastcatan's benchmark loop (legal moves, `random.choice`,
    apply), so the two compare engines, not loops: a prompt with options gets its seat's
    `rng.choice` directly, the draw `RandomBot.choose` makes, without the bot's call around
    it. The games are the ones `bots.local.play` plays with these bots undeterministically
    (tests/cli/test_archives_and_benchmarks.py checks)."""
    state = initial_state(created)
    decisions = 0
    while not state.finished:
        prompts = pending(state)
        prompt = prompts[0] if len(prompts) == 1 else next_prompt(state, prompts)
        options = prompt.options
        bot = bots[prompt.seat]
        step(state, bot.rng.choice(options) if options else bot.choose(None, prompt), dealer)
        decisions += 1
        if decisions >= MAX_DECISIONS:
            raise RuntimeError(f"game {state.game_id} did not end in {MAX_DECISIONS} decisions")
    return state, decisions


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
