"""Engine rates of every scenario alone and with every variant it combines with, each next to
the base game measured just before it (so a busy machine moves both alike), as a Markdown table.

    .venv/bin/python benchmarks/scenario_rates.py [--games 60] > benchmarks/SCENARIOS.md

Each row is one `hexlog bench engine --games N --json [--scenario S] [--variant V]` run in a
subprocess (random bots, in-process, one thread); refused combinations are listed with the reason
`hexlog rulesets` gives.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from events.events import ModuleSpec
from services.rules.engine.modules import MODULES, RulesetError, check_combination

HEXLOG = str(Path(sys.executable).parent / "hexlog")
VARIANTS = ("friendly-robber", "event-cards", "harbormaster", "catan-for-two")


def bench(games: int, *args: str) -> dict[str, Any]:
    out = subprocess.run([HEXLOG, "bench", "engine", "--games", str(games), "--json", *args],
                         capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=60)
    args = parser.parse_args()
    scenarios = sorted(n for n, m in MODULES.items() if m.kind == "scenario")
    print("| scenario | variant | seats | games/s | decisions/s | × base decisions/s | "
          "decisions/game | no winner |")
    print("|---|---|---|---|---|---|---|---|")
    refused: list[str] = []
    for scenario in scenarios:
        for variant in (None, *VARIANTS):
            specs = (ModuleSpec(name=scenario), *([ModuleSpec(name=variant)] if variant else []))
            seats = 2 if variant == "catan-for-two" else max(MODULES[scenario].seats)
            try:
                check_combination(specs, seats)
            except RulesetError as exc:
                refused.append(f"- {scenario} + {variant}: {exc}")
                continue
            base = bench(args.games, "--seats", str(seats))
            row = bench(args.games, "--scenario", scenario, *(["--variant", variant] if variant else []))
            ratio = row["decisions_per_s"] / base["decisions_per_s"]
            print(f"| {scenario} | {variant or '–'} | {seats} | {row['games_per_s']:.1f} | "
                  f"{row['decisions_per_s']:,.0f} | {ratio:.2f} | {row['decisions_per_game']:,.0f} | "
                  f"{row['unfinished_games']} of {row['games']} |", flush=True)
    print()
    print("Refused (never played):")
    print("\n".join(refused))


if __name__ == "__main__":
    main()
