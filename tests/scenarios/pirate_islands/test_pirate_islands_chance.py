"""Chance and secrets of The Pirate Islands (docs/rules/chance-and-hidden-information.md §14.11):
every die and draw comes from the seed and is recorded; `hexlog audit` re-judges a game bit for
bit and catches a tampered fleet loot, fortress throw or die; hands and development cards never
show in another seat's view, a spectator's or a prompt."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pirate_helpers import PIRATES
from recording import Recorder, bot_chooser
from tampering_kit import audit_lines, audit_objects

from events.codec import codec
from events.events import DevelopmentCardBought
from events.pirate_islands import FleetLooted
from services.audit.archive import dump_lines
from services.audit.audit import AuditReport
from services.rules.engine import pending, redact, view

Lines = list[dict[str, Any]]
BOTS = ["heuristic", "random", "heuristic", "random"]


@pytest.fixture(scope="module")
def archive() -> list[bytes]:
    rec = Recorder.new("g-pirates", b"pirate-seed", seats=4, modules=[PIRATES], turn_limit=200)
    rec.play(bot_chooser(BOTS), max_decisions=20_000)
    return list(dump_lines(rec.record(), "finished"))


def tampered(archive: list[bytes], tag: str, edit: Any) -> AuditReport:
    objs = [json.loads(line) for line in archive]
    found = [o for o in objs if o["kind"] == "event" and o["envelope"]["event"]["type"] == tag]
    assert found, f"no {tag} in the game"
    edit(found[0]["envelope"]["event"])
    return audit_objects(objs)


def test_an_honest_pirate_game_audits_clean(archive: list[bytes]) -> None:
    report = audit_lines(archive)
    assert report.exit_code == 0, report.to_dict()
    assert report.seed == "revealed"


def test_a_tampered_fleet_loot_is_caught(archive: list[bytes]) -> None:
    def edit(e: dict[str, Any]) -> None:
        ores = {"ore": e["count"]}
        e["resources"] = ores if e["resources"] != ores else {"wool": e["count"]}

    assert tampered(archive, "FleetLooted", edit).exit_code == 1


def test_a_tampered_fortress_throw_is_caught(archive: list[bytes]) -> None:
    def edit(e: dict[str, Any]) -> None:
        e["roll"] = e["roll"] % 6 + 1

    assert tampered(archive, "FortressAttacked", edit).exit_code == 1


def test_a_tampered_fleet_move_is_caught(archive: list[bytes]) -> None:
    def edit(e: dict[str, Any]) -> None:
        e["steps"] = e["steps"] % 6 + 1

    assert tampered(archive, "FleetMoved", edit).exit_code == 1


def test_hands_and_cards_stay_hidden() -> None:
    rec = Recorder.new("g-secret", b"secret", seats=4, modules=[PIRATES], turn_limit=120)
    choose = bot_chooser(BOTS)
    looted = bought = 0
    while not rec.state.finished:
        state = rec.state
        for seat in (None, 0, 1, 2, 3):
            v = view(state, seat)
            for p in v.players:
                if p.seat != seat:
                    assert p.hand is None
                    assert p.dev_hand is None
                    assert p.vp is None
            encoded = codec().encode(v)
            assert b"fleetloss" not in encoded
        for prompt in pending(state):  # a prompt shows only its own seat's hand
            if prompt.hand is not None:
                assert prompt.hand == view(state, prompt.seat).players[prompt.seat].hand
        prompt = rec.prompt()
        events = rec.send(choose(rec, prompt))
        assert isinstance(events, list)
        for e in events:
            for seat in (None, 0, 1, 2, 3):
                seen = redact(rec.state, e, seat)
                if isinstance(e, FleetLooted):
                    looted += 1
                    assert (seen.resources is None) == (seat != e.seat)  # type: ignore[attr-defined]
                if isinstance(e, DevelopmentCardBought):
                    bought += 1
                    assert (seen.card is None) == (seat != e.seat)  # type: ignore[attr-defined]
    assert looted
    assert bought
