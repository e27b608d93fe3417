"""The replay page and its pictures laid out without clipping or overlap, measured with a real
headless Chromium's boxes: at the first, a middle and the last version of a played game of
the base game, each variant and each scenario, no text of the picture leaves its box (its label's, the panel's,
the legend's, the picture's) or overlaps another text, no harbor label lies under a building,
no text of the page overflows its element; the winner is named at the end only, and the board
leaves no empty band under it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rule_games import played_game

from services.render.page import replay_page
from services.render.picture import picture
from services.render.replay import Viewer

# Per text of the picture: its box, the box of what holds it (the rect drawn first in its
# group: a label, a harbor, a player's box; else the panel or the legend it sits in; else the
# picture), and whether it is a harbor's.
MEASURE = """() => {
  const svg = document.querySelector('#board svg');
  const r = b => ({x: b.left, y: b.top, r: b.right, b: b.bottom});
  const out = {svg: r(svg.getBoundingClientRect()), texts: [], buildings: []};
  for (const t of svg.querySelectorAll('text')) {
    if (!t.textContent.trim()) continue;
    const g = t.parentElement;
    let box = null, holder = '';
    const own = g && g.tagName === 'g' && !g.classList.contains('legend-entry')
      ? g.querySelector(':scope > rect') : null;
    if (own) { box = r(own.getBoundingClientRect()); holder = g.getAttribute('class') || 'g'; }
    out.texts.push({text: t.textContent, box: r(t.getBoundingClientRect()), holder, within: box,
                    cls: t.getAttribute('class') || '', group: g ? (g.getAttribute('class') || '') : '',
                    legend: !!t.closest('#legend'), harbor: !!t.closest('g.harbor')});
  }
  for (const b of svg.querySelectorAll('polygon.settlement, polygon.city'))
    out.buildings.push(r(b.getBoundingClientRect()));
  const panel = svg.querySelector('g.pieces > rect[fill="#f1faee"]');
  out.panel = panel ? r(panel.getBoundingClientRect()) : null;
  const legend = svg.querySelector('#legend > rect');
  out.legend = legend ? r(legend.getBoundingClientRect()) : null;
  out.html = [];
  for (const el of document.querySelectorAll('header span, #result, #log li.now, #status')) {
    out.html.push({id: el.id || el.className, over: el.scrollWidth > el.clientWidth + 1,
                   text: el.textContent.slice(0, 80)});
  }
  const board = document.querySelector('#board').getBoundingClientRect();
  out.board = r(board);
  return out;
}"""
SLACK = 1.0


def inside(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["x"] >= b["x"] - SLACK and a["r"] <= b["r"] + SLACK and a["y"] >= b["y"] - SLACK
            and a["b"] <= b["b"] + SLACK)


def overlap(a: dict[str, float], b: dict[str, float], margin: float = 0.5) -> bool:
    return (min(a["r"], b["r"]) - max(a["x"], b["x"]) > margin
            and min(a["b"], b["b"]) - max(a["y"], b["y"]) > margin)


def problems(m: dict[str, Any]) -> list[str]:
    found = []
    texts = m["texts"]
    for t in texts:
        where = t["within"] or (m["legend"] if t["legend"] else None)
        if where is None and m["panel"] and t["box"]["x"] >= m["panel"]["x"] - SLACK:
            where = m["panel"]
        where = where or m["svg"]
        if not inside(t["box"], where):
            found.append(f"text {t['text']!r} ({t['holder'] or t['cls']}) leaves its box")
    for i, a in enumerate(texts):
        for b in texts[i + 1:]:
            if overlap(a["box"], b["box"]):
                found.append(f"{a['text']!r} overlaps {b['text']!r}")
    for t in texts:
        if t["harbor"]:
            for b in m["buildings"]:
                if overlap(t["within"] or t["box"], b, 2.0):
                    found.append(f"harbor label {t['text']!r} under a building")
    for h in m["html"]:
        if h["over"]:
            found.append(f"page text {h['id']} overflows: {h['text']!r}")
    return found


def test_no_text_leaves_its_box_or_overlaps_another(browser: Any, tmp_path: Path,
                                                     rule_system: str) -> None:
    name = rule_system
    record = played_game(name)
    path = tmp_path / f"{name}.html"
    path.write_text(replay_page(record, Viewer()))
    page = browser.new_page(viewport={"width": 1300, "height": 820})
    try:
        found: list[str] = []
        last = record.version
        for version in (1, last // 2, last):
            page.goto(f"{path.as_uri()}#v={version}")
            page.reload()
            page.wait_for_selector("body[data-ready='1']", timeout=20_000)
            assert int(page.evaluate("document.body.dataset.version")) == version
            m = page.evaluate(MEASURE)
            found += [f"v{version}: {p}" for p in problems(m)]
            result = page.locator("#result").inner_text()
            assert ("winner" in result) == (version == last), (version, result)
            # The board's picture fills its area: no band of more than a tenth of it below.
            assert m["board"]["b"] - m["svg"]["b"] < 0.1 * (m["board"]["b"] - m["board"]["y"]), m
        assert not found, found[:20]
    finally:
        page.close()


# The `--labels` picture: each label's box, and what it must not cover (buildings, module
# symbols, harbors, the robber; tokens as circles).
MEASURE_LABELS = """() => {
  const svg = document.querySelector('svg');
  const r = b => ({x: b.left, y: b.top, r: b.right, b: b.bottom});
  const boxes = sel => [...svg.querySelectorAll(sel)].map(e => r(e.getBoundingClientRect()));
  const labels = [...svg.querySelectorAll('g.labels > g')].map(g => ({
    text: g.textContent, box: r(g.querySelector('rect').getBoundingClientRect())}));
  const tokens = [...svg.querySelectorAll('g.token > circle')].map(c => {
    const b = c.getBoundingClientRect();
    return {x: (b.left + b.right) / 2, y: (b.top + b.bottom) / 2, r: b.width / 2};
  });
  return {labels, tokens, pieces: [
    ...boxes('polygon.settlement, polygon.city').map(b => ['building', b]),
    ...boxes('g.mark').map(b => ['symbol', b]),
    ...boxes('g.harbor > rect').map(b => ['harbor', b]),
    ...boxes('g.robber').map(b => ['robber', b])]};
}"""


def covers_circle(box: dict[str, float], c: dict[str, float]) -> bool:
    nearest_x = min(max(c["x"], box["x"]), box["r"])
    nearest_y = min(max(c["y"], box["y"]), box["b"])
    return (nearest_x - c["x"]) ** 2 + (nearest_y - c["y"]) ** 2 < (c["r"] - SLACK) ** 2


def label_problems(m: dict[str, Any]) -> list[str]:
    found = []
    labels = m["labels"]
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            if overlap(a["box"], b["box"]):
                found.append(f"label {a['text']} overlaps label {b['text']}")
        for kind, box in m["pieces"]:
            if overlap(a["box"], box):
                found.append(f"label {a['text']} covers a {kind}")
        for c in m["tokens"]:
            if covers_circle(a["box"], c):
                found.append(f"label {a['text']} covers a number token")
    return found


def test_the_labels_picture_keeps_each_label_clear(browser: Any, rule_system: str) -> None:
    """`hexlog render --labels`: at the first, a middle and the last version, every text stays
    in its box and clear of the others, and no label covers another, a building, a module's
    symbol, a number token, a harbor or the robber."""
    record = played_game(rule_system)
    page = browser.new_page(viewport={"width": 1600, "height": 1200})
    try:
        found: list[str] = []
        for version in (1, record.version // 2, record.version):
            svg = picture(record, version, Viewer(), labels=True)
            page.set_content(f'<html><body style="margin:0"><div id="board">{svg}</div>'
                             "</body></html>")
            texts = page.evaluate(MEASURE)
            found += [f"v{version}: {p}" for p in problems(texts) if "page text" not in p]
            found += [f"v{version}: {p}" for p in label_problems(page.evaluate(MEASURE_LABELS))]
        assert not found, found[:20]
    finally:
        page.close()
