"""The one-file replay page, opened from disk in a real headless Chromium: it shows the board
of every version, steps through a whole game, shows the winner at the end, and a spectator's
file holds no hidden card anywhere (not in the page, not in its compressed data)."""

from __future__ import annotations

import base64
import gzip
import json
import re
from pathlib import Path
from typing import Any

import pytest
from recording import Recorder, bot_chooser

from events.events import CardStolen, CityBuilt, DevelopmentCardBought, SettlementBuilt
from services.render.page import replay_page
from services.render.replay import Viewer
from services.rules.record import GameRecord

DEV_CARDS = ("knight", "victory point", "road building", "year of plenty", "monopoly")


@pytest.fixture(scope="module")
def record() -> GameRecord:
    """A whole game (to its winner) of the heuristic bot against random ones, recorded as the
    rules service stores it."""
    rec = Recorder.new("g-replay-page", b"replay-page", turn_limit=400)
    rec.play(bot_chooser(("random", "heuristic", "random", "random")))
    record = rec.record()
    assert record.events[-1].event.winner is not None  # type: ignore[attr-defined]
    return record


def open_page(browser: Any, tmp_path: Path, record: GameRecord, who: Viewer,
              version: int = 0) -> Any:
    path = tmp_path / f"replay-{who}.html".replace(" ", "-")
    path.write_text(replay_page(record, who))
    page = browser.new_page(viewport={"width": 1300, "height": 820})
    page.goto(path.as_uri() + (f"#v={version}" if version else ""))
    page.wait_for_selector("body[data-ready='1']", timeout=20_000)
    return page


def test_the_page_steps_through_the_whole_game_to_the_winner(
    browser: Any, tmp_path: Path, record: GameRecord
) -> None:
    page = open_page(browser, tmp_path, record, Viewer())
    assert page.locator("#board polygon.hex").count() == 37  # 19 land hexes and the sea frame
    assert page.locator("#board polygon.hex[data-terrain='desert']").count() == 1
    assert page.locator("#board g.token").count() == 18
    assert page.locator("#board g.harbor").count() == 9
    seen = [int(page.evaluate("document.body.dataset.version"))]
    for _ in range(record.version - 1):
        page.click("#next")
        seen.append(int(page.evaluate("document.body.dataset.version")))
    assert seen == list(range(1, record.version + 1))
    last = record.events[-1]
    assert type(last.event).__name__ == "GameFinished"
    winner = record.created.names[last.event.winner]  # type: ignore[attr-defined]
    assert page.locator("#result").inner_text() == f"Finished · winner: {winner}"
    assert winner in page.locator("#board").inner_text()
    page.click("#back")
    assert int(page.evaluate("document.body.dataset.version")) == record.version - 1
    page.close()


def test_pieces_appear_at_the_version_they_were_built(
    browser: Any, tmp_path: Path, record: GameRecord
) -> None:
    built = [(r.version, r.event) for r in record.events
             if isinstance(r.event, SettlementBuilt | CityBuilt)]
    (v1, first), (v2, city) = built[0], next(b for b in built if isinstance(b[1], CityBuilt))
    page = open_page(browser, tmp_path, record, Viewer(), version=v1 - 1)
    assert page.locator(f"#board polygon.settlement[data-vertex='{first.vertex}']").count() == 0
    page.click("#next")
    piece = page.locator(f"#board polygon.settlement[data-vertex='{first.vertex}']")
    assert piece.count() == 1
    assert piece.get_attribute("data-seat") == str(first.seat)
    page.fill("#slider", str(v2 - 1))  # the slider counts steps from 0: version v2
    page.dispatch_event("#slider", "input")
    assert int(page.evaluate("document.body.dataset.version")) == v2
    assert page.locator(f"#board polygon.city[data-vertex='{city.vertex}']").count() == 1
    # The last move is highlighted and narrated beside the board.
    assert page.locator("#log li.now").inner_text().startswith(f"v{v2} ")
    page.close()


def data_of(html: str) -> dict[str, Any]:
    packed = re.search(r'id="data"[^>]*>([^<]+)<', html)
    assert packed is not None
    data: dict[str, Any] = json.loads(gzip.decompress(base64.b64decode(packed.group(1))))
    return data


def test_a_spectator_export_holds_no_hidden_card(record: GameRecord) -> None:
    html = replay_page(record, Viewer())
    text = html + json.dumps(data_of(html))
    bought = [r for r in record.events if isinstance(r.event, DevelopmentCardBought)]
    stolen = [r for r in record.events if isinstance(r.event, CardStolen)]
    assert bought
    assert stolen
    steps = {s["v"]: s for s in data_of(html)["steps"]}
    for r in bought:  # the card drawn: never named to a spectator
        assert not any(c in steps[r.version]["n"].lower() for c in DEV_CARDS), steps[r.version]["n"]
    for r in stolen:  # the card stolen: never named to a spectator
        assert r.event.resource not in steps[r.version]["n"]  # type: ignore[attr-defined]
    assert not re.search(r"cards \d+: ", text)  # no hand in any panel
    assert not re.search(r"development \d+: ", text)
    referee = json.dumps(data_of(replay_page(record, Viewer(referee=True))))
    assert re.search(r"cards \d+: \d", referee)  # the referee's file does show hands


def test_a_seat_sees_its_own_hand_and_no_other(record: GameRecord) -> None:
    data = data_of(replay_page(record, Viewer(seat=1)))
    for step in data["steps"][-50:]:
        players = re.findall(r'<g class="player" data-seat="(\d)">(.*?)</g>', step["p"])
        assert len(players) == 4
        shown = {seat for seat, body in players if re.search(r"cards \d+: ", body)}
        assert shown == {"1"}
