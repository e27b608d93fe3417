"""Tampering with an archived game, for the audit tests (tests/audit and every scenario's):
`audit_lines` re-judges archive lines, `tampered` edits the decoded lines first, `events_of`
finds the entries of one event type to edit."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from services.audit.archive import read_lines
from services.audit.audit import AuditReport, audit

Lines = list[dict[str, Any]]


def audit_lines(lines: list[bytes]) -> AuditReport:
    _, record = read_lines(lines)
    return audit(record)


def tampered(archive: list[bytes], edit: Callable[[Lines], None]) -> AuditReport:
    objs = [json.loads(line) for line in archive]
    edit(objs)
    return audit_lines([json.dumps(o).encode() for o in objs])


def events_of(objs: Lines, tag: str) -> list[dict[str, Any]]:
    return [o for o in objs if o["kind"] == "event" and o["envelope"]["event"]["type"] == tag]


def event_types(archive: list[bytes]) -> set[str]:
    """The event types an archive holds."""
    objs = [json.loads(line) for line in archive]
    return {o["envelope"]["event"]["type"] for o in objs if o["kind"] == "event"}
