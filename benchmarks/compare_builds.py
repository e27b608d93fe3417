"""Compare the compiled engine (mypyc) with the interpreted one, in one run, interleaved.

    .venv/bin/python benchmarks/compare_builds.py --games 100 --rounds 3
    .venv/bin/python benchmarks/compare_builds.py --games 40 --rounds 2 --all-modules
    .venv/bin/python benchmarks/compare_builds.py --games 100 --rounds 3 \
        --fastcatan-python benchmarks/.venv-fastcatan/bin/python \
        --catanatron-python benchmarks/.venv-catanatron/bin/python

Each measurement is `hexlog bench engine --games N --json [--scenario X | --variant X]` in a
subprocess: the installed (compiled) build as is, the interpreted one with
HEXLOG_ENGINE=interpreted. The two alternate within every round (compiled first in odd rounds,
interpreted first in even ones), on the same seeds, so a loaded machine slows both alike; the
table gives medians over the rounds, the ratio compiled/interpreted, and the load average seen
before and after. With --fastcatan-python (a Python >= 3.12 with fastcatan installed, see
benchmarks/fastcatan_runner.py), fastcatan driven by the same kind of Python loop runs in each
round of the base game too; with --catanatron-python (catanatron installed, see
benchmarks/catanatron_runner.py) so does catanatron. Needs a compiled build (scripts/build_engine.py); see benchmarks/compiled.md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HEXLOG = str(Path(sys.executable).parent / "hexlog")


def modules() -> list[tuple[str, list[str]]]:
    """(label, hexlog options): the base game, then every variant and scenario."""
    from services.rules.engine.modules import MODULES

    out: list[tuple[str, list[str]]] = [("base", [])]
    for name in sorted(MODULES, key=lambda n: (MODULES[n].kind, n)):
        flag = "--scenario" if MODULES[name].kind == "scenario" else "--variant"
        out.append((name, [flag, name]))
    return out


def bench(options: list[str], games: int, interpreted: bool) -> dict[str, Any]:
    env = dict(os.environ)
    if interpreted:
        env["HEXLOG_ENGINE"] = "interpreted"
    else:
        env.pop("HEXLOG_ENGINE", None)
    run = subprocess.run([HEXLOG, "bench", "engine", "--games", str(games), "--json", *options],
                         env=env, cwd=ROOT, capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(run.stdout)
    return result


def bench_other(runner: str, python: str, games: int) -> dict[str, Any]:
    """Another engine's runner (`benchmarks/<runner>.py`) in its own venv's python."""
    run = subprocess.run([python, str(ROOT / "benchmarks" / f"{runner}.py"),
                          "--games", str(games)], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    result: dict[str, Any] = json.loads(run.stdout)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--all-modules", action="store_true",
                        help="every variant and scenario too (default: the base game only)")
    parser.add_argument("--fastcatan-python", metavar="PATH",
                        help="a python with fastcatan installed: measure it too (base game)")
    parser.add_argument("--catanatron-python", metavar="PATH",
                        help="a python with catanatron installed: measure it too (base game)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    load_before = os.getloadavg()
    for label, options in modules() if args.all_modules else [("base", [])]:
        rates: dict[str, list[float]] = {"compiled": [], "interpreted": []}
        for r in range(args.rounds):
            order = (False, True) if r % 2 == 0 else (True, False)
            for interpreted in order:
                result = bench(options, args.games, interpreted)
                build = "interpreted" if interpreted else "compiled"
                if result["build"] != build:
                    raise SystemExit(f"{label}: asked for the {build} build, ran {result['build']}")
                rates[build].append(result["games_per_s"])
            others = {"fastcatan": ("fastcatan_runner", args.fastcatan_python),
                      "catanatron": ("catanatron_runner", args.catanatron_python)}
            for name, (runner, python) in others.items():
                if label == "base" and python:
                    rates.setdefault(name, []).append(
                        bench_other(runner, python, args.games)["games_per_s"])
        c, i = statistics.median(rates["compiled"]), statistics.median(rates["interpreted"])
        row: dict[str, Any] = {"module": label, "compiled": c, "interpreted": i, "ratio": c / i,
                               "runs": rates}
        line = (f"{label:24} compiled {c:7.1f} games/s  interpreted {i:7.1f} games/s  "
                f"x{c / i:4.2f}")
        for name in ("fastcatan", "catanatron"):
            if name in rates:
                row[name] = f = statistics.median(rates[name])
                line += f"  {name} {f:7.1f} games/s"
        rows.append(row)
        if not args.json:
            print(line, flush=True)
    out = {"games": args.games, "rounds": args.rounds, "load_before": load_before,
           "load_after": os.getloadavg(), "cpus": os.cpu_count(), "rows": rows}
    if args.json:
        print(json.dumps(out))
    else:
        print(f"load average before {load_before[0]:.1f}, after {out['load_after'][0]:.1f} "
              f"({out['cpus']} CPUs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
