"""Phases shown to people are words a player knows: every phase of the base game and of each
module has its words, and in a played game of each rule system the panel and the text board
never show a rules id such as `caravans.name`."""

from __future__ import annotations

import importlib
import pkgutil
import re
import xml.etree.ElementTree as ET
from typing import Any

import services.rules.engine as engine
from services.render.phases import PHASE_WORDS, phase_words
from services.render.picture import picture_of
from services.render.replay import Viewer, fold_to
from services.render.text import status_line
from services.rules.engine import evolve, initial_state, view

SVG = "{http://www.w3.org/2000/svg}"
DOTTED = re.compile(r"\b[a-z_]+\.[a-z_]+\b")


def engine_phases() -> dict[str, str]:
    """Each phase id the engine's modules define (`NAME = "module.phase"`, keys aside), and
    where: the base game's, in services/rules/engine/state.py, are listed by hand."""
    found = {}
    for info in pkgutil.walk_packages(engine.__path__, f"{engine.__name__}."):
        try:
            module = importlib.import_module(info.name)
        except ImportError:  # a helper of the compiled build only
            continue
        for name, value in vars(module).items():
            if (name.isupper() and not name.endswith("_KEY") and isinstance(value, str)
                    and re.fullmatch(r"[a-z_]+\.[a-z_]+", value)):
                found[value] = f"{info.name}.{name}"
    return found


def test_every_phase_has_words() -> None:
    from services.rules.engine import state

    base = {getattr(state, n) for n in ("SETUP", "ROLL", "DISCARD", "ROBBER", "MAIN",
                                         "ROAD_BUILDING", "TRADE", "OVER")}
    phases = engine_phases()
    assert "caravans.name" in phases
    missing = sorted(p for p in {*base, *phases} if p not in PHASE_WORDS)
    assert not missing, missing
    for words in PHASE_WORDS.values():
        assert "_" not in words, words
        assert not DOTTED.search(words), words
    assert phase_words("some_module.new_phase") == "new phase"


def test_every_prompt_stage_has_words() -> None:
    """What the chat's prompt line names ("Your move (camel bidding, v12)"): every stage a
    module declares, and the base game's."""
    from services.rules.engine.modules import declared_stages

    stages = declared_stages()
    assert "setup_settlement" in stages
    missing = sorted(s for s in stages if s not in PHASE_WORDS)
    assert not missing, missing


def test_no_panel_shows_a_rules_id(game: Any) -> None:
    """At the first version of each phase the game reached: the panel's status line and the
    text board's say the phase in words."""
    state = initial_state(game.created)
    first: dict[str, int] = {}
    for stored in game.events:
        if stored.version > 1:
            evolve(state, stored.event)
        first.setdefault(state.phase, stored.version)
    assert len(first) > 2, first
    for phase, version in first.items():
        at = fold_to(game, version)
        root = ET.fromstring(picture_of(game, at, Viewer()))
        status = [" ".join(t.itertext()) for t in root.iter(f"{SVG}text")
                  if t.get("class") in ("status", "title")]
        text = status_line(view(at, None), "spectator")
        for line in [*status, text]:
            assert not DOTTED.search(line.replace(game.game_id, "")), (phase, line)
        if not at.finished:
            assert phase_words(phase) in " ".join(status) + text, (phase, status)
