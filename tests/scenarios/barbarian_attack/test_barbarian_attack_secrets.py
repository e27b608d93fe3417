"""Chance and hidden information (docs/rules/chance-and-hidden-information.md §14.9): every
throw and draw comes from the seed and is recorded; hands (and the card a 7 steals) are seen
only by their owners and the referee; the development deck's order is never in any view
(only the counts left, public since every card is shown); `hexlog audit` passes an honest
game and catches a tampered landing throw, card draw, prisoner throw or colour die."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from ba_helpers import SPEC
from recording import Recorder, bot_chooser
from tampering_kit import audit_lines, audit_objects

from events.events import CardStolen
from services.audit.archive import dump_lines
from services.audit.audit import AuditReport
from services.rules.engine import redact, view

Lines = list[dict[str, Any]]


@pytest.fixture(scope="module")
def recorded() -> Recorder:
    rec = Recorder.new("g-ba-secrets", b"ba-secret-seed", seats=3, modules=[SPEC],
                       turn_limit=300)
    rec.play(bot_chooser(["heuristic", "heuristic", "random"]), max_decisions=20_000)
    return rec


@pytest.fixture(scope="module")
def archive(recorded: Recorder) -> list[bytes]:
    return list(dump_lines(recorded.record(), "finished"))


def tampered(archive: list[bytes], tag: str, field: str, change: Callable[[Any], Any]) -> AuditReport:
    objs: Lines = [json.loads(line) for line in archive]
    found = [o for o in objs if o["kind"] == "event" and o["envelope"]["event"]["type"] == tag]
    assert found, f"no {tag} in the game"
    ev = found[len(found) // 2]["envelope"]["event"]
    ev[field] = change(ev[field])
    return audit_objects(objs)


def test_an_honest_barbarian_attack_game_audits_clean(archive: list[bytes]) -> None:
    report = audit_lines(archive)
    assert report.exit_code == 0, report.to_dict()
    assert report.seed == "revealed"


def test_a_tampered_landing_throw_is_caught(archive: list[bytes]) -> None:
    report = tampered(archive, "BarbariansLanded", "totals",
                      lambda t: [t[0] + 1 if t[0] < 12 else 2, *t[1:]])
    assert report.exit_code == 1


def test_a_tampered_card_draw_is_caught(archive: list[bytes]) -> None:
    report = tampered(archive, "AttackCardDrawn", "card",
                      lambda c: "intrigue" if c != "intrigue" else "treason")
    assert report.exit_code == 1


def test_a_tampered_prisoner_throw_off_is_caught(archive: list[bytes]) -> None:
    objs: Lines = [json.loads(line) for line in archive]
    contested = [o for o in objs if o["kind"] == "event"
                 and o["envelope"]["event"]["type"] == "CoastalBattleWon"
                 and o["envelope"]["event"]["throws"]]
    assert contested, "the recorded game must hold a contested battle: choose its seed so"
    ev = contested[0]["envelope"]["event"]
    ev["throws"] = [[(w + 1) % 3 for w in group] for group in ev["throws"]]
    assert audit_objects(objs).exit_code == 1


def test_a_tampered_colour_die_is_caught(archive: list[bytes]) -> None:
    report = tampered(archive, "CoastalBattleWon", "die", lambda d: d % 6 + 1)
    assert report.exit_code == 1


def test_hands_and_steals_are_hidden_from_other_seats(recorded: Recorder) -> None:
    state = recorded.state
    for seat in [*range(state.n), None]:
        seen = view(state, seat)
        for p in seen.players:
            assert (p.hand is not None) == (p.seat == seat)
        text = json.dumps(seen.ext["barbarian-attack"])
        assert "order" not in text  # only the count of cards left
        assert isinstance(seen.ext["barbarian-attack"]["deck"], int)
    referee = view(state, None, referee=True)
    assert all(p.hand is not None for p in referee.players)
    steals = [e.event for e in recorded.record().events
              if isinstance(getattr(e, "event", None), CardStolen)]
    assert steals
    for e in steals:
        for seat in [*range(state.n), None]:
            seen_e = redact(state, e, seat)
            assert isinstance(seen_e, CardStolen)
            assert (seen_e.resource is not None) == (seat in (e.thief, e.victim))


def test_a_snapshot_of_a_barbarian_attack_game_restores_equal(recorded: Recorder) -> None:
    from services.rules.engine import snapshot

    state = recorded.state
    again = snapshot.load(snapshot.dump(state), recorded.created)
    assert again.to_dict() == state.to_dict()


def test_the_board_drawing_marks_castle_barbarians_and_knights(recorded: Recorder) -> None:
    from services.rules.engine.scenarios.barbarian_attack.drawing import drawing

    marks: list[tuple[str, int, str]] = []

    class Sketch:
        def mark(self, place: str, site: int, text: str) -> None:
            marks.append((place, site, text))

    drawing(recorded.state, Sketch())
    assert ("hex", recorded.state.board.hex_id((-2, 2)), "castle") in marks
    knights = sum(len(p.pieces.get("knight", ())) for p in recorded.state.players)
    assert sum(1 for place, _, text in marks if place == "edge" and text.startswith("K")) == knights


def test_the_board_picture_shows_the_castle_and_the_knights(recorded: Recorder) -> None:
    from services.render.svg import board_svg

    state = recorded.state
    picture = board_svg(state, view(state, None))
    assert picture.startswith("<svg")
    assert "castle" in picture
    knights = sum(len(p.pieces.get("knight", ())) for p in state.players)
    assert picture.count(">K") >= knights
