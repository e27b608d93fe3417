"""`hexlog audit` on a Rivers game: the honest log re-judges bit for bit; a tampered layout
(the shuffled terrain, the 2 joining the 12), a changed die, edited gold and a forged bridge
are each caught."""

from __future__ import annotations

import pytest
from recording import Recorder, bot_chooser
from tampering_kit import Lines, audit_lines, change_a_die, event_types, events_of, tampered

from events.events import ModuleSpec
from services.audit.archive import dump_lines


@pytest.fixture(scope="module")
def archive() -> list[bytes]:
    rec = Recorder.new("rv-tamper", b"rivers-tamper", seats=3, modules=[ModuleSpec(name="rivers")],
                       turn_limit=300)
    rec.play(bot_chooser(["heuristic", "heuristic", "random"]), max_decisions=20_000)
    return list(dump_lines(rec.record(), "finished"))


def test_an_honest_rivers_archive_audits_clean(archive: list[bytes]) -> None:
    report = audit_lines(archive)
    assert report.exit_code == 0, report.to_dict()
    assert report.seed == "revealed"
    assert {"GoldEarned", "BridgeBuilt", "GameFinished"} <= event_types(archive)


def test_a_tampered_layout_is_caught(archive: list[bytes]) -> None:
    def edit(objs: Lines) -> None:
        created = events_of(objs, "GameCreated")[0]["envelope"]["event"]
        tiles = created["tiles"]  # [q, r, terrain, number] each
        a = next(t for t in tiles if t[2] == "forest")
        b = next(t for t in tiles if t[2] == "fields")
        a[2], b[2] = b[2], a[2]

    assert tampered(archive, edit).exit_code == 1


def test_a_moved_joining_2_is_caught(archive: list[bytes]) -> None:
    def edit(objs: Lines) -> None:
        created = events_of(objs, "GameCreated")[0]["envelope"]["event"]
        q, r, n = created["setup"]["numbers:extra"]
        other = next(t for t in created["tiles"] if (t[0], t[1]) != (q, r) and t[3])
        created["setup"]["numbers:extra"] = [other[0], other[1], n]

    assert tampered(archive, edit).exit_code == 1


def test_a_changed_die_is_caught(archive: list[bytes]) -> None:
    report = tampered(archive, change_a_die(7))
    assert report.exit_code == 1
    assert report.divergences[0].kind == "chance"


def test_edited_gold_is_caught(archive: list[bytes]) -> None:
    def edit(objs: Lines) -> None:
        ev = events_of(objs, "GoldEarned")[2]
        ev["envelope"]["event"]["gold"] += 2
        edit.version = ev["envelope"]["version"]  # type: ignore[attr-defined]

    report = tampered(archive, edit)
    assert report.exit_code == 1
    assert report.divergences[0].version == edit.version  # type: ignore[attr-defined]
    assert "GoldEarned.gold" in report.divergences[0].message


def test_a_forged_bridge_is_caught(archive: list[bytes]) -> None:
    def edit(objs: Lines) -> None:
        ev = events_of(objs, "BridgeBuilt")[0]["envelope"]["event"]
        ev["edge"] = (ev["edge"] + 1) % 72

    assert tampered(archive, edit).exit_code == 1
