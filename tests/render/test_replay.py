"""Replays (services/render/replay.py): the fold of the archived log at any version equals the
live state the game had at that version — undo included, for every ruleset — and a seat's
replay never shows another seat's hand, development cards or the seed before the end."""

from __future__ import annotations

import re
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from recording import Recorder, bot_chooser

from events.disputes import ApproveUndo, ProposeUndo
from events.events import CardStolen, DevelopmentCardBought, GameFinished, ModuleSpec
from events.types import DEV_CARDS, RESOURCES
from services.audit.archive import dump_lines, read_lines
from services.audit.audit import audit
from services.render.replay import Viewer, render
from services.rules.engine import Rejected, view
from services.rules.record import GameRecord

UNDO = ModuleSpec(name="undo", params={"policy": "consent"})
RULESETS = {
    "base": ((), 4),
    "friendly-robber": ((ModuleSpec(name="friendly-robber"),), 3),
    "event-cards": ((ModuleSpec(name="event-cards"),), 4),
    "catan-for-two": ((ModuleSpec(name="catan-for-two"),), 2),
}


@cache
def played(name: str) -> tuple[GameRecord, dict[int, dict[str, object]]]:
    """A game of random bots with an undo of the last command proposed every 7 decisions (approved when legal),
    archived and read back; and the live state after every event."""
    modules, seats = RULESETS[name]
    rec = Recorder.new(f"g-replay-{name}", f"replay:{name}".encode(), seats=seats,
                       modules=(*modules, UNDO), turn_limit=25, keep_states=True)
    bots = bot_chooser(("random",) * seats)
    for i in range(5000):
        if rec.state.finished:
            break
        seat = rec.prompt().seat
        before_last = rec.record().batches[-1].first - 1  # undo the last command
        if i % 7 == 6 and not isinstance(rec.send(ProposeUndo(seat=seat, to_version=before_last)), Rejected):
            for other in range(seats):
                if other != seat:
                    rec.send(ApproveUndo(seat=other))
            continue
        result = rec.send(bots(rec, rec.prompt()))
        assert not isinstance(result, Rejected), result
    assert rec.state.finished
    _, record = read_lines(dump_lines(rec.record()))
    return record, rec.live


@pytest.mark.parametrize("name", RULESETS)
def test_a_game_with_undos_folds_and_audits_clean_in_every_ruleset(name: str) -> None:
    record, live = played(name)
    reverts = [r for r in record.events if type(r.event).__name__ == "Reverted"]
    assert reverts, "the game must exercise undo"
    assert record.state_at(record.version).to_dict() == live[record.version]
    report = audit(record)
    assert report.exit_code == 0, report.to_dict()


@pytest.mark.parametrize("name", RULESETS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_replay_at_any_version_equals_the_live_state_then(name: str, data: st.DataObject) -> None:
    record, live = played(name)
    version = data.draw(st.integers(min_value=1, max_value=record.version), label="version")
    assert record.state_at(version).to_dict() == live[version]


def table_rows(text: str) -> dict[int, str]:
    rows = {}
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("seat name"))
    for line in lines[start + 1:]:
        if not line.strip():
            break
        rows[int(line.split()[0])] = line
    return rows


SECRET_WORDS = re.compile(r"\b(" + "|".join(RESOURCES + tuple(c for c in DEV_CARDS)) + r")\b")


@pytest.mark.parametrize("name", ["base", "friendly-robber"])
def test_a_seat_never_sees_another_seats_cards_or_the_seed_before_the_end(name: str) -> None:
    record, _ = played(name)
    seed = next(r.event for r in record.events if isinstance(r.event, GameFinished)).seed
    seats = record.created.seats
    secret_events = [r for r in record.events if isinstance(r.event, (CardStolen, DevelopmentCardBought))]
    assert secret_events, "the game must have hidden information to hide"
    for version in range(2, record.version, 7):
        for who in [Viewer(seat=s) for s in range(seats)] + [Viewer()]:
            text = render(record, version, who)
            assert seed not in text
            for seat, row in table_rows(text).items():
                if seat != who.seat:
                    assert not SECRET_WORDS.search(row), (who, version, row)
            lines = {int(line.split()[0][1:]): line for line in text.splitlines() if re.match(r"v\d+ ", line)}
            for r in secret_events:
                if r.version > version:
                    continue
                e = r.event
                if isinstance(e, CardStolen) and who.seat not in (e.thief, e.victim):
                    assert " stole a card from " in lines[r.version]
                if isinstance(e, DevelopmentCardBought) and who.seat != e.seat:
                    assert lines[r.version].endswith("bought a development card")
            state = record.state_at(version)
            for p in view(state, who.seat).players:
                if p.seat != who.seat:
                    assert p.hand is None
                    assert p.dev_hand is None
                    assert p.vp is None


def test_the_referee_sees_everything_and_the_end_reveals_the_seed() -> None:
    record, _ = played("base")
    seed = next(r.event for r in record.events if isinstance(r.event, GameFinished)).seed
    bought = next(r for r in record.events if isinstance(r.event, DevelopmentCardBought))
    text = render(record, bought.version, Viewer(referee=True))
    card = bought.event.card
    assert card is not None
    assert f"bought a development card ({card.replace('_', ' ')})" in text
    assert all(p.hand is not None for p in view(record.state_at(bought.version), None, referee=True).players)
    assert seed in render(record, None, Viewer())  # after the end, for everyone
