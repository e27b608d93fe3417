"""Pictures of an environment's game: the board renderer's SVG as an RGB array, or the text
board with the players' table, both as `seat` sees the game (None: a spectator)."""

from __future__ import annotations

import io

import numpy as np

from services.rules.engine import State, view


def rgb_array(state: State, seat: int | None) -> np.ndarray:
    """(height, width, 3) uint8: the picture `hexlog render` draws."""
    import cairocffi
    import cairosvg

    from services.render.svg import board_svg

    # cairosvg directly, as services.render.picture.to_png does: that module reads records,
    # which bots may not import (the layers in pyproject.toml).
    png = cairosvg.svg2png(bytestring=board_svg(state, view(state, seat)).encode())
    surface = cairocffi.ImageSurface.create_from_png(io.BytesIO(png))
    h, w, stride = surface.get_height(), surface.get_width(), surface.get_stride()
    bgra = np.frombuffer(bytes(surface.get_data()), dtype=np.uint8).reshape(h, stride // 4, 4)
    return np.ascontiguousarray(bgra[:, :w, 2::-1])  # cairo's ARGB32 is B, G, R, A in memory


def ansi(state: State, seat: int | None) -> str:
    from services.render.text import players_table, render_board, status_line

    seen = view(state, seat)
    who = "spectator" if seat is None else f"seat {seat}"
    return "\n".join([render_board(state), players_table(seen), status_line(seen, who)]) + "\n"
