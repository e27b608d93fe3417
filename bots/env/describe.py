"""Print the action space and the observation layout of a ruleset (docs/rl.md):

    python -m bots.env.describe                       # the base game
    python -m bots.env.describe --scenario fishermen --variant harbormaster --actions
"""

from __future__ import annotations

import argparse

from bots.env.config import GameConfig
from bots.env.match import Setup


def describe(setup: Setup, actions: bool = False) -> str:
    space, layout = setup.space, setup.layout
    lines = [f"modules: {', '.join(space.modules) or 'none (the base game)'}",
             f"action space: {space.n} ids, digest {space.digest}",
             f"observation: {layout.size} numbers"]
    for name, s in layout.sections.items():
        shape = f"{s.rows} x {s.width}" if s.rows > 1 or name == "players" else f"{s.width}"
        lines.append(f"  {name:<9} [{s.start}:{s.stop}]  {shape}")
    for key, f in layout.module_features:
        where = f"{f.kind} channel x{f.channels}" if f.kind else f"ext [{f.col}:{f.col + f.columns}]"
        lines.append(f"    {key}.{f.path}: {type(f).__name__}, {where}")
    lines.append("blocks (first id, ids, first label):")
    for b in space.blocks:
        lines.append(f"  {b.offset:>5} {b.size:>5}  {space.label(b.offset)}")
    if actions:
        lines.extend(f"{a:>5} {label}" for a, label in enumerate(space.labels()))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description="the action space and observation of a ruleset")
    p.add_argument("--scenario", default=None)
    p.add_argument("--variant", action="append", default=[])
    p.add_argument("--seats", type=int, default=4)
    p.add_argument("--trade-offers", action="store_true")
    p.add_argument("--actions", action="store_true", help="list every id with its label")
    args = p.parse_args(argv)
    config = GameConfig.of(args.scenario, args.variant, args.seats)
    print(describe(Setup(config, args.trade_offers), args.actions))


if __name__ == "__main__":
    main()
