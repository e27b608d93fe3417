"""Encoding and decoding of everything that travels or is stored (JSON, via msgspec).

The command and event unions are built from the wire registry (events/registry.py), which
`codec()` loads first: every wire module registers its types, so a rule module adds its own
by registering them in its wire file. Nothing here imports the engine. One decoder per union,
created once (msgspec's advice); unknown fields and wrong types are refused with the path.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Union

import msgspec

from events.commands import Command
from events.envelope import CommandEnvelope, EventEnvelope, schema_of
from events.events import Event
from events.prompts import Prompt, View
from events.registry import command_types, event_types, load
from events.schema import has_upcasters, upcast, upcast_command, version_of

MAX_COMMAND_BYTES = 16 * 1024


class CodecError(ValueError):
    """Input that cannot be a valid message; the text says which field and why."""


class _WireCommand(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    command_id: str
    game_id: str
    expected_version: int
    command: msgspec.Raw
    default: bool = False


class _WireEvent(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    version: int
    at: str
    command_id: str
    event: msgspec.Raw
    schema: int = 1
    rules_version: str = ""


def _wire_prompt(command: Any) -> type[msgspec.Struct]:
    """`Prompt` as it travels, its commands typed by the command union (the `Command` base
    cannot pick a subclass by tag): the whole prompt decoded in one pass."""
    fields: list[Any] = []
    for f in msgspec.structs.fields(Prompt):
        kind = {"options": list[command], "default": command}.get(f.name, f.type)
        if f.required:
            fields.append((f.name, kind))
        elif f.default_factory is not msgspec.NODEFAULT:
            fields.append((f.name, kind, msgspec.field(default_factory=f.default_factory)))
        else:
            fields.append((f.name, kind, f.default))
    return msgspec.defstruct("WirePrompt", fields, kw_only=True, gc=False)


class Codec:
    def __init__(self) -> None:
        load()
        self.command_types = command_types()
        self.event_types = event_types()
        self.command_union: Any = Union[self.command_types]  # noqa: UP007 (runtime union)
        self.event_union: Any = Union[self.event_types]  # noqa: UP007
        self.encoder = msgspec.json.Encoder()
        self._command = msgspec.json.Decoder(self.command_union)
        self._event = msgspec.json.Decoder(self.event_union)
        self._wire_command = msgspec.json.Decoder(_WireCommand)
        self._wire_event = msgspec.json.Decoder(_WireEvent)
        self._prompt = msgspec.json.Decoder(_wire_prompt(self.command_union))
        self._view = msgspec.json.Decoder(View)

    def encode(self, obj: Any) -> bytes:
        return self.encoder.encode(obj)

    def decode_command(self, data: bytes | str) -> Command:
        """A command as stored or sent; a stored one of a retired type (events.schema) comes
        back as the command that replaced it."""
        try:
            cmd: Command = self._command.decode(data)
        except msgspec.ValidationError as exc:
            cmd = self._retired_command(data, exc)
        except msgspec.DecodeError as exc:
            raise CodecError(str(exc)) from exc
        except RecursionError:
            raise CodecError("JSON nested too deeply") from None
        return cmd

    def _retired_command(self, data: bytes | str, exc: msgspec.ValidationError) -> Command:
        try:
            raw = msgspec.json.decode(data)
        except (msgspec.DecodeError, RecursionError):
            raise CodecError(str(exc)) from exc
        new = upcast_command(raw) if isinstance(raw, dict) else None
        if new is None:
            raise CodecError(str(exc)) from exc
        try:
            cmd: Command = msgspec.convert(new, self.command_union)
        except msgspec.ValidationError as again:
            raise CodecError(f"{raw.get('type')} (retired): {again}") from again
        return cmd

    def decode_event(self, data: bytes | str) -> Event:
        event: Event = self._event.decode(data)
        return event

    def decode_command_envelope(self, data: bytes) -> CommandEnvelope:
        if len(data) > MAX_COMMAND_BYTES:
            raise CodecError(f"command is {len(data)} bytes; the limit is {MAX_COMMAND_BYTES}")
        try:
            wire = self._wire_command.decode(data)
            cmd = self._command.decode(wire.command)
        except msgspec.DecodeError as exc:
            raise CodecError(str(exc)) from exc
        except RecursionError:
            raise CodecError("JSON nested too deeply") from None
        return CommandEnvelope(
            command_id=wire.command_id,
            game_id=wire.game_id,
            expected_version=wire.expected_version,
            command=cmd,
            default=wire.default,
        )

    def decode_event_envelope(self, data: bytes) -> EventEnvelope:
        """An envelope and its event; an event of an older schema goes through its upcasters
        (events.schema) and comes back in the current shape, its envelope saying so."""
        wire = self._wire_event.decode(data)
        schema = wire.schema
        try:
            event = self._event.decode(wire.event)
        except msgspec.ValidationError:
            if not has_upcasters():
                raise
            event = None  # an old shape the current type refuses: upcast below
        # Most logs hold only v1 events and no type has an upcaster: nothing more to check.
        if event is None or ((schema != 1 or has_upcasters()) and schema != schema_of(event)):
            event, schema = self._upcast(wire.event, schema)  # older: upcast; newer: refused
        return EventEnvelope(
            game_id=wire.game_id,
            version=wire.version,
            at=wire.at,
            command_id=wire.command_id,
            event=event,
            schema=schema,
            rules_version=wire.rules_version,
        )

    def _upcast(self, raw: msgspec.Raw, schema: int) -> tuple[Event, int]:
        data = msgspec.json.decode(raw)
        tag = data.get("type") if isinstance(data, dict) else None
        if not isinstance(tag, str):
            raise msgspec.ValidationError("an event must be an object with a 'type' tag")
        data = upcast(tag, schema, data)
        event: Event = msgspec.convert(data, self.event_union)
        return event, version_of(data["type"])

    def decode_prompt(self, data: bytes) -> Prompt:
        return Prompt(**msgspec.structs.asdict(self._prompt.decode(data)))

    def decode_view(self, data: bytes) -> View:
        return self._view.decode(data)


@cache
def codec() -> Codec:
    """The process-wide codec (built on first use, once every wire module is registered)."""
    return Codec()
