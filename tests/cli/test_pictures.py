"""`hexlog render`, `hexlog replay --html` and the tournament's HTML report, run as a user
runs them; the pages themselves are checked in a real browser in tests/render/."""

from __future__ import annotations

import re
from pathlib import Path
from xml.etree import ElementTree

from cli_helpers import CORPUS, Hexlog, one_line_error

GAME = str(CORPUS / "base-4.jsonl")


def test_render_writes_a_png_and_an_svg_of_an_archive(hexlog: Hexlog) -> None:
    png, svg = hexlog.cwd / "board.png", hexlog.cwd / "board.svg"
    done = hexlog.run("render", GAME, "--at", "40", "-o", str(png))
    assert done.code == 0, done.err
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "wrote" in done.lines()[-1]
    assert hexlog.run("render", GAME, "--as", "1", "-o", str(svg)).code == 0
    root = ElementTree.fromstring(svg.read_text())
    hexes = [e for e in root.iter() if e.get("class") == "hex"]
    assert len(hexes) == 37
    players = [e for e in root.iter() if e.get("class") == "player"]
    texts = ["".join(p.itertext()) for p in players]
    assert re.search(r"cards \d+: ", texts[1])  # its own hand
    assert not any(re.search(r"cards \d+: ", t) for i, t in enumerate(texts) if i != 1)


def test_render_refuses_what_it_cannot_draw(hexlog: Hexlog) -> None:
    one_line_error(hexlog.run("render", GAME, "-o", "board.gif"), 2, "svg or .png")
    one_line_error(hexlog.run("render", GAME, "--as", "7", "-o", "b.svg"), 2, "seats 0 to 3")
    one_line_error(hexlog.run("render", GAME, "--at", "99999", "-o", "b.svg"), 2, "versions 1 to")
    assert not Path(hexlog.cwd / "b.svg").exists()


def test_replay_html_writes_one_file_for_a_viewer(hexlog: Hexlog) -> None:
    page = hexlog.cwd / "game.html"
    done = hexlog.run("replay", GAME, "--html", str(page), "--as", "referee")
    assert done.code == 0, done.err
    html = page.read_text()
    assert html.startswith("<!doctype html>")
    assert 'id="data"' in html
    assert not re.search(r"""(src|href)=["']?https?:""", html)  # nothing from the network


def test_a_tournament_report_links_every_game_to_its_replay_page(hexlog: Hexlog) -> None:
    out = hexlog.cwd / "report"
    done = hexlog.run("tournament", "--bots", "random,heuristic", "--games", "4", "--seed",
                      "report", "--turn-limit", "40", "--out", str(out), timeout=240)
    assert done.code == 0, done.err[-2000:]
    html = (out / "report.html").read_text()
    assert "<svg" in html  # the ratings chart, inline
    assert len(re.findall(r'<tr><td>\d+</td><td>(?:random|heuristic)</td>', html)) == 2
    links = re.findall(r'<a href="(games/[^"]+\.html)">', html)
    assert len(links) == 4
    for link in links:
        assert (out / link).read_text().startswith("<!doctype html>")
