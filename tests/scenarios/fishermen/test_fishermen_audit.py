"""`hexlog audit` on a Fishermen game: an honest archive re-judges bit for bit (every fish draw
re-drawn from the seed); a tampered fish draw, a forged boot and an edited fishing-ground
number are each caught."""

from __future__ import annotations

import pytest
from recording import Recorder, bot_chooser
from tampering_kit import Lines, audit_lines, events_of, tampered

from events.events import ModuleSpec
from services.audit.archive import dump_lines
from services.rules.engine.scenarios.fishermen.common import GROUNDS_KEY


@pytest.fixture(scope="module")
def archive() -> list[bytes]:
    rec = Recorder.new("g-fish", b"fish-audit", seats=4, modules=[ModuleSpec(name="fishermen")],
                       turn_limit=120)
    rec.play(bot_chooser(["heuristic", "random", "heuristic", "random"]), max_decisions=20_000)
    return list(dump_lines(rec.record(), "finished"))


def test_an_honest_fishermen_archive_audits_clean(archive: list[bytes]) -> None:
    report = audit_lines(archive)
    assert report.exit_code == 0, report.to_dict()
    assert report.seed == "revealed"
    assert report.chance > 50


def test_a_tampered_fish_draw_is_caught_as_chance(archive: list[bytes]) -> None:
    def edit(objs: Lines) -> None:
        drawn = events_of(objs, "FishDrawn")[3]["envelope"]["event"]
        drawn["fish"] = drawn["fish"] % 3 + 1

    report = tampered(archive, edit)
    assert report.exit_code == 1
    assert report.divergences[0].kind == "chance"
    assert "FishDrawn.fish" in report.divergences[0].message


def test_a_forged_boot_is_caught(archive: list[bytes]) -> None:
    def edit(objs: Lines) -> None:
        boot = events_of(objs, "OldBootDrawn")[0]["envelope"]["event"]
        boot["seat"] = (boot["seat"] + 1) % 4

    report = tampered(archive, edit)
    assert report.exit_code == 1


def test_edited_fishing_grounds_are_caught_at_creation(archive: list[bytes]) -> None:
    def edit(objs: Lines) -> None:
        created = events_of(objs, "GameCreated")[0]["envelope"]["event"]
        grounds = created["setup"][GROUNDS_KEY]
        grounds[2], grounds[5] = grounds[5], grounds[2]

    report = tampered(archive, edit)
    assert report.exit_code == 1
    assert report.divergences[0].kind == "created"
