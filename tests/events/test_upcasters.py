"""Upcasters (events/schema.py): an event stored in an older shape is decoded through the chain
of small functions into today's shape, and its envelope says so; a current event is untouched."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

from events.codec import codec
from events.events import TurnEnded
from events.schema import unregister, upcaster, version_of


def stored(schema: int | None, event: dict[str, Any]) -> bytes:
    env: dict[str, Any] = {"game_id": "g", "version": 7, "at": "2026-01-01T00:00:00+00:00",
                           "command_id": "c", "event": event}
    if schema is not None:
        env["schema"] = schema
    return msgspec.json.encode(env)


@pytest.fixture
def turn_ended_v3() -> Iterator[None]:
    """Pretend TurnEnded was once `{"player", "to"}` (v1), then `{"seat", "to"}` (v2)."""

    @upcaster("TurnEnded", 1)
    def v1(d: dict[str, Any]) -> dict[str, Any]:
        d["seat"] = d.pop("player")
        return d

    @upcaster("TurnEnded", 2)
    def v2(d: dict[str, Any]) -> dict[str, Any]:
        d["next"] = d.pop("to")
        return d

    yield
    unregister("TurnEnded", 2)
    unregister("TurnEnded", 1)


def test_an_old_shape_is_upcast_through_the_whole_chain(turn_ended_v3: None) -> None:
    assert version_of("TurnEnded") == 3
    env = codec().decode_event_envelope(stored(1, {"type": "TurnEnded", "player": 2, "to": 3}))
    assert env.event == TurnEnded(seat=2, next=3)
    assert env.schema == 3
    env = codec().decode_event_envelope(stored(2, {"type": "TurnEnded", "seat": 2, "to": 3}))
    assert env.event == TurnEnded(seat=2, next=3)
    assert env.schema == 3


def test_an_envelope_without_a_schema_is_version_1(turn_ended_v3: None) -> None:
    env = codec().decode_event_envelope(stored(None, {"type": "TurnEnded", "player": 0, "to": 1}))
    assert env.event == TurnEnded(seat=0, next=1)


def test_a_current_event_is_not_upcast(turn_ended_v3: None) -> None:
    env = codec().decode_event_envelope(stored(3, {"type": "TurnEnded", "seat": 1, "next": 2}))
    assert env.event == TurnEnded(seat=1, next=2)
    assert env.schema == 3


def test_without_upcasters_every_type_is_at_version_1() -> None:
    assert version_of("TurnEnded") == 1
    env = codec().decode_event_envelope(stored(None, {"type": "TurnEnded", "seat": 1, "next": 2}))
    assert env.schema == 1


def test_a_chain_has_no_holes_and_a_newer_log_is_refused(turn_ended_v3: None) -> None:
    with pytest.raises(ValueError, match="already"):
        upcaster("TurnEnded", 1)(lambda d: d)
    with pytest.raises(ValueError, match="starts there"):
        upcaster("TurnEnded", 5)(lambda d: d)
    with pytest.raises(ValueError, match="newer"):
        codec().decode_event_envelope(stored(4, {"type": "TurnEnded", "seat": 1, "next": 2}))
