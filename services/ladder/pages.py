"""The ladder's HTML pages, made from what `GET /v1/ladder` and a bot's JSON say (public.py):
`/ladder.html` (each board, the live games with a link to watch each, the latest results) and
a page per bot (its ratings, its games and their replays). Plain HTML that refreshes itself;
every name a bot chose is escaped."""

from __future__ import annotations

import time
from html import escape
from typing import Any

STYLE = """<style>
body{font:14px/1.45 "DejaVu Sans",Verdana,sans-serif;margin:0 auto;max-width:1100px;padding:12px;
 background:#0f1e33;color:#eee}a{color:#8ecae6}h1,h2{font-weight:600}
table{border-collapse:collapse;width:100%;margin:6px 0 18px}th,td{padding:3px 8px;text-align:left}
th{background:#1d3557}tr:nth-child(even){background:#13253d}td.n{text-align:right}
.prov{color:#ffb703}.note{color:#9ab}.absent,.revoked{color:#ff8fa3}
</style>"""


def when(stamp: float | None) -> str:
    if stamp is None:
        return "never"
    ago = max(0.0, time.time() - stamp)
    if ago < 90:
        return f"{ago:.0f} s ago"
    if ago < 5400:
        return f"{ago / 60:.0f} min ago"
    if ago < 129_600:
        return f"{ago / 3600:.0f} h ago"
    return f"{ago / 86_400:.0f} days ago"


def page(title: str, body: str, refresh_s: int = 10) -> str:
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="refresh" content="{refresh_s}">'
            f"<title>{escape(title)}</title>{STYLE}</head><body>{body}</body></html>")


def rating_cell(row: dict[str, Any]) -> str:
    lo, hi = row["interval"]
    mark = '<span class="prov" title="provisional: few games yet">?</span>' \
        if row.get("provisional") else ""
    return f'<td class="n">{row["rating"]:.1f}{mark}</td><td class="n">{lo:.1f} – {hi:.1f}</td>'


def board_table(rows: list[dict[str, Any]]) -> str:
    head = ("<tr><th>#</th><th>bot</th><th>owner</th><th>rating</th><th>interval</th>"
            "<th>games</th><th>win rate</th><th>status</th><th>last seen</th></tr>")
    body = []
    for row in rows:
        name = escape(row["bot"])
        link = f'<a href="/ladder/bots/{escape(row["id"])}">{name}</a>' if row.get("id") else name
        body.append(
            f'<tr><td class="n">{row["rank"]}</td><td>{link}</td><td>{escape(row["owner"])}</td>'
            f'{rating_cell(row)}<td class="n">{row["games"]}</td>'
            f'<td class="n">{100 * row["win_rate"]:.0f}%</td>'
            f'<td class="{escape(row["status"])}">{escape(row["status"])}</td>'
            f'<td>{when(row["last_seen"])}</td></tr>')
    return f"<table>{head}{''.join(body)}</table>"


def games_table(games: list[dict[str, Any]], watch: bool) -> str:
    if not games:
        return '<p class="note">none</p>'
    head = "<tr><th>game</th><th>rule set</th><th>seats</th><th>result</th><th></th></tr>"
    body = []
    for g in games:
        seats = ", ".join(f'<a href="/ladder/bots/{escape(s["id"])}">{escape(s["name"])}</a>'
                          for s in g["seats"])
        if g["status"] == "finished":
            won = g["winner"]
            result = ("no winner" if won is None else
                      f'{escape(g["seats"][won]["name"])} won') + (
                f' ({"–".join(map(str, g["scores"]))})' if g.get("scores") else "")
            link = f'<a href="{g["links"]["replay"]}">replay</a>'
        else:
            result = g["status"]
            link = f'<a href="{g["links"]["live"]}">watch live</a>' if watch else ""
        body.append(f"<tr><td>{escape(g['id'])}</td><td>{escape(g['ruleset'])}</td>"
                    f"<td>{seats}</td><td>{result}</td><td>{link}</td></tr>")
    return f"<table>{head}{''.join(body)}</table>"


def ladder_page(data: dict[str, Any]) -> str:
    ladder = data["ladder"]
    rulesets = ", ".join(escape(r["key"]) for r in ladder["rulesets"])
    parts = [f"<h1>hexlog bot ladder</h1><p class='note'>{ladder['bots']} bots, "
             f"{ladder['games']} games; rule sets {rulesets}; {ladder['deadline_ms'] / 1000:g} s "
             f"a decision; ranked by the interval's lower end (rating − 3σ); a rating is "
             f"provisional (?) until {ladder['provisional_games']} games. "
             f"<a href='/v1/ladder'>JSON</a> · how to join: docs/ladder.md"
             + ("" if ladder["matchmaker"] else " · <b>no matchmaker is running</b>") + "</p>"]
    for name, board in data["boards"].items():
        parts.append(f"<h2>{escape(name)} <span class='note'>({board['games']} games)</span>"
                     f"</h2>{board_table(board['rows'])}")
    if not data["boards"]:
        parts.append("<p class='note'>No rated game yet.</p>")
    parts.append(f"<h2>Live</h2>{games_table(data['live'], watch=True)}")
    parts.append(f"<h2>Latest results</h2>{games_table(data['recent'], watch=False)}")
    return page("hexlog bot ladder", "".join(parts))


def bot_page(data: dict[str, Any]) -> str:
    bot = data["bot"]
    rows = []
    for name, row in data["boards"].items():
        rows.append(f"<tr><td>{escape(name)}</td><td class='n'>{row['rank']}</td>"
                    f"{rating_cell(row)}<td class='n'>{row['games']}</td>"
                    f"<td class='n'>{100 * row['win_rate']:.0f}%</td></tr>")
    boards = ("<table><tr><th>board</th><th>#</th><th>rating</th><th>interval</th>"
              f"<th>games</th><th>win rate</th></tr>{''.join(rows)}</table>" if rows else
              "<p class='note'>No rated game yet.</p>")
    accepts = ", ".join(escape(r) for r in bot["rulesets"]) or "every rule set"
    body = (f"<p><a href='/ladder.html'>← the ladder</a></p><h1>{escape(bot['name'])}</h1>"
            f"<p class='note'>owner {escape(bot['owner'])} · {escape(bot['status'])} · "
            f"last seen {when(bot['last_seen'])} · plays {accepts} · "
            f"<a href='/v1/ladder/bots/{escape(bot['id'])}'>JSON</a></p>"
            f"<h2>Ratings</h2>{boards}<h2>Games</h2>{games_table(data['games'], watch=True)}")
    return page(f"{bot['name']} · hexlog bot ladder", body)
