"""Bots in two languages on one ladder, unattended: the JavaScript example bot
(examples/bots/ladder_bot.js, made from docs/ladder.md, run by `node` with no package) and the
Python ladder bot. Every game seats all four: a Python heuristic bot (the strong one), the
JavaScript `builder`, and two weak ones, a Python random bot and the JavaScript bot playing
`random`.

The long run (marked `slow`: `pytest -m slow tests/ladder`) plays 50 rated games and wants the
strong bot ranked above each weak one, in either language, with intervals that do not overlap.
(50 are plenty: on 2026-12-07 the heuristic bot won all 50, its interval's lower end 46 against
the weak bots' upper ends 28 and 25; 100 games took 220 s of every CI pass, 50 take 100.)
(The builder, which builds whenever it can but places its first settlements at random, is not
ranked against anyone: beside a bot that wins nearly every game it is about as good as random.)
The short one, in every run of the suite, plays 12 and wants the JavaScript bots to have played
every game, rated, with no answer of theirs refused."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from ladder_helpers import Ladder, ladder_up

STRONG = ("py-heuristic",)
WEAK = ("py-random", "js-random")
ALL = ("py-heuristic", "js-builder", "py-random", "js-random")


@pytest.fixture(scope="module")
def node() -> str:
    found = shutil.which("node")
    if found is None:
        pytest.fail("node is needed (Debian package nodejs; scripts/system-packages)")
    return found


def start_bots(ladder: Ladder) -> None:
    ladder.player("heuristic", "py-heuristic", "ann")
    ladder.node("js-builder", "bea", "--strategy", "builder")
    ladder.player("random", "py-random", "cy")
    ladder.node("js-random", "dee", "--strategy", "random")


def play(tmp: Any, games: int) -> Iterator[tuple[Ladder, dict[str, Any]]]:
    with ladder_up(tmp, "--deadline-ms", "5000", "--stop-after", str(games)) as ladder:
        start_bots(ladder)
        ladder.wait_rated(games, timeout=120 + 30 * games)
        yield ladder, ladder.wait_all_finished(timeout=300)


@pytest.fixture(scope="module")
def short(node: str, tmp_path_factory: pytest.TempPathFactory
          ) -> Iterator[tuple[Ladder, dict[str, Any]]]:
    yield from play(tmp_path_factory.mktemp("ladder"), 12)


def test_the_javascript_bot_plays_every_game_with_no_answer_refused(
        short: tuple[Ladder, dict[str, Any]]) -> None:
    ladder, data = short
    rows = {row["bot"]: row for row in data["boards"]["overall"]["rows"]}
    assert set(rows) == set(ALL)
    assert all(row["games"] == 12 for row in rows.values()), rows
    for name in ("js-builder", "js-random"):
        err = (ladder.tmp / f"{name}.err").read_text()
        assert "refused" not in err, err[-2000:]
        assert "12 games" in err, err[-2000:]  # it saw each game end on its stream


@pytest.mark.slow
def test_fifty_games_rank_the_stronger_above_the_weaker(
        node: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    for _, data in play(tmp_path_factory.mktemp("ladder"), 50):
        board = data["boards"]["overall"]
        assert board["games"] >= 50
        rows = {row["bot"]: row for row in board["rows"]}
        assert set(rows) == set(ALL)
        for strong in STRONG:
            for weak in WEAK:
                assert rows[strong]["rank"] < rows[weak]["rank"], board["rows"]
                assert rows[strong]["interval"][0] > rows[weak]["interval"][1], \
                    (strong, weak, board["rows"])
