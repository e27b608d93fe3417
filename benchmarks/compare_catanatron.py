"""Compare hexlog's engine with catanatron, in one run: 4 uniformly random players each.

    .venv/bin/python benchmarks/compare_catanatron.py --games 200
    .venv/bin/python benchmarks/compare_catanatron.py --games 200 --catanatron-python PATH --json
    .venv/bin/python benchmarks/compare_catanatron.py --games 200 --hexlog-rev HEAD

hexlog is measured by its own CLI, `hexlog bench engine --games N --json`, in a subprocess
(from the working tree, or with --hexlog-rev from a revision exported by `git archive`).
catanatron is measured by benchmarks/catanatron_runner.py, in a subprocess run by the python
of a separate venv that has catanatron installed: without --catanatron-python that venv is
created (or reused) in --setup-venv DIR (default benchmarks/.venv-catanatron) with
`pip install catanatron==3.2.1 psutil`. Neither this script nor hexlog imports catanatron.

The engines run alternately, --rounds times each (hexlog first in odd rounds, catanatron
first in even ones), on the same seeds every round; the table gives medians over the rounds
and the ratios hexlog/catanatron. Memory comes from ru_maxrss (peak RSS) of three kinds of
process per engine: one that only gets ready to play (imports; for hexlog, also builds the
CLI's parser), one that plays 1 game and one that plays N games. The 1-game process is the
N-game process stopped after its first game (same seed), so peak(1) - baseline is what the
first game adds and (peak(N) - peak(1)) / (N - 1) what each further game adds to the peak.
The baseline and 1-game processes run --probes times per round, since ru_maxrss of identical
processes varies by 0.1-0.2 MB.

See benchmarks/README.md for the method and the figures.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import platform
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
RUNNER = HERE / "catanatron_runner.py"
HEXLOG_PACKAGES = ("services", "bots", "events")
DEFAULT_VENV = HERE / ".venv-catanatron"
CATANATRON_VERSION = "3.2.1"

# Targets: hexlog/catanatron ratios.
TARGET_DECISIONS = 3.0  # decisions/s at least 3x
TARGET_GAMES = 1.0  # games/s no lower
TARGET_MEMORY = 1.0  # memory no worse

# The baseline process for hexlog: what `hexlog bench engine` does before its first game
# (build the CLI's parser, which imports every subcommand's module, and import the bench).
HEXLOG_BASELINE = (
    "import json, resource, services.cli.main, services.cli.bench; "
    "services.cli.main.build_parser(); "
    "print(json.dumps({'peak_rss_mb': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss "
    "/ 1024.0}))"
)
HEXLOG_CLI = "import sys; from services.cli.main import run; sys.argv[0] = 'hexlog'; run()"


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def run_json(cmd: list[str], cwd: Path = REPO) -> dict[str, Any]:
    """Run a command that prints one JSON object on its last stdout line."""
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)  # each interpreter sees only its own venv (and, for hexlog, cwd)
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"command failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr}")
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]
    return json.loads(lines[-1])


def default_hexlog_python() -> str:
    venv = REPO / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


def installed_catanatron(python: str) -> str | None:
    code = "import importlib.metadata as m; print(m.version('catanatron'))"
    proc = subprocess.run([python, "-c", code], capture_output=True, text=True)
    return proc.stdout.strip() if proc.returncode == 0 else None


def setup_venv(venv: Path, base_python: str) -> str:
    """Create (or reuse) a venv with catanatron==3.2.1 and psutil; return its python."""
    python = venv / "bin" / "python"
    if python.exists() and installed_catanatron(str(python)) == CATANATRON_VERSION:
        log(f"reusing {venv} (catanatron {CATANATRON_VERSION})")
        return str(python)
    log(f"creating {venv} with catanatron=={CATANATRON_VERSION} psutil ...")
    # `<hexlog venv python> -m venv` bases the new venv on the same CPython as hexlog's venv.
    subprocess.run([base_python, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--upgrade", "pip"], check=True)
    subprocess.run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--quiet",
            f"catanatron=={CATANATRON_VERSION}",
            "psutil",
        ],
        check=True,
    )
    return str(python)


class Hexlog:
    """Where hexlog's code is imported from: the working tree (default), or a committed
    revision exported with `git archive` (--hexlog-rev), which edits in progress cannot touch.
    The subprocess runs with that directory as cwd, which `python -c` puts first on sys.path."""

    src: Path = REPO
    rev: str | None = None


def hexlog_bench(python: str, games: int, seed: int) -> dict[str, Any]:
    cmd = [
        python,
        "-c",
        HEXLOG_CLI,
        "bench",
        "engine",
        "--games",
        str(games),
        "--seats",
        "4",
        "--seed",
        str(seed),
        "--json",
    ]
    return run_json(cmd, cwd=Hexlog.src)


def catanatron_bench(python: str, games: int, seed: int) -> dict[str, Any]:
    return run_json([python, str(RUNNER), "--games", str(games), "--seed", str(seed)])


def measure(engine: str, python: str, games: int, seed: int, probes: int) -> dict[str, Any]:
    """One round for one engine: the N-game run, then the memory probes.

    ru_maxrss of identical processes varies by ~0.1-0.2 MB (address-space layout, allocator), so
    the baseline and 1-game processes are each run `probes` times per round."""
    bench = hexlog_bench if engine == "hexlog" else catanatron_bench
    t = time.perf_counter()
    main = bench(python, games, seed)
    main["wall_s"] = time.perf_counter() - t
    ones, bases = [], []
    for _ in range(probes):
        ones.append(bench(python, 1, seed)["peak_rss_mb"])
        if engine == "hexlog":
            bases.append(run_json([python, "-c", HEXLOG_BASELINE], cwd=Hexlog.src)["peak_rss_mb"])
        else:
            bases.append(catanatron_bench(python, 0, seed)["peak_rss_mb"])
    return {"run": main, "peak_rss_1_game_mb": ones, "peak_rss_baseline_mb": bases}


def summarise(rounds: list[dict[str, Any]], games: int) -> dict[str, Any]:
    def med(values: list[float]) -> float:
        return statistics.median(values)

    runs = [r["run"] for r in rounds]
    peak_n = med([r["peak_rss_mb"] for r in runs])
    ones = [x for r in rounds for x in r["peak_rss_1_game_mb"]]
    bases = [x for r in rounds for x in r["peak_rss_baseline_mb"]]
    peak_1 = med(ones)
    base = med(bases)
    return {
        "games": games,
        "games_per_s": med([r["games_per_s"] for r in runs]),
        "decisions_per_s": med([r["decisions_per_s"] for r in runs]),
        "decisions_per_game": med([r["decisions_per_game"] for r in runs]),
        "unfinished_games": max(r["unfinished_games"] for r in runs),
        "seconds": med([r["seconds"] for r in runs]),
        "peak_rss_mb": peak_n,
        "peak_rss_1_game_mb": peak_1,
        "peak_rss_baseline_mb": base,
        "first_game_mb": peak_1 - base,
        "growth_per_game_kb": (peak_n - peak_1) * 1024.0 / (games - 1) if games > 1 else None,
        "above_baseline_per_game_kb": (peak_n - base) * 1024.0 / games,
        "per_round": {
            "games_per_s": [r["games_per_s"] for r in runs],
            "decisions_per_s": [r["decisions_per_s"] for r in runs],
            "peak_rss_mb": [r["peak_rss_mb"] for r in runs],
        },
        "probes": {"peak_rss_1_game_mb": ones, "peak_rss_baseline_mb": bases},
    }


def ratio(a: float | None, b: float | None) -> float | None:
    if a is None or b is None or b == 0:
        return None
    return a / b


def machine() -> dict[str, Any]:
    cpu = platform.processor() or ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass

    def git(*args: str) -> str:
        proc = subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True)
        return proc.stdout.strip()

    info: dict[str, Any] = {
        "cpus": os.cpu_count(),
        "cpu": cpu,
        "platform": platform.platform(),
        "hexlog_source": "working tree" if Hexlog.rev is None else f"git archive {Hexlog.rev}",
        "hexlog_commit": git("rev-parse", "--short", Hexlog.rev or "HEAD"),
        "hexlog_tree_dirty": False,
        "hexlog_code_sha1": code_fingerprint(Hexlog.src),
    }
    if Hexlog.rev is None:
        info["hexlog_tree_dirty"] = bool(git("status", "--porcelain", "--", *HEXLOG_PACKAGES))
    return info


def code_fingerprint(src: Path) -> str:
    """sha1 of every file of hexlog's packages (tracked or not) as measured: it names the code
    a run measured, and tells whether it changed during the run."""
    h = hashlib.sha1()
    for pkg in HEXLOG_PACKAGES:
        for f in sorted((src / pkg).rglob("*")):
            if f.is_file() and "__pycache__" not in f.parts:
                h.update(f.relative_to(src).as_posix().encode() + b"\0")
                try:
                    h.update(f.read_bytes())
                except OSError:  # deleted while we looked: a change all the same
                    h.update(b"<gone>")
    return h.hexdigest()[:12]


def export_rev(rev: str, into: Path) -> None:
    """Export hexlog's packages at `rev` into `into` (no change to the repository)."""
    archive = subprocess.run(
        ["git", "archive", "--format=tar", rev, *HEXLOG_PACKAGES],
        cwd=REPO,
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")


def compare(args: argparse.Namespace) -> dict[str, Any]:
    hexlog_python = args.hexlog_python or default_hexlog_python()
    if args.catanatron_python:
        cat_python = args.catanatron_python
        version = installed_catanatron(cat_python)
        if version is None:
            raise SystemExit(f"{cat_python} cannot import catanatron")
        if version != CATANATRON_VERSION:
            log(f"warning: {cat_python} has catanatron {version}, not {CATANATRON_VERSION}")
    else:
        cat_python = setup_venv(Path(args.setup_venv), hexlog_python)
    # The separation the comparison relies on: hexlog's interpreter cannot see catanatron.
    leak = subprocess.run(
        [hexlog_python, "-c", "import importlib.util as u; print(u.find_spec('catanatron'))"],
        cwd=Hexlog.src,
        capture_output=True,
        text=True,
    ).stdout.strip()
    if leak != "None":
        raise SystemExit(f"catanatron is importable by hexlog's interpreter ({leak}): refusing")

    pythons = {"hexlog": hexlog_python, "catanatron": cat_python}
    before = machine()
    rounds: dict[str, list[dict[str, Any]]] = {"hexlog": [], "catanatron": []}
    for r in range(args.rounds):
        order = ["hexlog", "catanatron"] if r % 2 == 0 else ["catanatron", "hexlog"]
        for engine in order:
            log(f"round {r + 1}/{args.rounds}: {engine}, {args.games} games ...")
            m = measure(engine, pythons[engine], args.games, args.seed, args.probes)
            run = m["run"]
            log(
                f"  {run['games_per_s']:.1f} games/s, {run['decisions_per_s']:.0f} decisions/s, "
                f"peak RSS {run['peak_rss_mb']:.1f} MB"
            )
            rounds[engine].append(m)

    after = machine()
    # hexlog's engine is measured from the working tree: flag edits made while this ran.
    after["hexlog_tree_changed_during_run"] = (
        before["hexlog_code_sha1"] != after["hexlog_code_sha1"]
    )
    hexlog = summarise(rounds["hexlog"], args.games)
    cat = summarise(rounds["catanatron"], args.games)
    cat["version"] = rounds["catanatron"][0]["run"]["version"]
    ratios = {
        "decisions_per_s": ratio(hexlog["decisions_per_s"], cat["decisions_per_s"]),
        "games_per_s": ratio(hexlog["games_per_s"], cat["games_per_s"]),
        "peak_rss_mb": ratio(hexlog["peak_rss_mb"], cat["peak_rss_mb"]),
        "above_baseline_per_game_kb": ratio(
            hexlog["above_baseline_per_game_kb"], cat["above_baseline_per_game_kb"]
        ),
        "growth_per_game_kb": ratio(hexlog["growth_per_game_kb"], cat["growth_per_game_kb"]),
        "decisions_per_game": ratio(hexlog["decisions_per_game"], cat["decisions_per_game"]),
    }
    # Memory per game "no worse": the N-game process peaks no higher, and each game after the
    # first adds no more to that peak than a catanatron game does.
    memory_ok = (
        hexlog["peak_rss_mb"] <= cat["peak_rss_mb"] * TARGET_MEMORY
        and hexlog["growth_per_game_kb"] <= cat["growth_per_game_kb"] * TARGET_MEMORY
    )
    targets = {
        "decisions_per_s_ratio_at_least": TARGET_DECISIONS,
        "decisions_per_s_met": ratios["decisions_per_s"] is not None
        and ratios["decisions_per_s"] >= TARGET_DECISIONS,
        "games_per_s_ratio_at_least": TARGET_GAMES,
        "games_per_s_met": ratios["games_per_s"] is not None
        and ratios["games_per_s"] >= TARGET_GAMES,
        "memory_ratio_at_most": TARGET_MEMORY,
        "memory_met": memory_ok,
    }
    targets["all_met"] = all(
        targets[k] for k in ("decisions_per_s_met", "games_per_s_met", "memory_met")
    )
    return {
        "command": " ".join([Path(sys.argv[0]).as_posix(), *sys.argv[1:]]),
        "date": time.strftime("%Y-%m-%d"),
        "games": args.games,
        "seats": 4,
        "rounds": args.rounds,
        "seed": args.seed,
        "probes": args.probes,
        "machine": after,
        "pythons": pythons,
        "hexlog": hexlog,
        "catanatron": cat,
        "ratios": ratios,
        "targets": targets,
    }


def fmt_ratio(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.2f}x"


def format_table(res: dict[str, Any]) -> str:
    h, c, q, t = res["hexlog"], res["catanatron"], res["ratios"], res["targets"]
    m = res["machine"]

    def verdict(ok: bool) -> str:
        return "met" if ok else "NOT MET"

    rows = [
        (
            "decisions/s",
            f"{h['decisions_per_s']:,.0f}",
            f"{c['decisions_per_s']:,.0f}",
            fmt_ratio(q["decisions_per_s"]),
            f">= {TARGET_DECISIONS:g}x  {verdict(t['decisions_per_s_met'])}",
        ),
        (
            "games/s",
            f"{h['games_per_s']:.1f}",
            f"{c['games_per_s']:.1f}",
            fmt_ratio(q["games_per_s"]),
            f">= {TARGET_GAMES:g}x  {verdict(t['games_per_s_met'])}",
        ),
        (
            "decisions/game",
            f"{h['decisions_per_game']:.1f}",
            f"{c['decisions_per_game']:.1f}",
            fmt_ratio(q["decisions_per_game"]),
            "",
        ),
        ("unfinished games", str(h["unfinished_games"]), str(c["unfinished_games"]), "", ""),
        (
            f"peak RSS, {res['games']}-game process MB",
            f"{h['peak_rss_mb']:.1f}",
            f"{c['peak_rss_mb']:.1f}",
            fmt_ratio(q["peak_rss_mb"]),
            f"<= {TARGET_MEMORY:g}x  {verdict(t['memory_met'])}",
        ),
        (
            "  import baseline MB",
            f"{h['peak_rss_baseline_mb']:.1f}",
            f"{c['peak_rss_baseline_mb']:.1f}",
            "",
            "",
        ),
        ("  first game MB", f"{h['first_game_mb']:.2f}", f"{c['first_game_mb']:.2f}", "", ""),
        (
            "  each further game KB",
            f"{h['growth_per_game_kb']:.1f}",
            f"{c['growth_per_game_kb']:.1f}",
            fmt_ratio(q["growth_per_game_kb"]),
            f"<= {TARGET_MEMORY:g}x  (part of the memory target)",
        ),
        (
            "  (peak - baseline) / games KB",
            f"{h['above_baseline_per_game_kb']:.1f}",
            f"{c['above_baseline_per_game_kb']:.1f}",
            fmt_ratio(q["above_baseline_per_game_kb"]),
            "info only",
        ),
    ]
    head = ("", "hexlog", f"catanatron {c['version']}", "hexlog/cat.", "target")
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(5)]
    out = [
        f"hexlog vs catanatron: {res['games']} games x {res['rounds']} interleaved rounds, "
        f"4 uniformly random players, medians",
        f"machine: {m['cpus']} CPUs, {m['cpu']}; hexlog {m['hexlog_commit']}"
        + (f" ({m['hexlog_source']})" if m["hexlog_source"] != "working tree" else "")
        + (" + uncommitted changes" if m["hexlog_tree_dirty"] else "")
        + f"; code sha1 {m['hexlog_code_sha1']}",
        "",
    ]
    for r in [head, *rows]:
        out.append(
            "  ".join(
                [r[0].ljust(widths[0])] + [r[i].rjust(widths[i]) for i in range(1, 4)] + [r[4]]
            ).rstrip()
        )
    out.append("")
    out.append(
        "per round, decisions/s: hexlog "
        + ", ".join(f"{x:,.0f}" for x in h["per_round"]["decisions_per_s"])
        + "; catanatron "
        + ", ".join(f"{x:,.0f}" for x in c["per_round"]["decisions_per_s"])
    )
    if m.get("hexlog_tree_changed_during_run"):
        out.append(
            "WARNING: hexlog's code changed during the run; the rounds measured different code"
        )
    out.append("targets " + ("all met" if t["all_met"] else "NOT all met"))
    return "\n".join(out)


def run(args: argparse.Namespace) -> dict[str, Any]:
    if args.hexlog_rev is None:
        return compare(args)
    with tempfile.TemporaryDirectory(prefix="hexlog-rev-") as tmp:
        export_rev(args.hexlog_rev, Path(tmp))
        Hexlog.src, Hexlog.rev = Path(tmp), args.hexlog_rev
        try:
            return compare(args)
        finally:
            Hexlog.src, Hexlog.rev = REPO, None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="hexlog's engine vs catanatron, random players, same run."
    )
    parser.add_argument("--games", type=int, default=200, help="games per run (default 200)")
    parser.add_argument("--rounds", type=int, default=3, help="runs per engine (default 3)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--probes", type=int, default=3, help="baseline and 1-game processes per round (default 3)"
    )
    parser.add_argument(
        "--catanatron-python",
        metavar="PATH",
        help="python of a venv with catanatron (default: set one up)",
    )
    parser.add_argument(
        "--setup-venv",
        metavar="DIR",
        default=str(DEFAULT_VENV),
        help="venv to create/reuse when no --catanatron-python "
        "(default benchmarks/.venv-catanatron)",
    )
    parser.add_argument(
        "--hexlog-python", metavar="PATH", help="python of hexlog's venv (default .venv/bin/python)"
    )
    parser.add_argument(
        "--hexlog-rev",
        metavar="REV",
        help="measure hexlog at this git revision (exported with git archive) instead of the "
        "working tree",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.games < 2 or args.rounds < 1 or args.probes < 1:
        parser.error("need --games >= 2, --rounds >= 1 and --probes >= 1")
    res = run(args)
    print(json.dumps(res) if args.json else format_table(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
