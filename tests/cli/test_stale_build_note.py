"""A compiled engine older than its source is not used (services/rules/build.py): the Python
source runs, correct but slower. `hexlog` says so on stderr, with what to run."""

from __future__ import annotations

import pytest

import services.rules
from services.cli.main import stale_build_note


def test_a_stale_compiled_engine_is_named_with_the_command_that_rebuilds_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(services.rules, "STALE", ("base/turn.py", "chance.py", "dispatch.py"))
    stale_build_note()
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip() == (
        "hexlog: the compiled engine is older than base/turn.py, chance.py and 1 more: the "
        "Python source runs; `make engine` rebuilds it")


def test_nothing_is_said_when_the_build_is_current_or_absent(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(services.rules, "STALE", ())
    stale_build_note()
    assert capsys.readouterr().err == ""
