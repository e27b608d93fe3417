"""Where the place labels go: each at its place where that is free, else moved the least it
takes (towards the hex it is named after first) so that no label covers a building, a module's
symbol, a number token, a harbor, the robber or another label.

Pure geometry on boxes: the picture (svg.py) says what is drawn where and what each label
wants; this module only chooses the spots.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Box:
    """An axis-aligned box in picture units."""

    x0: float
    y0: float
    x1: float
    y1: float

    def hits(self, other: Box, margin: float = 1.0) -> bool:
        return (min(self.x1, other.x1) - max(self.x0, other.x0) > -margin
                and min(self.y1, other.y1) - max(self.y0, other.y0) > -margin)


def around(x: float, y: float, width: float, height: float) -> Box:
    """The box of `width` × `height` centred at (x, y)."""
    return Box(x - width / 2, y - height / 2, x + width / 2, y + height / 2)


@dataclass(frozen=True)
class Wanted:
    """A label that wants to sit at (x, y), `width` × `height`; if it must move, it moves
    towards (`toward_x`, `toward_y`) first (the centre of the hex it names)."""

    x: float
    y: float
    width: float
    height: float
    toward_x: float
    toward_y: float
    pad_x: float = 4.0  # the paper around the text: it keeps its size when the text shrinks
    pad_y: float = 3.0

    def box(self, x: float, y: float, scale: float = 1.0) -> Box:
        return around(x, y, (self.width - self.pad_x) * scale + self.pad_x,
                      (self.height - self.pad_y) * scale + self.pad_y)


# Moves tried, nearest first: distances (px) and turns away from the preferred direction.
STEPS = (8.0, 12.0, 16.0, 20.0, 24.0, 29.0, 34.0, 40.0, 46.0)
TURNS = (0, 30, -30, 60, -60, 90, -90, 120, -120, 150, -150, 180)


@dataclass(frozen=True)
class Spot:
    """Where a label goes, and its scale (below 1 where it found room only when smaller)."""

    x: float
    y: float
    scale: float = 1.0


SCALES = (1.0, 0.8, 0.65)


class _Grid:
    """Boxes filed by every cell of a coarse grid they touch: a box is checked against its
    neighbours only (a Pirate Islands board has ~300 labels and ~100 pieces)."""

    CELL = 32.0

    def __init__(self) -> None:
        self.boxes: list[Box] = []
        self.cells: dict[tuple[int, int], list[int]] = {}

    def _keys(self, box: Box, margin: float = 0.0) -> list[tuple[int, int]]:
        c = self.CELL
        xs = range(math.floor((box.x0 - margin) / c), math.floor((box.x1 + margin) / c) + 1)
        ys = range(math.floor((box.y0 - margin) / c), math.floor((box.y1 + margin) / c) + 1)
        return [(i, j) for i in xs for j in ys]

    def add(self, box: Box) -> None:
        self.boxes.append(box)
        for key in self._keys(box):
            self.cells.setdefault(key, []).append(len(self.boxes) - 1)

    def hits(self, box: Box) -> int:
        """How many boxes filed here `box` touches (or comes within the margin of)."""
        near = {i for key in self._keys(box, 2.0) for i in self.cells.get(key, ())}
        return sum(box.hits(self.boxes[i]) for i in near)


def place(wanted: Sequence[Wanted], obstacles: Iterable[Box]) -> list[Spot]:
    """A spot for each label, in order: first every label whose own place is free keeps it,
    then the others take the nearest free spot, smaller if it must (if none is free, the one
    that covers the fewest others)."""
    taken = _Grid()
    for o in obstacles:
        taken.add(o)
    spots: list[Spot | None] = [None] * len(wanted)
    for i, w in enumerate(wanted):
        box = w.box(w.x, w.y)
        if not taken.hits(box):
            spots[i] = Spot(w.x, w.y)
            taken.add(box)
    for i, w in enumerate(wanted):
        if spots[i] is not None:
            continue
        best: tuple[int, Spot, Box] | None = None
        for scale in SCALES:
            for x, y in _candidates(w):
                box = w.box(x, y, scale)
                n = taken.hits(box)
                if best is None or n < best[0]:
                    best = (n, Spot(x, y, scale), box)
                if n == 0:
                    break
            if best is not None and best[0] == 0:
                break
        assert best is not None
        spots[i] = best[1]
        taken.add(best[2])
    return [s for s in spots if s is not None]


def _candidates(w: Wanted) -> Iterable[tuple[float, float]]:
    base = math.atan2(w.toward_y - w.y, w.toward_x - w.x) if (w.toward_x, w.toward_y) != (
        w.x, w.y) else math.pi / 2
    for step in STEPS:
        for turn in TURNS:
            a = base + math.radians(turn)
            yield w.x + step * math.cos(a), w.y + step * math.sin(a)
