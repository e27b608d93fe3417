"""Play N fastcatan games with 4 uniformly random players, driven from Python, and print one
JSON object.

Run by the interpreter of a Python >= 3.12 venv that has fastcatan installed (fastcatan needs
3.12; hexlog's venv is 3.11, and neither imports the other):

    python3.12 -m venv benchmarks/.venv-fastcatan
    benchmarks/.venv-fastcatan/bin/pip install fastcatan==2.0.0
    benchmarks/.venv-fastcatan/bin/python benchmarks/fastcatan_runner.py --games 200

The loop is the one `hexlog bench engine` runs with its random bots: ask the engine for the
legal moves (`Env.legal_actions()`), pick one with `random.choice`, apply it (`Env.step`),
until the game ends. fastcatan's core is C++; only this loop is Python. A game still running
after --max-steps decisions counts as unfinished (hexlog stops at 2000 turns).

Prints: engine, version, games, games_per_s, decisions_per_s, decisions_per_game,
unfinished_games, seconds.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-steps", type=int, default=200_000)
    args = parser.parse_args()

    import fastcatan

    env = fastcatan.Env()
    decisions = unfinished = 0
    start = time.perf_counter()
    for g in range(args.games):
        rng = random.Random(args.seed * 1000 + g)
        env.reset(args.seed * 1000 + g)
        done = bool(env.done)
        steps = 0
        while not done and steps < args.max_steps:
            done = env.step(rng.choice(env.legal_actions()))
            steps += 1
        decisions += steps
        unfinished += not done
    elapsed = time.perf_counter() - start
    print(json.dumps({
        "engine": "fastcatan", "version": fastcatan.__version__, "python": sys.version.split()[0],
        "games": args.games, "games_per_s": args.games / elapsed,
        "decisions_per_s": decisions / elapsed, "decisions_per_game": decisions / args.games,
        "unfinished_games": unfinished, "seconds": elapsed,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
