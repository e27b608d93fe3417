"""structlog set-up for every hexlog process: JSON lines in production, a readable console
format when stderr is a terminal. Context (game_id, command_id, version, seat) is passed as
keyword arguments on each call, so every line carries it."""

from __future__ import annotations

import io
import logging
import os
import sys
from typing import TextIO, cast

import structlog


class CurrentStderr(io.TextIOBase):
    """Writes to whatever `sys.stderr` is at the time of the write, not at configuration.

    A logger bound to the stream object of the moment breaks once that object is closed: in a
    test run, `configure` called while pytest captures stderr would leave every later log line
    (a dead letter's warning in the rules service, say) raising "I/O operation on closed file"."""

    def write(self, text: str) -> int:
        return sys.stderr.write(text)

    def flush(self) -> None:
        sys.stderr.flush()

    def isatty(self) -> bool:
        return sys.stderr.isatty()


def logs_to_stderr() -> None:
    """Before a command configures its logging (if it does): structlog's default output is
    stdout, where a command's result goes (--json); this sends it to stderr, changing nothing
    else (the standard library's logging is left to `configure`)."""
    structlog.configure(
        logger_factory=structlog.PrintLoggerFactory(file=cast(TextIO, CurrentStderr())))


def configure(level: str | None = None, json_lines: bool | None = None) -> None:
    name = (level or os.environ.get("HEXLOG_LOG_LEVEL", "warning")).upper()
    numeric = getattr(logging, name, logging.WARNING)
    if json_lines is None:
        json_lines = not sys.stderr.isatty()
    renderer: structlog.typing.Processor = (
        structlog.processors.JSONRenderer() if json_lines else structlog.dev.ConsoleRenderer()
    )
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(numeric),
        # (the cast: an io text stream is not a typing.TextIO to mypy)
        logger_factory=structlog.PrintLoggerFactory(file=cast(TextIO, CurrentStderr())),
        cache_logger_on_first_use=True,
    )
    logging.basicConfig(level=numeric, stream=CurrentStderr(), format="%(message)s")
