"""Showing a tournament: the standings table, the files of `--out`, the ratings plot (SVG,
drawn by hand so that no plotting library is needed; a PNG too when matplotlib is installed)."""

from __future__ import annotations

import csv
import json
from html import escape
from pathlib import Path
from typing import Any

from services.tournament.ratings import binomial_p_value, wilson

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf")
JSON_KEYS = ("bot", "games", "wins", "win_rate", "mean_vp", "mu", "sigma", "conservative",
             "forfeits", "win_rate_95", "refused", "first_refusal")


def head_to_head(result: dict[str, Any]) -> dict[str, Any] | None:
    """With two bots that both played every game (`random,heuristic`: 2 + 2 seats each game):
    who won how many of the decided games, and the exact two-sided binomial p-value of that
    split against 50% (no difference between the bots)."""
    rows = result["standings"]
    if len(rows) != 2 or any(r["games"] != result["games"] for r in rows):
        return None
    pod = result.get("pod") or []
    if pod and len({pod.count(b) for b in pod}) > 1:
        return None  # unequal shares of the seats: `pod_tests` compares each with its share
    a, b = rows
    decided = a["wins"] + b["wins"]
    return {"bots": [a["bot"], b["bot"]], "wins": [a["wins"], b["wins"]], "decided": decided,
            "undecided": result["games"] - decided,
            "p_value": binomial_p_value(a["wins"], decided)}


def pod_tests(result: dict[str, Any]) -> list[dict[str, Any]]:
    """With `--pod`, each bot of the lineup against parity (its share of the seats: 1 seat
    of 4 wins 25% when the bots are equal): its wins, the 95% Wilson interval of its win
    rate, and the exact two-sided binomial p-value against parity."""
    pod = result.get("pod") or []
    out = []
    for row in result["standings"]:
        seats = pod.count(row["bot"])
        if not seats:
            continue
        games, wins = row["games"], row["wins"]
        parity = seats / len(pod)
        lo, hi = wilson(wins, games)
        out.append({"bot": row["bot"], "seats": seats, "games": games, "wins": wins,
                    "win_rate": wins / games if games else 0.0, "win_rate_95": [lo, hi],
                    "parity": parity, "p_value": binomial_p_value(wins, games, parity)})
    return out


def table(result: dict[str, Any]) -> str:
    from services.render.tables import render_table

    rows = result["standings"]
    forfeits = any(r["forfeits"] for r in rows)
    refused = any(r.get("refused") for r in rows)
    columns = ["#", "bot", "games", "wins", "win rate (95% CI)", "mean VP", "mu", "sigma",
               "mu-3sigma", *(["forfeits"] if forfeits else []),
               *(["refused"] if refused else [])]
    cells = []
    for i, r in enumerate(rows, 1):
        lo, hi = r["win_rate_95"]
        cells.append([str(i), r["bot"], str(r["games"]), str(r["wins"]),
                      f"{r['win_rate'] * 100:.1f}% [{lo * 100:.1f}-{hi * 100:.1f}%]",
                      f"{r['mean_vp']:.2f}", f"{r['mu']:.2f}", f"{r['sigma']:.2f}",
                      f"{r['conservative']:.2f}", *([str(r["forfeits"])] if forfeits else []),
                      *([str(r.get("refused", 0))] if refused else [])])
    right = {"#", "games", "wins", "mean VP", "mu", "sigma", "mu-3sigma", "forfeits", "refused"}
    lines = [f"tournament {result['tournament']}: {result['games']} games", "",
             render_table(columns, cells, right)]
    lines.append("")
    lines.append("ordered by the conservative rating mu - 3 sigma (openskill Plackett-Luce); "
                 "games and wins count games, mean VP is per seat")
    h2h = head_to_head(result)
    if h2h is not None:
        (a, b), (wa, wb) = h2h["bots"], h2h["wins"]
        lines.append(f"head to head: {a} {wa} - {wb} {b} in {h2h['decided']} decided games "
                     f"({h2h['undecided']} undecided); two-sided exact binomial p = "
                     f"{h2h['p_value']:.3g}")
    for t in pod_tests(result):
        lo, hi = t["win_rate_95"]
        lines.append(f"pod: {t['bot']} ({t['seats']} of {len(result['pod'])} seats) won "
                     f"{t['wins']} of {t['games']} games, {t['win_rate'] * 100:.1f}% "
                     f"[95% {lo * 100:.1f}-{hi * 100:.1f}%] against parity "
                     f"{t['parity'] * 100:.0f}%; two-sided exact binomial p = {t['p_value']:.3g}")
    if forfeits:
        lines.append("forfeits: games in which a bot left for good (its seats were played by "
                     "default moves and ranked last)")
    for r in rows:
        if r.get("refused"):
            lines.append(f"refused: {r['refused']} answer(s) of {r['bot']}, the first: "
                         f"{r['first_refusal']} (its own refusals: docs/protocol.md §7)")
    if result.get("seed"):
        lines.append(f"seed {result['seed']} (revealed now that the games are over: "
                     "`--seed` with it plays the same games again)")
    return "\n".join(lines)


def json_result(result: dict[str, Any]) -> dict[str, Any]:
    out = {
        "tournament": result["tournament"],
        "games": result["games"],
        "standings": [{k: r.get(k) for k in JSON_KEYS} for r in result["standings"]],
        "game_ids": result["games_ids"],
        "seed": result.get("seed", ""),
    }
    h2h = head_to_head(result)
    if h2h is not None:
        out["head_to_head"] = h2h
    if result.get("pod"):
        out["pod"] = result["pod"]
        out["pod_tests"] = pod_tests(result)
    return out


def write_out(out: Path, result: dict[str, Any], games: list[dict[str, Any]]) -> list[Path]:
    """standings.json (the `--json` object), games.csv (every game: id, bots, scores, winner,
    forfeits), standings.txt (the table), ratings.svg (and ratings.png with matplotlib)."""
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / "standings.json", out / "games.csv", out / "ratings.svg", out / "standings.txt"]
    paths[0].write_text(json.dumps(json_result(result), indent=2) + "\n", encoding="utf-8")
    with paths[1].open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["index", "game_id", "bots", "scores", "winner", "forfeits"])
        for g in games:
            w.writerow([g["index"], g["game_id"], " ".join(g["bots"]),
                        " ".join(map(str, g["scores"])),
                        "" if g["winner"] is None else g["winner"],
                        " ".join(map(str, g["forfeits"]))])
    paths[2].write_text(ratings_svg(result["standings"], result["games"]), encoding="utf-8")
    paths[3].write_text(table(result) + "\n", encoding="utf-8")
    png = ratings_png(result["standings"], out / "ratings.png")
    if png is not None:
        paths.append(png)
    return paths


def _series(rows: list[dict[str, Any]]) -> list[tuple[str, list[tuple[int, float]]]]:
    """(bot, [(game index, μ after that game)]) for each bot, from the projection's history."""
    return [(r["bot"], [(int(i), float(mu)) for i, mu in r["history"]]) for r in rows if r["history"]]


def ratings_svg(rows: list[dict[str, Any]], games: int = 0, width: int = 720,
                height: int = 360) -> str:
    """μ of each bot after each game it played, over the schedule (x = game index)."""
    pad, right = 48, 110
    series = _series(rows)
    n = max([games, *(h[-1][0] + 1 for _, h in series)])
    values: list[float] = [mu for _, h in series for _, mu in h] or [25.0]
    lo, hi = min([*values, 25.0]) - 1, max([*values, 25.0]) + 1

    def x(i: float) -> float:
        return pad + (width - pad - right) * ((i + 1) / max(1, n))

    def y(v: float) -> float:
        return height - pad - (height - 2 * pad) * ((v - lo) / (hi - lo))

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{pad}" y="20">rating μ (openskill Plackett-Luce) after each game</text>',
             f'<line x1="{pad}" y1="{height - pad}" x2="{width - right}" y2="{height - pad}" stroke="#888"/>',
             f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{height - pad}" stroke="#888"/>',
             f'<line x1="{pad}" y1="{y(25.0):.1f}" x2="{width - right}" y2="{y(25.0):.1f}" '
             f'stroke="#ccc" stroke-dasharray="4 4"/>',
             f'<text x="4" y="{y(hi) + 4:.0f}">{hi:.1f}</text>',
             f'<text x="4" y="{y(lo) + 4:.0f}">{lo:.1f}</text>',
             f'<text x="4" y="{y(25.0) + 4:.0f}">25.0</text>',
             f'<text x="{pad}" y="{height - pad + 16}">0</text>',
             f'<text x="{width - right}" y="{height - pad + 16}" text-anchor="end">game {n}</text>']
    for k, (bot, hist) in enumerate(series):
        colour = COLOURS[k % len(COLOURS)]
        points = " ".join(f"{x(i):.1f},{y(mu):.1f}" for i, mu in [(-1, 25.0), *hist])
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{points}"/>')
        parts.append(f'<text x="{width - right + 4}" y="{y(hist[-1][1]) + 4:.1f}" '
                     f'fill="{colour}">{escape(bot)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def ratings_png(rows: list[dict[str, Any]], path: Path) -> Path | None:
    """The same plot as a PNG, if matplotlib is installed (`pip install hexlog[plot]`)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    fig, ax = plt.subplots(figsize=(8, 4), dpi=100)
    for bot, hist in _series(rows):
        ax.plot([0] + [i + 1 for i, _ in hist], [25.0] + [mu for _, mu in hist], label=bot)
    ax.set_xlabel("games")
    ax.set_ylabel("rating μ")
    ax.set_title("openskill Plackett-Luce rating after each game")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path
