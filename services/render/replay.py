"""Replays: a game's record seen from one seat, a spectator or the referee, at any version.

The state at version v is the fold of events 1..v (undo included, services/rules/engine/undo.py).
What is shown goes through the engine's visibility rules: the players table comes from
`view(state, seat)`, every event from `redact(event, seat)`; only the referee sees everything.
Events undone by a later `Reverted` (up to the version shown) stay listed, marked as reverted.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from events.disputes import Reverted
from events.events import Event
from services.render.narrate import Context, narrate
from services.render.text import legend, players_table, render_board, status_line
from services.rules.engine import evolve, redact, view
from services.rules.engine.state import State
from services.rules.record import GameRecord


@dataclass(frozen=True)
class Viewer:
    """Who is looking: a seat, a spectator (seat None) or the referee."""

    seat: int | None = None
    referee: bool = False

    @staticmethod
    def parse(text: str) -> Viewer:
        if text == "referee":
            return Viewer(referee=True)
        if text == "spectator":
            return Viewer()
        if text.isdigit():
            return Viewer(seat=int(text))
        raise ValueError(f"--as takes a seat number, 'spectator' or 'referee', not {text!r}")

    @property
    def private(self) -> bool:
        return self.referee or self.seat is not None

    def __str__(self) -> str:
        return "referee" if self.referee else "spectator" if self.seat is None else f"seat {self.seat}"

    def sees(self, state: State, event: Event) -> Event:
        return event if self.referee else redact(state, event, self.seat)


def fold_to(record: GameRecord, version: int | None = None) -> State:
    """The state after event `version` (default: the last one)."""
    last = record.version if version is None else version
    if not 1 <= last <= record.version:
        raise ValueError(f"version {last} is not in the log (1..{record.version})")
    return record.state_at(last)


def reverted_versions(events: Iterable[Event]) -> set[int]:
    out: set[int] = set()
    for e in events:
        if isinstance(e, Reverted):
            out.update(range(e.first, e.last + 1))
    return out


def event_lines(record: GameRecord, state: State, who: Viewer, upto: int,
                since: int = 0) -> list[str]:
    """The narrated events `since + 1`..`upto`, as `who` may read them."""
    ctx = Context(state.names, state.board)
    undone = reverted_versions(r.event for r in record.events[:upto])
    lines = []
    for r in record.events[since:upto]:
        text = narrate(who.sees(state, r.event), ctx)
        mark = " [reverted]" if r.version in undone else ""
        lines.append(f"v{r.version:<5}{text}{mark}")
    return lines


def render(record: GameRecord, version: int | None, who: Viewer, tail: int = 0) -> str:
    """The board, the players and the events up to `version`, for `who`."""
    state = fold_to(record, version)
    v = state.version
    # Once the game is over nothing is hidden: every viewer sees the hands and the VP cards
    # (the winner's total, not the public part of it).
    seen = view(state, who.seat, referee=who.referee or state.finished)
    lines = event_lines(record, state, who, v)
    if tail and len(lines) > tail:
        lines = [f"… {len(lines) - tail} earlier events (--tail 0 shows all)"] + lines[-tail:]
    parts = [
        f"game {record.game_id} · {status_line(seen, str(who))}",
        "",
        render_board(state),
        "",
        legend(state),
        "",
        players_table(seen),
        "",
        f"events 1..{v}:",
        *lines,
    ]
    return "\n".join(parts)


def follow_line(state: State, event: Event, version: int, who: Viewer) -> str:
    """One live event, folded into `state`, narrated for `who`."""
    ctx = Context(state.names, state.board)
    text = narrate(who.sees(state, event), ctx)
    evolve(state, event)
    return f"v{version:<5}{text}"

