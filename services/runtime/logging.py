"""structlog set-up for every hexlog process: JSON lines in production, a readable console
format when stderr is a terminal. Context (game_id, command_id, version, seat) is passed as
keyword arguments on each call, so every line carries it; the rules service also sets the ids
of the command it judges once (`command_context`), and every line logged meanwhile carries
them."""

from __future__ import annotations

import io
import logging
import os
import sys
from contextvars import ContextVar, Token
from typing import TextIO, cast

import structlog
from structlog.typing import EventDict, WrappedLogger

_COMMAND: ContextVar[dict[str, object] | None] = ContextVar("hexlog_command", default=None)


class command_context:  # noqa: N801  (used like a function: `with command_context(...)`)
    """The ids of the command being judged, on every line logged inside the `with` (this task
    and the tasks it starts). One context variable set and reset per command: structlog's
    `bound_contextvars` sets one per key, through a generator, and the rules service enters
    this for every command."""

    __slots__ = ("fields", "token")

    def __init__(self, **fields: object) -> None:
        self.fields = fields
        self.token: Token[dict[str, object] | None] | None = None

    def __enter__(self) -> None:
        self.token = _COMMAND.set(self.fields)

    def __exit__(self, *exc: object) -> None:
        if self.token is not None:
            _COMMAND.reset(self.token)


def merge_command_context(logger: WrappedLogger, method: str, event: EventDict) -> EventDict:
    """A structlog processor: the ids `command_context` set (a call's own keywords win)."""
    fields = _COMMAND.get()
    if fields:
        for key, value in fields.items():
            event.setdefault(key, value)
    return event


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
            merge_command_context,
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
