"""Auditing and tampering with an archived game, for the audit tests (tests/audit and every
scenario's): `audit_recorded` re-judges a recorded game's archive, `audit_lines` archive lines,
`audit_objects` decoded (and perhaps edited) lines; `tampered` edits the decoded lines first,
`events_of` finds the entries of one event type to edit."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from recording import Recorder

from services.audit.archive import dump_lines, read_lines
from services.audit.audit import AuditReport, audit

Lines = list[dict[str, Any]]


def audit_lines(lines: list[bytes]) -> AuditReport:
    _, record = read_lines(lines)
    return audit(record)


def audit_objects(objs: Lines) -> AuditReport:
    return audit_lines([json.dumps(o).encode() for o in objs])


def audit_recorded(rec: Recorder) -> AuditReport:
    """The archive of a finished recorded game, re-judged."""
    return audit_lines(list(dump_lines(rec.record(), "finished")))


def tampered(archive: list[bytes], edit: Callable[[Lines], None]) -> AuditReport:
    objs = [json.loads(line) for line in archive]
    edit(objs)
    return audit_objects(objs)


def events_of(objs: Lines, tag: str) -> list[dict[str, Any]]:
    return [o for o in objs if o["kind"] == "event" and o["envelope"]["event"]["type"] == tag]


def change_a_die(index: int) -> Callable[[Lines], None]:
    """An edit: the `index`-th DiceRolled shows another first die."""

    def edit(objs: Lines) -> None:
        ev = events_of(objs, "DiceRolled")[index]["envelope"]["event"]
        ev["d1"] = ev["d1"] % 6 + 1

    return edit


def event_types(archive: list[bytes]) -> set[str]:
    """The event types an archive holds."""
    objs = [json.loads(line) for line in archive]
    return {o["envelope"]["event"]["type"] for o in objs if o["kind"] == "event"}
