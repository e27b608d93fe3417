"""Event schema versions and upcasters (docs/design.md "Schema versions and upcasters").

Every event type (by its tag, the class name) has a schema version, 1 until its shape changes.
A change of shape is a new version plus an *upcaster*: a small pure function that turns the
decoded JSON object of version n into version n + 1. Register it next to the event:

    @upcaster("TradeAnswered", 1)
    def _trade_answered_v1(d: dict[str, Any]) -> dict[str, Any]:
        d["answer"] = {"yes": "accept", "no": "reject"}.get(d["answer"], d["answer"])
        return d

The current version of a tag is one more than its highest upcaster, so the chain must start at
1 and have no holes (checked when registering). Writers stamp each envelope with
`version_of(tag)`; the codec runs the chain on any event whose envelope names an older version.
tests/events/test_schema_snapshot.py fails when a shape changes without a new version.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]

# (tag, from_version) -> the function giving version from_version + 1
UPCASTERS: dict[tuple[str, int], Upcaster] = {}
_CURRENT: dict[str, int] = {}


def upcaster(tag: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
    """Register `fn` as the step `tag` v`from_version` → v`from_version + 1`."""

    def register(fn: Upcaster) -> Upcaster:
        if (tag, from_version) in UPCASTERS:
            raise ValueError(f"{tag} already has an upcaster from v{from_version}")
        if from_version != version_of(tag):
            raise ValueError(
                f"{tag} is at v{version_of(tag)}: the next upcaster starts there, "
                f"not at v{from_version}"
            )
        UPCASTERS[(tag, from_version)] = fn
        _CURRENT[tag] = from_version + 1
        return fn

    return register


def unregister(tag: str, from_version: int) -> None:
    """Remove the last step of a chain (tests that register temporary upcasters)."""
    if version_of(tag) != from_version + 1:
        raise ValueError(f"only the last upcaster of {tag} can be removed")
    del UPCASTERS[(tag, from_version)]
    if from_version == 1:
        _CURRENT.pop(tag, None)
    else:
        _CURRENT[tag] = from_version


def version_of(tag: str) -> int:
    """The current schema version of events tagged `tag`."""
    return _CURRENT.get(tag, 1)


def has_upcasters() -> bool:
    return bool(_CURRENT)


def upcast(tag: str, version: int, data: dict[str, Any]) -> dict[str, Any]:
    """`data` (an event of `tag` at schema `version`) brought to the current version."""
    current = version_of(tag)
    if version > current:
        raise ValueError(f"{tag} v{version} is newer than this build knows (v{current})")
    for v in range(version, current):
        data = UPCASTERS[(tag, v)](data)
        data["type"] = data.get("type", tag)
    return data
