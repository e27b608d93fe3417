"""`hexlog audit` re-judges a Caravans game bit for bit from its seed (layout, dice, steals,
cards), and catches a tampered draw, bid or camel (docs/rules/chance-and-hidden-information.md
§14.8)."""

from __future__ import annotations

import json

import pytest
from recording import Recorder, bot_chooser
from tampering_kit import Lines, audit_lines, change_a_die, events_of, tampered

from events.events import ModuleSpec
from services.audit.archive import dump_lines


@pytest.fixture(scope="module")
def archive() -> list[bytes]:
    rec = Recorder.new("g-caravans-audit", b"caravans-audit", seats=3,
                       modules=(ModuleSpec(name="caravans"),))
    rec.play(bot_chooser(["heuristic", "random", "heuristic"]), max_decisions=20_000)
    lines = list(dump_lines(rec.record(), "finished"))
    tags = {json.loads(line).get("envelope", {}).get("event", {}).get("type") for line in lines}
    assert {"CamelVoteOpened", "CamelBidMade", "CamelPathNamed", "CamelVoteDecided",
            "CamelPlaced"} <= tags
    return lines


def test_caravans_game_audits_clean(archive: list[bytes]) -> None:
    report = audit_lines(archive)
    assert report.exit_code == 0, report.to_dict()
    assert report.seed == "revealed"
    assert report.chance > 20


def test_caravans_tampered_die_is_caught_as_chance(archive: list[bytes]) -> None:
    report = tampered(archive, change_a_die(7))
    assert report.exit_code == 1
    assert report.divergences[0].kind == "chance"


def test_caravans_tampered_layout_is_caught(archive: list[bytes]) -> None:
    def edit(objs: Lines) -> None:
        created = events_of(objs, "GameCreated")[0]["envelope"]["event"]
        tiles = created["tiles"]
        tiles[0][2], tiles[1][2] = tiles[1][2], tiles[0][2]  # swap two terrains
        if tiles[0][2] == tiles[1][2]:
            tiles[0][3], tiles[1][3] = tiles[1][3], tiles[0][3]

    assert tampered(archive, edit).exit_code == 1


def test_caravans_tampered_bid_and_camel_are_caught(archive: list[bytes]) -> None:
    def bid(objs: Lines) -> None:
        ev = events_of(objs, "CamelBidMade")[0]["envelope"]["event"]
        ev["wool"] += 1

    def camel(objs: Lines) -> None:
        placed = events_of(objs, "CamelPlaced")
        ev = placed[-1]["envelope"]["event"]
        ev["edge"] = placed[0]["envelope"]["event"]["edge"]

    assert tampered(archive, bid).exit_code == 1
    assert tampered(archive, camel).exit_code == 1
