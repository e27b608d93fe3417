"""Play N catanatron games with 4 uniformly random players and print one JSON object.

Run by the interpreter of a venv that has catanatron installed (never by hexlog's own venv):

    benchmarks/.venv-catanatron/bin/python benchmarks/catanatron_runner.py --games 200

The JSON has the same shape as `hexlog bench engine --json`:
games, games_per_s, decisions_per_s, events_per_s (null: catanatron keeps no event log, only
its list of executed actions, which is the decision count), decisions_per_game,
unfinished_games, peak_rss_mb, seconds; plus the catanatron version and the seeds used.

A decision is one `Game.play_tick()`: the current player picks one of
`state.playable_actions` (the legal moves catanatron generated after the previous action),
and `Game.execute` validates and applies it, which also generates the next
`playable_actions`. Rolling the dice, ending the turn, every discard (one per player who must
discard; catanatron picks the cards at random inside the action) and every robber move (the
hex and the victim are a single action) are ticks, hence decisions. The loop is the one in
`Game.play()` (same stop condition: a winner, or TURNS_LIMIT turns) without the accumulator
hooks and the two whole-game copies `play()` makes for them, which only favours catanatron.
Games are seeded (`Game(seed=...)` reseeds the global `random`): reproducible within a
process, though not across processes, since some of catanatron's iteration order follows object
addresses. Timing covers creating each game (map, shuffles) and playing it, like hexlog's bench, and
excludes interpreter start-up and imports.

Importing nothing from hexlog: this file only needs the standard library and catanatron.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time


def peak_rss_mb() -> float:
    # Linux reports ru_maxrss in KiB (the same call hexlog's bench uses).
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0, help="games use seeds seed*1e6+1 ...")
    args = parser.parse_args(argv)

    from importlib.metadata import version

    from catanatron.game import TURNS_LIMIT, Game
    from catanatron.models.player import Color, RandomPlayer

    decisions = 0
    unfinished = 0
    start = time.perf_counter()
    for g in range(args.games):
        # Game(seed=...) reseeds the global `random`, which the map, the dice, the decks and
        # RandomPlayer all draw from, so each game is reproducible. Seed 0 would mean "random".
        game = Game([RandomPlayer(c) for c in Color], seed=args.seed * 1_000_000 + g + 1)
        ticks = 0
        while game.winning_color() is None and game.state.num_turns < TURNS_LIMIT:
            game.play_tick()
            ticks += 1
        # Every executed action is appended once to state.actions: a cross-check of the count.
        if ticks != len(game.state.actions):
            raise RuntimeError(f"game {g}: {ticks} ticks but {len(game.state.actions)} actions")
        decisions += ticks
        unfinished += game.winning_color() is None
    elapsed = time.perf_counter() - start

    games = args.games
    result = {
        "engine": "catanatron",
        "version": version("catanatron"),
        "python": sys.version.split()[0],
        "games": games,
        "games_per_s": games / elapsed if games else None,
        "decisions_per_s": decisions / elapsed if games else None,
        "events_per_s": None,
        "decisions_per_game": decisions / games if games else None,
        "unfinished_games": unfinished,
        "turns_limit": TURNS_LIMIT,
        "peak_rss_mb": peak_rss_mb(),
        "seconds": elapsed,
        "seed": args.seed,
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
