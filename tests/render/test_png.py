"""PNG pictures: a chat adapter's per-move painter (terrain drawn once) gives exactly the pixels
of the whole picture drawn from scratch, and the harbor labels fit their boxes."""

from __future__ import annotations

import io

import cairocffi
from recording import Recorder, bot_chooser

from services.render.picture import MovePainter, to_png
from services.render.svg import board_svg
from services.rules.engine import evolve, initial_state, view


def pixels(png: bytes) -> bytes:
    surface = cairocffi.ImageSurface.create_from_png(io.BytesIO(png))
    return bytes(surface.get_data())


def test_the_move_painter_draws_the_same_pixels_as_the_whole_picture() -> None:
    rec = Recorder.new("g-png", b"png-painter", turn_limit=40)
    rec.play(bot_chooser(("random", "heuristic", "random", "random")))
    record = rec.record()
    state = initial_state(rec.created)
    painter = MovePainter()
    compared = 0
    for stored in record.events[1:]:
        evolve(state, stored.event)
        if state.version % 25 == 0:
            seen = view(state, 0)
            whole = to_png(board_svg(state, seen, title="g-png"))
            assert pixels(painter.png(state, seen, title="g-png")) == pixels(whole)
            compared += 1
    assert compared >= 4


def test_harbor_labels_name_the_resource_as_the_bank_does_and_fit_their_box() -> None:
    rec = Recorder.new("g-harbor", b"harbor-labels", turn_limit=1)
    state = initial_state(rec.created)
    svg = board_svg(state, view(state, None))
    assert "2:1 lumber" in svg
    assert "wood" not in svg
    label = svg.index("2:1 lumber")
    box = svg.rindex('width="', 0, label)
    width = float(svg[box + 7: svg.index('"', box + 7)])
    assert width >= 7 * len("2:1 lumber")  # ~6.6 px per character at font-size 11
