"""How fast a board picture is made: SVG (services/render/svg.py) and PNG from it (cairosvg),
for every version of one recorded 4-seat game, as a spectator sees it.

    .venv/bin/python benchmarks/render.py [--games 3] [--json]

A chat adapter posts a picture after every move, so the goal is ≤ 5 ms per SVG and ≤ 50 ms
per PNG on this machine. Two PNG paths are timed: one picture from scratch (`hexlog render`) and
the per-move painter a chat adapter uses (`MovePainter`: the terrain rasterised once per game). The fold to each version is not counted (a live service holds the
state already).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from bots.local import play
from bots.registry import make_bot
from services.render.picture import MovePainter, to_png
from services.render.svg import board_svg
from services.rules.engine import evolve, initial_state, new_game, view
from services.rules.engine.chance import SeededDealer


def measure(games: int, png_every: int) -> dict[str, Any]:
    svg_ms: list[float] = []
    png_ms: list[float] = []
    move_ms: list[float] = []
    sizes: list[int] = []
    for g in range(games):
        seed = f"render-bench-{g}".encode()
        created = new_game(f"g-{g}", 4, seed)
        log = play(created, [make_bot(b, 0) for b in ("heuristic", "random") * 2],
                   SeededDealer(seed)).log
        state = initial_state(created)
        painter = MovePainter()
        for i, event in enumerate(log[1:], start=1):
            evolve(state, event)
            seen = view(state, None)
            t = time.perf_counter()
            svg = board_svg(state, seen, title=f"g-{g}")
            svg_ms.append((time.perf_counter() - t) * 1000)
            sizes.append(len(svg))
            if i % png_every == 0:
                t = time.perf_counter()
                to_png(svg)
                png_ms.append((time.perf_counter() - t) * 1000)
                t = time.perf_counter()
                painter.png(state, seen, title=f"g-{g}")
                move_ms.append((time.perf_counter() - t) * 1000)
    return {
        "pictures": len(svg_ms),
        "svg_ms_median": statistics.median(svg_ms),
        "svg_ms_p99": sorted(svg_ms)[int(len(svg_ms) * 0.99)],
        "svg_kib_median": statistics.median(sizes) / 1024,
        "pngs": len(png_ms),
        "png_ms_median": statistics.median(png_ms),
        "png_ms_p99": sorted(png_ms)[int(len(png_ms) * 0.99)],
        "move_png_ms_median": statistics.median(move_ms),
        "move_png_ms_p99": sorted(move_ms)[int(len(move_ms) * 0.99)],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--png-every", type=int, default=10, help="a PNG every N versions")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    to_png(board_svg(initial_state(new_game("warm", 4, b"w")), view(initial_state(
        new_game("warm", 4, b"w")), None)))  # cairo's first call loads fonts: not counted
    r = measure(args.games, args.png_every)
    if args.json:
        print(json.dumps(r))
        return
    print(f"{r['pictures']} SVGs: median {r['svg_ms_median']:.2f} ms, p99 {r['svg_ms_p99']:.2f} ms, "
          f"{r['svg_kib_median']:.1f} KiB")
    print(f"{r['pngs']} PNGs from scratch: median {r['png_ms_median']:.1f} ms, "
          f"p99 {r['png_ms_p99']:.1f} ms")
    print(f"{r['pngs']} PNGs per move (terrain drawn once): median {r['move_png_ms_median']:.1f} ms, "
          f"p99 {r['move_png_ms_p99']:.1f} ms")


if __name__ == "__main__":
    main()
