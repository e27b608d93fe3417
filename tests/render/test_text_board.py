"""The text board (`hexlog replay`, `hexlog render --text`) needs no decoder: each mark a
module draws is listed under the board in the words of the picture's legend, with its place's
label, never as a tag such as `B2`, `@1s` or `X1`; the text legend names the same symbols as
the picture's."""

from __future__ import annotations

import re
from typing import Any

from services.render import symbols
from services.render.places import labels_of
from services.render.replay import fold_to
from services.render.text import legend, render_board
from services.rules.engine.modules import MODULES

TAG = re.compile(r"^(?:[A-Z]+\d[\w:]*|@\d\w?|\w+\d|KF|[~CMX])$")


class Marks:
    def __init__(self) -> None:
        self.module = ""
        self.found: list[tuple[str, str, int, str]] = []

    def mark(self, place: str, site: int, text: str) -> None:
        self.found.append((self.module, place, site, text))


def test_marks_are_listed_in_words_with_their_labels(game: Any) -> None:
    state = fold_to(game)
    marks = Marks()
    for spec in state.rules.modules:
        drawing = MODULES[spec.name].drawing
        if drawing is not None:
            marks.module = spec.name
            drawing(state, marks)
    board = render_board(state)
    names = labels_of(state.board.topo)
    listed = board.split("\non the board", 1)[1] if marks.found else ""
    words = legend(state)
    for module, place, site, text in marks.found:
        found = symbols.read(module, place, text)
        assert found.kind != "tag", (module, text)  # every mark is a symbol the legend knows
        label = {"hex": names.hexes, "vertex": names.vertices, "edge": names.edges}[place][site]
        said = symbols.words(found, lambda s: f"{state.names[s]} (")  # the words up to the colour
        line = next((x for x in listed.splitlines() if x.strip().startswith(said.split(" (")[0])
                     and re.search(rf"\b{re.escape(label)}\b", x)), None)
        assert line is not None, (text, said, label)
        assert symbols.LEGEND[found.kind] in words, found.kind
        if TAG.match(text):
            assert not re.search(rf"(?<![\w-]){re.escape(text)}(?![\w-])", listed + words), text
    if marks.found:
        assert "* a module's piece" in words
