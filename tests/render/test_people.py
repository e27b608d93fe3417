"""What a person reads and sees, for the base game, every variant and every scenario: the
final panel's score is `score()` (hidden VP cards included) and adds up; the last narration
line is whole; narration names places in words and labels, never by map coordinates or ids;
`--labels` draws every hex's, corner's and path's label, each label naming one place."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

from rule_games import RULE_SYSTEMS, played_game

from services.render.narrate import Context, narrate
from services.render.picture import picture, picture_of
from services.render.places import labels_of, nameable, unreadable_places
from services.render.replay import Viewer, fold_to, render
from services.rules.engine import evolve, initial_state, score
from services.rules.engine.modules import MODULES

SVG = "{http://www.w3.org/2000/svg}"


def texts(node: ET.Element, cls: str) -> list[str]:
    return ["".join(t.itertext()) for t in node.iter(f"{SVG}text") if t.get("class") == cls]


def test_the_final_panel_shows_the_final_score_for_every_seat(game: Any) -> None:
    state = fold_to(game)
    assert state.finished
    final = score(state)
    for who in (Viewer(), Viewer(seat=0), Viewer(referee=True)):
        root = ET.fromstring(picture_of(game, state, who))
        seats = [g for g in root.iter(f"{SVG}g") if g.get("class") == "player"]
        assert len(seats) == state.n
        for g in seats:
            seat = int(g.get("data-seat", "-1"))
            head = texts(g, "seat-vp")[0]
            assert head.endswith(f"— {final[seat]} VP final"), (head, final)
            parts = " ".join(texts(g, "vp-sum")).removeprefix("VP: ").split(" · ")
            assert sum(int(p.rsplit(" ", 1)[1]) for p in parts) == final[seat], parts


def test_hidden_vp_cards_count_in_a_final_score() -> None:
    """At least one of the games ends with a VP card in a hand, so the final panel shows more
    than the public VP somewhere (the cards are counted, not only the public points)."""
    shown = []
    for name in ("base", "event-cards", "caravans"):
        state = fold_to(played_game(name))
        cards = [sum(p.dev[c] for c in state.rules.vocab.point_cards)
                 for p in state.players[: state.n]]
        shown += [n for n in cards if n]
        root = ET.fromstring(picture_of(played_game(name), state, Viewer()))
        for g in root.iter(f"{SVG}g"):
            if g.get("class") == "player" and cards[int(g.get("data-seat", "0"))]:
                assert "VP card" in " ".join(texts(g, "vp-sum"))
    assert shown


def test_the_game_over_line_is_shown_whole(game: Any) -> None:
    root = ET.fromstring(picture(game, None, Viewer()))
    said = " ".join(texts(root, "narration"))
    assert said.startswith("Game over")
    state = fold_to(game)
    ctx = Context(state.names, state.board)
    for seat, vp in enumerate(game.events[-1].event.scores):
        assert f"{ctx.who(seat)} {vp}" in said
    assert said.rstrip().endswith(game.events[-1].event.seed[-8:])
    title = " ".join(texts(root, "title"))
    assert title == f"{game.game_id} · as spectator"


def test_narration_names_places_in_words_and_labels(game: Any) -> None:
    state = initial_state(game.created)
    ctx = Context(state.names, state.board)
    bad: dict[str, str] = {}
    placed = 0
    for stored in game.events:
        if stored.version > 1:
            evolve(state, stored.event)
        text = narrate(stored.event, ctx)
        if unreadable_places(text):
            bad.setdefault(type(stored.event).__name__, text)
        placed += bool(re.search(r"\((?:[A-Z]{1,2}\d?(?:-\d|-[A-Z]{1,2}\d)?)\)", text))
    assert not bad, bad
    assert placed  # the game built and moved somewhere: those lines carry a label


def test_the_text_replay_reads_no_coordinates(game: Any) -> None:
    text = render(game, None, Viewer(referee=True))
    events = text.split("\nevents 1..", 1)[1]
    assert not unreadable_places(events), unreadable_places(events)[:5]
    head = text.split("\nevents 1..", 1)[0]
    assert "places: hexes A, B" in head  # the labels explained
    # … and every mark a module writes on the text board, by the module's name.
    state = fold_to(game)
    for spec in state.rules.modules:
        if MODULES[spec.name].drawing is not None:
            assert f"\n{spec.name}: " in head, spec.name


def test_every_place_has_one_label_and_the_labels_picture_draws_them(game: Any) -> None:
    state = fold_to(game)
    topo = state.board.topo
    names = labels_of(topo)
    every = names.hexes + names.vertices + names.edges
    assert len(set(every)) == len(every)
    for kind, got in (("hex", names.hexes), ("vertex", names.vertices), ("edge", names.edges)):
        for i, label in enumerate(got):
            assert names.find(label.lower()) == (kind, i)
    root = ET.fromstring(picture(game, None, Viewer(), labels=True))
    drawn = {cls: {"".join(g.itertext()) for g in root.iter(f"{SVG}g") if g.get("class") == cls}
             for cls in ("hex-label", "vertex-label", "edge-label")}
    hexes, vertices, edges = nameable(state.board)
    assert drawn["hex-label"] == {names.hexes[h] for h in hexes}
    assert drawn["vertex-label"] == {names.vertices[v] for v in vertices}
    assert drawn["vertex-label"] >= {names.vertices[v] for v in topo.land_vertices}
    assert drawn["edge-label"] == {names.edges[e] for e in edges}
    assert drawn["edge-label"] >= {names.edges[e] for e in topo.land_edges}
    for lanes in state.board.edge_features.values():  # ship lanes at sea, bridge sites
        assert drawn["edge-label"] >= {names.edges[e] for e in lanes}
    plain = ET.fromstring(picture(game, None, Viewer()))
    assert not [g for g in plain.iter(f"{SVG}g") if g.get("class") == "labels"]


def test_rule_systems_listed_are_every_shipped_one() -> None:
    from services.rules.engine.modules import MODULES

    assert set(RULE_SYSTEMS) == {"base"} | {n for n, m in MODULES.items() if m.kind != "table"}


def test_messages_from_the_rules_name_places_as_people_do(game: Any) -> None:
    """A refusal names places by coordinates (the rules' own names); what people read has
    them as words and labels: hexes, corners and paths, and text around them unchanged."""
    state = fold_to(game)
    board = state.board
    ctx = Context(state.names, board)
    v = board.topo.land_vertices[len(board.topo.land_vertices) // 2]
    e = board.topo.land_edges[0]
    h = board.topo.land_hexes[-1]
    message = (f"no settlement at {board.vertex_name(v)}; the road at {board.edge_name(e)} "
               f"is taken; the robber may not stay on {board.hex_name(h)}.")
    said = ctx.readable(message)
    assert said == (f"no settlement at {ctx.vertex(v)}; the road at {ctx.edge(e)} is taken; "
                    f"the robber may not stay on {ctx.hex(h)}.")
    assert not unreadable_places(said)
