"""structlog set-up for every hexlog process: JSON lines in production, a readable console
format when stderr is a terminal. Context (game_id, command_id, version, seat) is passed as
keyword arguments on each call, so every line carries it."""

from __future__ import annotations

import logging
import os
import sys

import structlog


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
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=True,
    )
    logging.basicConfig(level=numeric, stream=sys.stderr, format="%(message)s")
