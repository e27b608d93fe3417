"""A game's picture at a version, for a viewer: what `hexlog render` writes and what the
replay page and chat adapters show.

The board is the fold of events 1..v; the panel is `view(state, seat)` for the viewer (the
referee sees everything, a spectator no hand); the last move — the events of the command that
ended at v — is highlighted at every place its events name, and narrated as the viewer may
read it.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import cache
from typing import Any

import msgspec

from events.events import Event
from events.prompts import View
from services.render.narrate import Context, narrate
from services.render.replay import Viewer, fold_to
from services.render.svg import (
    Highlight,
    Target,
    board_svg,
    frame_of,
    pieces_layer,
    svg_open,
    terrain_layer,
)
from services.rules.engine import view
from services.rules.engine.state import State
from services.rules.record import GameRecord


def last_move(record: GameRecord, version: int) -> list[Event]:
    """The events of the command whose batch holds `version`, up to `version`."""
    for batch in record.batches:
        if batch.first <= version <= batch.last:
            return [r.event for r in record.events[batch.first - 1: version]]
    return [record.events[version - 1].event]


def highlight_of(events: list[Event]) -> Highlight:
    """Every vertex, edge and hex an event of the move names (by the fields `vertex`, `edge`,
    `hex`, or lists of them), whatever module the event comes from."""
    found: dict[str, set[int]] = {"vertex": set(), "edge": set(), "hex": set()}
    for event in events:
        for name, value in msgspec.structs.asdict(event).items():
            place = name.rstrip("s")
            if place in found:
                if isinstance(value, int) and value >= 0:
                    found[place].add(value)
                elif isinstance(value, (list, tuple)):
                    found[place].update(v for v in value if isinstance(v, int) and v >= 0)
    return Highlight(frozenset(found["vertex"]), frozenset(found["edge"]), frozenset(found["hex"]))


def picture(record: GameRecord, version: int | None, who: Viewer, labels: bool = False,
            targets: Sequence[Target] = ()) -> str:
    """The SVG of the game at `version` (default: the last) as `who` sees it; `labels`: every
    place's label written on it; `targets`: places marked with their labels (a prompt's)."""
    state = fold_to(record, version)
    return picture_of(record, state, who, labels=labels, targets=targets)


def picture_of(record: GameRecord, state: State, who: Viewer, labels: bool = False,
               targets: Sequence[Target] = ()) -> str:
    """The SVG of `state` (the fold of `record` to `state.version`) as `who` sees it."""
    v = state.version
    seen = view(state, who.seat, referee=who.referee)
    move = last_move(record, v)
    ctx = Context(state.names, state.board)
    said = narrate(who.sees(state, move[-1]), ctx) if move else ""
    return board_svg(state, seen, highlight=highlight_of(move),
                     title=f"{record.game_id} · as {who}", narration=said, labels=labels,
                     targets=targets)


def to_png(svg: str, scale: float = 1.0) -> bytes:
    """PNG bytes of an SVG document (cairosvg: a maintained SVG rasteriser on cairo)."""
    import cairosvg

    png: bytes = cairosvg.svg2png(bytestring=svg.encode(), scale=scale)
    return png


class MovePainter:
    """PNG pictures of one game, move after move (what a chat adapter posts).

    The terrain (hexes, numbers, harbors) rarely changes within a game, so it is rasterised once
    per change and each picture draws only the pieces and the panel over it: the same pixels as
    `to_png(board_svg(...))` (a test checks it) in about two thirds of the time
    (benchmarks/render.py)."""

    def __init__(self) -> None:
        self._terrain = ""
        self._background: object = None

    def png(self, state: State, seen: View, *, highlight: Highlight | None = None,
            title: str = "", narration: str = "") -> bytes:
        from cairosvg.parser import Tree
        from cairosvg.surface import PNGSurface

        frame = frame_of(state)
        terrain = terrain_layer(state)
        if terrain != self._terrain:
            whole = svg_open(state, frame) + terrain + "</svg>"
            self._background = PNGSurface(Tree(bytestring=whole.encode()), None, 96).cairo
            self._terrain = terrain
        over = (svg_open(state, frame, background=False)
                + pieces_layer(state, seen, highlight=highlight, title=title, narration=narration)
                + "</svg>")
        out = io.BytesIO()
        _surface_over_background()(Tree(bytestring=over.encode()), out, self._background).finish()
        return out.getvalue()


@cache
def _surface_over_background() -> Any:
    """A cairosvg PNG surface that starts from a painted background instead of transparency
    (cairosvg makes its surface in `_create_surface`: the one place this hooks)."""
    import cairocffi
    from cairosvg.surface import PNGSurface

    class SurfaceOverBackground(PNGSurface):  # type: ignore[misc]
        def __init__(self, tree: object, output: io.BytesIO, background: object) -> None:
            self.background = background
            super().__init__(tree, output, 96)

        def _create_surface(self, width: float, height: float) -> tuple[object, int, int]:
            surface, w, h = super()._create_surface(width, height)
            context = cairocffi.Context(surface)
            context.set_source_surface(self.background)
            context.paint()
            return surface, w, h

    return SurfaceOverBackground
