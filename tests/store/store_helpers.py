"""Test helpers for the store: toy events that are JSON numbers, independent of the engine."""

from __future__ import annotations

import msgspec

GAME = "g-test-1"


def num(x: int) -> bytes:
    return msgspec.json.encode(x)


def nums(*xs: int) -> list[bytes]:
    return [num(x) for x in xs]
