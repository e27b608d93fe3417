"""Every picture shows what the game's state holds, as symbols a player recognises, and
explains them: for the base game, each variant and each scenario, at two points of a played
game, every piece and marker of the state is drawn (counted from the state, and each module's
marks from its own `drawing` hook), none as a bare text tag, each kind with a legend entry
(`#legend`); the panel shows each seat's scenario holdings."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from services.render.picture import picture_of
from services.render.replay import Viewer, fold_to
from services.render.svg import HOLDINGS, holding_words
from services.rules.engine import view
from services.rules.engine.modules import MODULES
from services.rules.engine.state import CITY, NO_ONE, State

SVG = "{http://www.w3.org/2000/svg}"


class Recording:
    """A `Sketch` that keeps what a module asks to draw."""

    def __init__(self) -> None:
        self.marks: list[tuple[str, int, str]] = []

    def mark(self, place: str, site: int, text: str) -> None:
        self.marks.append((place, site, text))


def by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def states(game: Any) -> list[State]:
    return [fold_to(game, game.version * 2 // 3), fold_to(game)]


def test_every_piece_of_the_state_is_drawn(game: Any) -> None:
    for state in states(game):
        root = ET.fromstring(picture_of(game, state, Viewer()))
        owned = [(v, o) for v, o in enumerate(state.vertex_owner) if o != NO_ONE]
        settlements = {v for v, _ in owned if state.vertex_level[v] != CITY}
        cities = {v for v, _ in owned if state.vertex_level[v] == CITY}
        roads = {e for e, o in enumerate(state.edge_owner) if o != NO_ONE}
        assert {int(e.get("data-vertex", -1)) for e in by_class(root, "settlement")} == settlements
        assert {int(e.get("data-vertex", -1)) for e in by_class(root, "city")} == cities
        assert {int(e.get("data-edge", -1)) for e in by_class(root, "road")} == roads
        robber = by_class(root, "robber")
        assert [int(r.get("data-hex", -1)) for r in robber] == (
            [state.robber] if 0 <= state.robber < len(state.board.topo.hexes) else [])
        assert len(by_class(root, "harbor")) == len(state.board.harbors)
        assert len(by_class(root, "token")) == sum(1 for ns in state.board.hex_numbers if ns)


def test_every_module_marker_is_a_symbol_with_a_legend_entry(game: Any) -> None:
    for state in states(game):
        root = ET.fromstring(picture_of(game, state, Viewer()))
        legend = [e for e in root.iter() if e.get("id") == "legend"]
        assert len(legend) == 1
        explained = {e.get("data-kind") for e in by_class(legend[0], "legend-entry")}
        drawn = {(e.get("data-place"), int(e.get("data-site", -1))): e
                 for e in by_class(root, "symbol")}
        for spec in state.rules.modules:
            hook = MODULES[spec.name].drawing
            if hook is None:
                continue
            sketch = Recording()
            hook(state, sketch)
            for place, site, text in sketch.marks:
                symbol = drawn.get((place, site))
                assert symbol is not None, (spec.name, place, site, text)
                kind = symbol.get("data-kind")
                assert kind != "tag", (spec.name, text)  # a symbol, not a text tag
                assert kind in explained, (kind, explained)
        for kind in ("settlement", "city", "road", "robber", "harbor", "token"):
            if by_class(root, kind):
                assert kind in explained, kind
        if len(state.players) > state.n:  # neutral players' pieces
            assert "neutral" in explained
        if by_class(root, "river"):
            assert "river" in explained


def test_the_panel_shows_each_seats_holdings(game: Any) -> None:
    state = fold_to(game)
    for seat in range(state.n):
        seen = view(state, seat)
        root = ET.fromstring(picture_of(game, state, Viewer(seat=seat)))
        box = next(g for g in by_class(root, "player") if g.get("data-seat") == str(seat))
        text = " ".join("".join(t.itertext()) for t in by_class(box, "holdings"))
        for module, ext in seen.ext.items():
            if not isinstance(ext, dict):
                continue
            for key in HOLDINGS:
                words = holding_words(module, key)
                values = ext.get(key)
                if isinstance(values, list) and len(values) == state.n and values[seat] and (
                        not isinstance(values[seat], dict) or any(values[seat].values())):
                    assert words in text, (key, text)
