"""Log lines go to the stderr of the moment: a process (or a test) that configured logging
while stderr was another stream, since closed, still logs instead of raising."""

from __future__ import annotations

import io
import json

import pytest
import structlog

from services.runtime import logging as hexlog_logging


def test_logging_configured_on_a_stream_since_closed_writes_to_the_current_stderr(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = structlog.get_config()
    first = io.StringIO()
    monkeypatch.setattr("sys.stderr", first)
    hexlog_logging.configure("warning", json_lines=True)
    first.close()
    now = io.StringIO()
    monkeypatch.setattr("sys.stderr", now)
    try:
        structlog.get_logger("test").warning("dead letter", reason="a closed stream")
        line = json.loads(now.getvalue().strip().splitlines()[-1])
        assert line["event"] == "dead letter"
        assert line["reason"] == "a closed stream"
    finally:
        structlog.configure(**before)
