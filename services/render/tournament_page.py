"""A tournament's report as one HTML page: the standings, the ratings chart (inline SVG) and
every game, each linked to its own replay page (`games/<id>.html`, written beside it)."""

from __future__ import annotations

from html import escape
from typing import Any


def tournament_page(result: dict[str, Any], games: list[dict[str, Any]], chart_svg: str,
                    pages: dict[str, str]) -> str:
    """`pages` maps a game id to its replay page's path, relative to the report."""
    rows = "".join(
        f"<tr><td>{i}</td><td>{escape(r['bot'])}</td><td>{r['games']}</td><td>{r['wins']}</td>"
        f"<td>{r['win_rate'] * 100:.1f}% [{r['win_rate_95'][0] * 100:.1f}–"
        f"{r['win_rate_95'][1] * 100:.1f}%]</td><td>{r['mean_vp']:.2f}</td>"
        f"<td>{r['mu']:.2f}</td><td>{r['sigma']:.2f}</td><td>{r['conservative']:.2f}</td></tr>"
        for i, r in enumerate(result["standings"], 1))
    game_rows = "".join(
        f"<tr><td>{g['index']}</td><td>{_link(g['game_id'], pages)}</td>"
        f"<td>{escape(', '.join(g['bots']))}</td><td>{escape(' '.join(map(str, g['scores'])))}</td>"
        f"<td>{'' if g['winner'] is None else escape(g['bots'][g['winner']]) + ' (seat ' + str(g['winner']) + ')'}</td>"
        f"<td>{escape(' '.join(map(str, g['forfeits'])))}</td></tr>"
        for g in games)
    seed = escape(str(result.get("seed", "")))
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>hexlog tournament {escape(result['tournament'])}</title>
<style>
body{{font:14px/1.45 "DejaVu Sans",Verdana,sans-serif;margin:24px;background:#f7f9fb;color:#1d1d1d}}
table{{border-collapse:collapse;margin:8px 0 24px}}td,th{{padding:4px 10px;border-bottom:1px solid #ccd}}
th{{background:#1d3557;color:#fff;text-align:left}}tr:hover td{{background:#eef4ff}}
.chart svg{{max-width:100%;height:auto;background:#fff;border:1px solid #ccd}}
</style></head><body>
<h1>Tournament {escape(result['tournament'])}</h1>
<p>{result['games']} games{f" · seed <code>{seed}</code> (revealed now that the games are over)" if seed else ""}</p>
<h2>Standings</h2>
<table id="standings"><tr><th>#</th><th>bot</th><th>games</th><th>wins</th><th>win rate (95% CI)</th>
<th>mean VP</th><th>μ</th><th>σ</th><th>μ − 3σ</th></tr>{rows}</table>
<p>Ordered by the conservative rating μ − 3σ (openskill, Plackett–Luce).</p>
<h2>Ratings</h2><div class="chart">{chart_svg}</div>
<h2>Games</h2>
<table id="games"><tr><th>#</th><th>game (replay)</th><th>seats</th><th>scores</th><th>winner</th>
<th>forfeits</th></tr>{game_rows}</table>
</body></html>
"""


def _link(game_id: str, pages: dict[str, str]) -> str:
    path = pages.get(game_id)
    label = escape(game_id)
    return f'<a href="{escape(path)}">{label}</a>' if path else label
