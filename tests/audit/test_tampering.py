"""`hexlog audit` catches every kind of tampering with an archived game: an edited resource, a
changed die, a stolen card or development card changed, a deleted entry, an edited command, a
forged seed, a forged ruling, events without a command. An honest archive audits clean."""

from __future__ import annotations

import json

import pytest
from recording import Recorder, bot_chooser
from tampering_kit import Lines, audit_lines, events_of, tampered

from events.commands import EndTurn, RollDice
from services.audit.archive import dump_lines, read_lines
from services.audit.audit import AuditReport, audit
from services.rules.engine import Rejected


@pytest.fixture(scope="module")
def archive() -> list[bytes]:
    """A finished 4-seat game (turn limit) with two rejections on its rulings stream."""
    rec = Recorder.new("g-tamper", b"tamper-seed", seats=4, turn_limit=40)
    rec.play(bot_chooser(["heuristic", "random", "heuristic", "random"]),
             until=lambda r: r.state.turn >= 3 and r.state.phase == "roll")
    seat = rec.state.current
    assert isinstance(rec.send(EndTurn(seat=seat)), Rejected)  # must roll first
    assert isinstance(rec.send(RollDice(seat=(seat + 1) % 4)), Rejected)  # not its turn
    rec.play(bot_chooser(["heuristic", "random", "heuristic", "random"]))
    return list(dump_lines(rec.record(), "finished"))


def kinds(report: AuditReport) -> set[str]:
    return {d.kind for d in report.divergences}


def test_an_honest_archive_audits_clean(archive: list[bytes]) -> None:
    report = audit_lines(archive)
    assert report.exit_code == 0, report.to_dict()
    assert report.seed == "revealed"
    assert report.commands > 100
    assert report.chance > 20
    assert report.rulings == 2


def test_a_changed_die_is_caught_at_its_version(archive: list[bytes]) -> None:
    def edit(objs: Lines) -> None:
        roll = events_of(objs, "DiceRolled")[10]
        ev = roll["envelope"]["event"]
        ev["d1"] = ev["d1"] % 6 + 1
        edit.version = roll["envelope"]["version"]  # type: ignore[attr-defined]

    report = tampered(archive, edit)
    assert report.exit_code == 1
    first = report.divergences[0]
    assert (first.version, first.kind) == (edit.version, "chance")  # type: ignore[attr-defined]
    assert "DiceRolled.d1" in first.message
    assert first.command.startswith('{"type":"RollDice"')


def test_an_edited_resource_is_caught(archive: list[bytes]) -> None:
    def edit(objs: Lines) -> None:
        produced = events_of(objs, "ResourcesProduced")[5]
        gains = produced["envelope"]["event"]["gains"]
        seat = next(i for i, g in enumerate(gains) if g)
        gains[seat]["ore"] = gains[seat].get("ore", 0) + 2
        edit.version = produced["envelope"]["version"]  # type: ignore[attr-defined]

    report = tampered(archive, edit)
    assert report.exit_code == 1
    first = report.divergences[0]
    assert first.version == edit.version
    assert first.kind == "events"
    assert "ResourcesProduced.gains" in first.message


def test_a_changed_stolen_card_is_caught(archive: list[bytes]) -> None:
    def edit(objs: Lines) -> None:
        stolen = events_of(objs, "CardStolen")[0]["envelope"]["event"]
        stolen["resource"] = "ore" if stolen["resource"] != "ore" else "wool"

    report = tampered(archive, edit)
    assert report.exit_code == 1
    assert report.divergences[0].kind == "chance"
    assert "CardStolen.resource" in report.divergences[0].message


def test_a_changed_development_card_is_caught(archive: list[bytes]) -> None:
    def edit(objs: Lines) -> None:
        bought = events_of(objs, "DevelopmentCardBought")[0]["envelope"]["event"]
        bought["card"] = "monopoly" if bought["card"] != "monopoly" else "knight"

    report = tampered(archive, edit)
    assert report.exit_code == 1
    assert report.divergences[0].kind == "chance"


def test_a_deleted_entry_is_caught(archive: list[bytes]) -> None:
    def edit(objs: Lines) -> None:
        victim = events_of(objs, "RoadBuilt")[8]
        edit.version = victim["envelope"]["version"]  # type: ignore[attr-defined]
        objs.remove(victim)

    report = tampered(archive, edit)
    assert report.exit_code == 1
    assert report.divergences[0].kind == "structure"
    assert report.divergences[0].version == edit.version  # type: ignore[attr-defined]


def test_a_deleted_entry_with_the_log_renumbered_is_caught(archive: list[bytes]) -> None:
    """Delete the production of a roll and renumber every later event: the gap is gone, but
    the rules give the production the log no longer has."""

    def edit(objs: Lines) -> None:
        victim = events_of(objs, "ResourcesProduced")[3]
        gone = victim["envelope"]["version"]
        objs.remove(victim)
        for o in objs:
            if o["kind"] == "event" and o["envelope"]["version"] > gone:
                o["envelope"]["version"] -= 1
            elif o["kind"] == "ruling" and int(o["ruling"]["version"]) > gone:
                o["ruling"]["version"] = str(int(o["ruling"]["version"]) - 1)
        edit.version = gone  # type: ignore[attr-defined]

    report = tampered(archive, edit)
    assert report.exit_code == 1
    assert report.divergences[0].version == edit.version  # type: ignore[attr-defined]
    assert report.divergences[0].kind == "events"


def test_an_edited_command_is_caught(archive: list[bytes]) -> None:
    def edit(objs: Lines) -> None:
        road = next(o for o in events_of(objs, "RoadBuilt") if o.get("command", {}).get("type") == "BuildRoad")
        road["command"]["edge"] = (road["command"]["edge"] + 1) % 72

    report = tampered(archive, edit)
    assert report.exit_code == 1
    assert report.divergences[0].kind in ("events", "rejected")


def test_a_forged_seed_is_caught_by_the_commitment(archive: list[bytes]) -> None:
    def edit(objs: Lines) -> None:
        end = events_of(objs, "GameFinished")[0]["envelope"]["event"]
        end["seed"] = "00" * 16

    report = tampered(archive, edit)
    assert report.exit_code == 1
    assert "commitment" in kinds(report)


def test_a_forged_ruling_is_caught(archive: list[bytes]) -> None:
    def edit(objs: Lines) -> None:
        ruling = next(o for o in objs if o["kind"] == "ruling")
        ruling["ruling"]["rule_id"] = "base.build.distance"

    report = tampered(archive, edit)
    assert report.exit_code == 1
    (d,) = report.divergences
    assert d.kind == "ruling"
    assert d.recorded == "base.build.distance"
    assert d.expected in ("base.roll.required", "base.turn.not_your_turn")


def test_events_without_a_command_are_caught(archive: list[bytes]) -> None:
    def edit(objs: Lines) -> None:
        built = next(o for o in events_of(objs, "CityBuilt"))
        del built["command"]

    report = tampered(archive, edit)
    assert report.exit_code == 1
    assert "missing_command" in kinds(report)


def test_an_unfinished_archive_without_the_seed_is_incomplete(archive: list[bytes]) -> None:
    last = json.loads(next(line for line in archive if b'"GameFinished"' in line))
    batch = f'"command_id":"{last["envelope"]["command_id"]}"'.encode()
    cut = [line for line in archive if batch not in line]  # the whole last command is gone
    _, record = read_lines(cut)
    report = audit(record)
    assert report.exit_code == 3
    assert not report.divergences
    assert report.seed == "none"
    assert report.skipped
    assert audit(record, seed=b"tamper-seed").exit_code == 0  # the referee's seed completes it
