"""Envelopes: what travels on Redis around a command or an event payload."""

from __future__ import annotations

import msgspec

from events.commands import Command
from events.events import Event
from events.schema import version_of

EVENT_SCHEMA = 1


class CommandEnvelope(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A command as sent: the entry that carries it also holds `mac`, its signature by the
    seat's turn key (events/auth.py); no credential travels."""

    command_id: str
    game_id: str
    expected_version: int
    command: Command
    # Set by the rules service when it plays a silent seat's default move.
    default: bool = False


class EventEnvelope(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    version: int
    at: str  # UTC, ISO 8601
    command_id: str
    event: Event
    schema: int = EVENT_SCHEMA
    rules_version: str = ""


def schema_of(event: Event) -> int:
    """The schema version to stamp on `event`'s envelope (events.schema)."""
    return version_of(type(event).__struct_config__.tag)  # type: ignore[arg-type]
