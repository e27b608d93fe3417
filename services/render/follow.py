"""A game followed live (`hexlog replay GAME --follow`): one narrated line per event and, with
`--board`, the board and the players again each time a turn ends and when the game does.

On a terminal the screen is cleared before each redraw, so the picture stays in one place and
the next turn's events print under it; anywhere else (a pipe, a file) the picture is printed
again below a separator line, so a log keeps every turn's board.
"""

from __future__ import annotations

from typing import TextIO

from events.events import Event, GameFinished, TurnEnded
from services.render.replay import Viewer, follow_line
from services.render.text import players_table, render_board, status_line
from services.rules.engine import view
from services.rules.engine.state import State

CLEAR = "\x1b[H\x1b[2J"  # ANSI: cursor to the top left, erase the screen (scrollback kept)
SEPARATOR = "── board at v{version}: {why} ──"


class Follower:
    """Prints a followed game's events to `out`, folding each into `state` (the state after
    the events already shown)."""

    def __init__(self, state: State, who: Viewer, out: TextIO, board: bool = False,
                 terminal: bool | None = None) -> None:
        self.state, self.who, self.out, self.board = state, who, out, board
        self.terminal = out.isatty() if terminal is None else terminal

    def show(self, event: Event, version: int) -> None:
        turn = self.state.turn  # before the event: a TurnEnded ends this one
        self.out.write(follow_line(self.state, event, version, self.who) + "\n")
        if self.board and isinstance(event, TurnEnded | GameFinished):
            why = "the game is over" if isinstance(event, GameFinished) else f"turn {turn} ended"
            self.out.write(self.picture(version, why))
        self.out.flush()

    def picture(self, version: int, why: str) -> str:
        """The status line, the board and the players, as the first picture shows them (once
        the game is over nothing is hidden, as there)."""
        state = self.state
        seen = view(state, self.who.seat, referee=self.who.referee or state.finished)
        head = CLEAR if self.terminal else "\n" + SEPARATOR.format(version=version, why=why) + "\n"
        return "\n".join([f"{head}game {state.game_id} · {status_line(seen, str(self.who))}", "",
                          render_board(state), "", players_table(seen), "", ""])
