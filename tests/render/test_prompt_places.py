"""Every place a move can name carries a label, read back by the chat: in a played game of
each rule system, each place a prompt's option names (its corner, path or hex, a ship's path
out at sea included) is labelled on the `--labels` picture and marked on the prompt's own
picture; in Pirate Islands each such option, typed as its words and labels (`ship AJ3-4`),
is read back by the chat's move parser as that very option."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import msgspec
from recording import Recorder, bot_chooser

from events.events import ModuleSpec
from events.prompts import Prompt
from services.chat.moves import describe, parse, targets
from services.chat.words import places_of
from services.render.places import command_places, labels_of
from services.render.svg import Target, board_svg
from services.rules.engine import view
from services.rules.engine.state import State

SVG = "{http://www.w3.org/2000/svg}"
LABEL_CLASSES = {"hex": "hex-label", "vertex": "vertex-label", "edge": "edge-label"}


def drawn(svg: str, cls: str) -> set[str]:
    root = ET.fromstring(svg)
    return {"".join(g.itertext()) for g in root.iter(f"{SVG}g") if g.get("class") == cls}


def prompts_of(name: str) -> tuple[State, list[tuple[State, Prompt]]]:
    """A game of `name` played by bots, with the state at a sample of its prompts (each with
    an option naming a place) and the final state."""
    modules = () if name == "base" else (ModuleSpec(name=name),)
    seats = 2 if name == "catan-for-two" else 3
    rec = Recorder.new(f"g-places-{name}", f"places:{name}".encode(), seats=seats,
                       modules=modules, turn_limit=60)
    choose = bot_chooser(("heuristic",) + ("random",) * (seats - 1))
    seen: list[tuple[State, Prompt]] = []
    types: set[str] = set()

    def chooser(r: Recorder, prompt: Prompt) -> Any:
        named = [o for o in prompt.options if command_places(msgspec.to_builtins(o))]
        kinds = {type(o).__name__ for o in named}
        if named and (not kinds <= types or len(seen) % 7 == 0):
            seen.append((r.state.copy(), prompt))
            types.update(kinds)
        return choose(r, prompt)

    rec.play(chooser)
    return rec.state, seen


def test_every_place_a_prompt_offers_is_labelled_and_marked(rule_system: str) -> None:
    final, seen = prompts_of(rule_system)
    assert seen
    names = labels_of(final.board.topo)
    every = board_svg(final, view(final, None), labels=True)
    labelled = {kind: drawn(every, cls) for kind, cls in LABEL_CLASSES.items()}
    missing: set[str] = set()
    for state, prompt in seen:
        options = [msgspec.to_builtins(o) for o in prompt.options]
        offered = sorted({p for o in options for p in targets(o)})
        for kind, site in offered:
            label = getattr(names, {"hex": "hexes", "vertex": "vertices", "edge": "edges"}[kind])[site]
            assert names.find(label) == (kind, site)
            if label not in labelled[kind]:
                missing.add(f"{kind} {label}")
        marked = board_svg(state, view(state, prompt.seat),
                           targets=[Target(k, s) for k, s in offered])
        assert len(drawn_targets(marked)) == len(offered)
    assert not missing, sorted(missing)[:20]


def drawn_targets(svg: str) -> list[tuple[str | None, str | None]]:
    root = ET.fromstring(svg)
    return [(g.get("data-place"), g.get("data-site")) for g in root.iter(f"{SVG}g")
            if g.get("class") == "target"]


def test_pirate_islands_moves_are_typed_by_their_labels() -> None:
    """Ships out at sea (paths between two sea hexes), a ship sailing on, a fortress attacked:
    each option is typed back as words and labels and read as itself."""
    _, seen = prompts_of("pirate-islands")
    typed: set[str] = set()
    sea_paths = 0
    for state, prompt in seen:
        places = places_of(msgspec.to_builtins(view(state, prompt.seat)))
        assert places is not None
        topo = state.board.topo
        as_json = msgspec.to_builtins(prompt)
        for o in as_json["options"]:
            if not targets(o) or o["type"] not in ("BuildShip", "MoveShip", "AttackFortress",
                                                   "BuildRoad", "PlaceRoad", "BuildSettlement",
                                                   "PlaceSettlement", "BuildCity", "MoveRobber"):
                continue
            text = describe(o, places)
            assert parse(text, as_json, prompt.seat, places) == o, text
            typed.add(o["type"])
            sea_paths += sum(1 for kind, e in targets(o)
                             if kind == "edge" and not topo.edge_is_land[e])
    assert {"BuildShip", "MoveShip"} & typed, typed
    assert sea_paths  # ship paths out at sea were offered and read back
