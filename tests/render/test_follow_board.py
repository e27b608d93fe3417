"""`hexlog replay GAME --follow --board`: the board and the players are drawn again each time a
turn ends and when the game does, each picture the one of the state just reached; on a
terminal the screen is cleared first, elsewhere a separator line comes first. Played over
games of tests/corpus, event by event, as the live follow feeds them.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from events.events import GameFinished, TurnEnded
from services.audit.archive import read_file
from services.render.follow import CLEAR, SEPARATOR, Follower
from services.render.replay import Viewer, follow_line
from services.render.text import render_board
from services.rules.record import GameRecord

CORPUS = Path(__file__).parents[1] / "corpus"
GAMES = ["base-4", "event-cards-4", "catan-for-two-2"]
START = 30  # the follow starts mid-game, as `--follow` on a game already under way does
SEPARATOR_START = SEPARATOR.split("{")[0]


def record_of(name: str) -> GameRecord:
    _, record = read_file(str(CORPUS / f"{name}.jsonl"))
    return record


def followed(record: GameRecord, board: bool, terminal: bool) -> str:
    out = io.StringIO()
    follower = Follower(record.state_at(START), Viewer(), out, board=board, terminal=terminal)
    for r in record.events[START:]:
        follower.show(r.event, r.version)
    return out.getvalue()


def redraws(record: GameRecord) -> list[int]:
    """The versions after which a picture is due: each turn's end, and the game's."""
    return [r.version for r in record.events[START:]
            if isinstance(r.event, TurnEnded | GameFinished)]


@pytest.mark.parametrize("name", GAMES)
def test_off_a_terminal_the_board_follows_each_turn_below_a_separator(name: str) -> None:
    record = record_of(name)
    text = followed(record, board=True, terminal=False)
    due = redraws(record)
    assert isinstance(record.events[-1].event, GameFinished)
    assert len(due) > 10  # a game of many turns
    separators = [line for line in text.splitlines() if line.startswith(SEPARATOR_START)]
    assert separators == [
        SEPARATOR.format(version=v, why="the game is over" if v == record.version else
                         f"turn {record.state_at(v - 1).turn} ended") for v in due]
    assert CLEAR not in text
    pictures = [text.split(line + "\n", 1)[1].split("\n\n\n", 1)[0] for line in separators]
    for i in (0, len(due) // 2, -1):  # each picture is the one of the state reached then
        assert f"\n\n{render_board(record.state_at(due[i]))}\n\n" in pictures[i]
        assert pictures[i].startswith(f"game {record.game_id} · version {due[i]} · ")


def test_on_a_terminal_the_screen_is_cleared_before_each_picture() -> None:
    record = record_of("base-4")
    text = followed(record, board=True, terminal=True)
    assert text.count(CLEAR) == len(redraws(record))
    assert SEPARATOR_START not in text
    final = text.rsplit(CLEAR, 1)[1]  # what stays on the screen at the end
    assert render_board(record.state_at(record.version)) in final
    assert "finished" in final.splitlines()[0]


def test_without_board_each_event_is_one_line_as_before() -> None:
    record = record_of("base-4")
    state = record.state_at(START)
    lines = [follow_line(state, r.event, r.version, Viewer()) for r in record.events[START:]]
    assert followed(record, board=False, terminal=False) == "\n".join(lines) + "\n"
