"""Two revisions of hexlog through `hexlog bench e2e`, in one run, interleaved.

    .venv/bin/python benchmarks/compare_e2e.py BEFORE AFTER [MORE…] --rounds 3 -- --games 32

BEFORE and AFTER are git revisions (a commit, a tag, HEAD~1; more may follow, each against
the first; every one must have bench e2e's CPU figures), or folders holding a tree as it is
(a worktree with uncommitted changes, its engine built or not: used as found). Each is unpacked from git
(`git archive`, nothing of the working tree) into a temporary folder, and each measurement is
`python -m services.cli.main bench e2e --json [options after --]` with that folder first on
PYTHONPATH (the services the benchmark starts inherit it, so they run the same revision), on a
Valkey of its own. They alternate within every round (in the order given in odd rounds, the
other way in even ones), so a loaded machine slows them alike; the table gives medians over
the rounds of the rate, p99, and the CPU seconds per 1,000 commands of each kind of process
(services/cli/bench_cost.py), each against the first; then, for rules and bots, the median of
each round's own ratio against the first (paired: a round's revisions run under much the same
load, while the load may differ several-fold between rounds).

The table also gives each revision's median share of the Lua-append ceiling (`of_ceiling`,
measured in each run before and after its games; "-" for a revision whose bench e2e does not
report it). `--json FILE` writes every run's figures there.

With --compiled, each tree's engine is built with mypyc first (its own scripts/build_engine.py
--require, a few minutes each), as `make` installs it: the figures a default install gives.
Without it the engines run interpreted.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
KINDS = ("rules", "bots", "valkey", "projections")


def unpack(rev: str, into: Path) -> str:
    """The revision's tree in `into`; returns its short commit id."""
    commit = subprocess.run(["git", "rev-parse", "--short", rev], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.strip()
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", "--format=tar", commit], cwd=ROOT, check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return commit


def build(tree: Path) -> None:
    """The tree's engine compiled in place, or SystemExit."""
    print(f"building the compiled engine in {tree.name} ...", file=sys.stderr)
    run = subprocess.run([sys.executable, "scripts/build_engine.py", "--require"], cwd=tree,
                         env=dict(os.environ, PYTHONPATH=str(tree)), capture_output=True,
                         text=True)
    if run.returncode:
        raise SystemExit(f"the compiled build failed in {tree.name}: {run.stderr[-2000:]}")


def engine_build(tree: Path) -> str:
    """"compiled" or "interpreted": what the tree's services will run."""
    run = subprocess.run([sys.executable, "-c", "from services.rules.build import engine_build; "
                          "print(engine_build())"], cwd=tree, capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=str(tree)), check=True)
    return run.stdout.strip()


def bench(tree: Path, options: list[str], compiled: bool) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    env.pop("HEXLOG_ENGINE", None)
    if not compiled:
        env["HEXLOG_ENGINE"] = "interpreted"
    env.pop("REDIS_URL", None)  # a Valkey of its own each time
    run = subprocess.run([sys.executable, "-m", "services.cli.main", "bench", "e2e", "--json",
                          *options], cwd=tree, env=env, capture_output=True, text=True)
    if run.returncode:
        raise SystemExit(f"bench e2e failed in {tree.name}: {run.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(run.stdout)
    return result


def row(results: list[dict[str, Any]]) -> dict[str, float]:
    def median(f: Any) -> float:
        return float(statistics.median(f(r) for r in results))

    out = {"commands_per_s": median(lambda r: r["commands_per_s"]),
           "latency_p99_ms": median(lambda r: r["latency_p99_ms"]),
           "rules_and_bots": median(lambda r: r["cpu_s_per_1000_commands_rules_and_bots"])}
    for kind in KINDS:
        out[kind] = median(lambda r, k=kind: r["cpu_s_per_1000_commands"].get(k, 0.0))
    shares = [float(r["of_ceiling"]) for r in results if "of_ceiling" in r]
    out["of_ceiling"] = statistics.median(shares) if shares else 0.0
    return out


def cell(value: float, base: float) -> str:
    """A column of the table: the value against the first revision's ("-": not reported)."""
    if not value:
        return f"{'-':>16}"
    return f"{value:9.3f} ({value / base:4.2f}x)" if base else f"{value:16.3f}"


PAIRED = ("rules", "bots", "rules_and_bots")


def paired(base: list[dict[str, Any]], other: list[dict[str, Any]], column: str) -> list[float]:
    """Each round's CPU per 1,000 commands of `column` against the first revision's."""
    def cpu(r: dict[str, Any]) -> float:
        if column == "rules_and_bots":
            return float(r["cpu_s_per_1000_commands_rules_and_bots"])
        return float(r["cpu_s_per_1000_commands"].get(column, 0.0))

    return [cpu(o) / cpu(b) for b, o in zip(base, other, strict=True) if cpu(b)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("revisions", nargs="+", help="two or more git revisions, the first "
                        "the baseline; bench e2e's options after --")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--compiled", action="store_true",
                        help="build each revision's engine with mypyc and measure that")
    parser.add_argument("--json", type=Path, metavar="FILE",
                        help="write every run's figures there: a list, a revision's runs "
                        "in each item, in the order given")
    args, options = parser.parse_known_args()
    options = [o for o in options if o != "--"]
    if len(args.revisions) < 2:
        parser.error("two revisions at least")
    folder = Path(tempfile.mkdtemp(prefix="compare-e2e-"))
    try:
        sides = [f"{i}" for i in range(len(args.revisions))]
        trees = {side: Path(rev) if Path(rev).is_dir() else folder / side
                 for side, rev in zip(sides, args.revisions, strict=True)}
        names = {side: Path(rev).name if Path(rev).is_dir() else unpack(rev, trees[side])
                 for side, rev in zip(sides, args.revisions, strict=True)}
        if args.compiled:
            for side, tree in trees.items():
                if not Path(args.revisions[int(side)]).is_dir():
                    build(tree)
                if engine_build(tree) != "compiled":  # (a stale build runs the source)
                    raise SystemExit(f"--compiled: the engine of {names[side]} is not compiled "
                                     "(or older than its source): build it first")
        results: dict[str, list[dict[str, Any]]] = {side: [] for side in sides}
        load = [os.getloadavg()[0]]
        for i in range(args.rounds):
            for side in sides if i % 2 == 0 else sides[::-1]:
                print(f"round {i + 1} of {args.rounds}: {names[side]}", file=sys.stderr)
                results[side].append(bench(trees[side], options, args.compiled))
        load.append(os.getloadavg()[0])
        rows = {side: row(rs) for side, rs in results.items()}
        columns = ["commands_per_s", "latency_p99_ms", "rules", "bots", "rules_and_bots",
                   "valkey", "projections", "of_ceiling"]
        base = rows[sides[0]]
        print(f"bench e2e {' '.join(options)}, engines "
              f"{'compiled' if args.compiled else 'interpreted'}: medians of {args.rounds} rounds, alternated "
              f"(load average {load[0]:.1f} at the start, {load[1]:.1f} at the end); CPU in s "
              f"per 1,000 commands; x: against {names[sides[0]]}")
        print(f"{'':>10}" + "".join(f"{c:>16}" for c in columns))
        for side in sides:
            print(f"{names[side]:>10}" + "".join(cell(rows[side][c], base[c]) for c in columns))
        # The same revisions within one round ran minutes apart, under much the same load; the
        # rounds' loads may differ several-fold (the rate with them). So also each round's own
        # ratio against the first revision, and their median: steadier than a ratio of medians.
        print(f"paired, each round against {names[sides[0]]} (median of the rounds' ratios; "
              f"each round's in brackets):")
        for side in sides[1:]:
            print(f"{names[side]:>10}" + "".join(
                f"  {c} {statistics.median(r):.2f}x [{' '.join(f'{x:.2f}' for x in r)}]"
                for c in PAIRED if (r := paired(results[sides[0]], results[side], c))))
        if args.json:
            args.json.write_text(json.dumps([{"revision": names[side], "runs": results[side]}
                                              for side in sides]))
            print(f"every run's figures: {args.json}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
