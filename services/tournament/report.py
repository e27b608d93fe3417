"""Showing a tournament: the standings table, the files of `--out`, the ratings plot (SVG,
drawn by hand so that no plotting library is needed)."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf")


def table(result: dict[str, Any]) -> str:
    rows = result["standings"]
    forfeits = any(r["forfeits"] for r in rows)
    head = (f"{'#':>2}  {'bot':<14}{'games':>6}{'wins':>6}  {'win rate (95% CI)':<22}"
            f"{'mean VP':>8}{'mu':>8}{'sigma':>7}{'mu-3sigma':>10}")
    if forfeits:
        head += f"{'forfeits':>9}"
    lines = [f"tournament {result['tournament']}: {result['games']} games", "", head]
    for i, r in enumerate(rows, 1):
        lo, hi = r["win_rate_95"]
        line = (f"{i:>2}  {r['bot']:<14}{r['games']:>6}{r['wins']:>6}  "
                f"{r['win_rate'] * 100:5.1f}% [{lo * 100:4.1f}–{hi * 100:4.1f}%]    "
                f"{r['mean_vp']:>8.2f}{r['mu']:>8.2f}{r['sigma']:>7.2f}{r['conservative']:>10.2f}")
        if forfeits:
            line += f"{r['forfeits']:>9}"
        lines.append(line)
    lines.append("")
    lines.append("ordered by the conservative rating mu - 3 sigma (openskill Plackett-Luce)")
    if forfeits:
        lines.append("forfeits: games a bot left for good (its seats were played by default moves "
                     "and ranked last)")
    return "\n".join(lines)


def json_result(result: dict[str, Any]) -> dict[str, Any]:
    return {
        "tournament": result["tournament"],
        "games": result["games"],
        "standings": [
            {k: r[k] for k in ("bot", "games", "wins", "win_rate", "mean_vp", "mu", "sigma",
                               "conservative", "forfeits", "win_rate_95")}
            for r in result["standings"]
        ],
        "game_ids": result["games_ids"],
    }


def write_out(out: Path, result: dict[str, Any], games: list[dict[str, Any]]) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / "standings.json", out / "games.csv", out / "ratings.svg", out / "standings.txt"]
    paths[0].write_text(json.dumps(json_result(result), indent=2) + "\n")
    with paths[1].open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["index", "game_id", "bots", "scores", "winner", "forfeits"])
        for g in games:
            w.writerow([g["index"], g["game_id"], " ".join(g["bots"]),
                        " ".join(map(str, g["scores"])), g["winner"], " ".join(map(str, g["forfeits"]))])
    paths[2].write_text(ratings_svg(result["standings"]))
    paths[3].write_text(table(result) + "\n")
    return paths


def ratings_svg(rows: list[dict[str, Any]], width: int = 720, height: int = 360) -> str:
    """μ of each bot after each game it played, as lines."""
    pad = 48
    series = [(r["bot"], r["history"]) for r in rows if r["history"]]
    n = max((len(h) for _, h in series), default=1)
    values: list[float] = [float(v) for _, h in series for v in h] or [25.0]
    lo, hi = min(values) - 1, max(values) + 1

    def x(i: int) -> float:
        return pad + (width - 2 * pad) * (i / max(1, n - 1))

    def y(v: float) -> float:
        return height - pad - (height - 2 * pad) * ((v - lo) / (hi - lo))

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{pad}" y="20">rating μ over games</text>',
             f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" stroke="#888"/>',
             f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{height - pad}" stroke="#888"/>',
             f'<text x="4" y="{y(hi) + 4:.0f}">{hi:.1f}</text>',
             f'<text x="4" y="{y(lo) + 4:.0f}">{lo:.1f}</text>',
             f'<text x="{width - pad}" y="{height - pad + 16}" text-anchor="end">games played: {n}</text>']
    for k, (bot, hist) in enumerate(series):
        colour = COLOURS[k % len(COLOURS)]
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(hist))
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{points}"/>')
        parts.append(f'<text x="{width - pad + 4}" y="{y(hist[-1]) + 4:.1f}" fill="{colour}">{bot}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
