"""Instructions per random base game, counted by valgrind's callgrind: a repeatable measure.

Games per second on a shared machine move by ±30 % with the other jobs' load; an instruction
count does not (the same build, seed and hash seed give the same count whatever else runs).
This runs `hexlog bench engine` under callgrind twice, with `--games small` and `--games
large`, and divides the difference by the extra games, so the start-up (imports, the ruleset's
assembly) drops out.

    python benchmarks/instructions.py                      # the build this checkout runs
    python benchmarks/instructions.py --interpreted        # HEXLOG_ENGINE=interpreted
    python benchmarks/instructions.py --small 10 --large 50

Needs valgrind (Debian's package). It runs the games about 50 times slower than normal: the
defaults take about two minutes.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOTALS = re.compile(r"^(?:summary|totals):\s+(\d+)", re.MULTILINE)


def instructions(games: int, interpreted: bool) -> int:
    env = dict(os.environ, PYTHONHASHSEED="0")  # set and dict order fixed: the same count
    if interpreted:
        env["HEXLOG_ENGINE"] = "interpreted"
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable,
             "-m", "services.cli.main", "bench", "engine", "--games", str(games), "--json"],
            env=env, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        found = TOTALS.search(out.read_text(encoding="utf-8", errors="replace"))
    if found is None:
        raise SystemExit("callgrind wrote no instruction total")
    return int(found.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=10, help="games of the first run")
    parser.add_argument("--large", type=int, default=50, help="games of the second run")
    parser.add_argument("--interpreted", action="store_true",
                        help="count the interpreted engine even where a compiled build exists")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    if not 0 < args.small < args.large:
        print("--small must be at least 1 and below --large", file=sys.stderr)
        return 2
    small = instructions(args.small, args.interpreted)
    large = instructions(args.large, args.interpreted)
    from services.rules.build import engine_build

    build = "interpreted" if args.interpreted else engine_build()
    per_game = (large - small) / (args.large - args.small)
    print(f"{build}: {per_game / 1e6:.2f} M instructions per random 4-seat base game "
          f"({args.small} games: {small:,}; {args.large} games: {large:,})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
