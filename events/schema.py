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
tests/events/test_event_schemas.py fails when a shape changes without a new version.

Two more kinds of step:
* `widened(tag, …)`: the new shape only accepts more (a field that named one of a fixed list of
  names now takes any name the game's vocabulary knows): the step changes nothing, but the
  version goes up, because a log of the new version may hold what an older build refuses.
* `retired(old_tag, into=new_tag, at=v)`: a type that is gone (merged into another): the
  function turns the old event into `new_tag`'s shape of version `v`, and `new_tag`'s chain
  goes on from there. `retired_command` does the same for commands read from stored logs
  (archives, an event entry's `command` field), which have no versions: only retired tags.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]

# (tag, from_version) -> the function giving version from_version + 1
UPCASTERS: dict[tuple[str, int], Upcaster] = {}
_CURRENT: dict[str, int] = {}
# A retired event tag -> (its last version, the tag it became, that tag's version, the step)
RETIRED: dict[str, tuple[int, str, int, Upcaster]] = {}
# A retired command tag -> the step giving the command that replaced it
RETIRED_COMMANDS: dict[str, Upcaster] = {}


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


def widened(*tags: str) -> None:
    """Register, for each tag at its current version, a step that changes nothing: the shape
    only accepts more than before (see the module docstring)."""
    for tag in tags:
        upcaster(tag, version_of(tag))(_same)


def _same(d: dict[str, Any]) -> dict[str, Any]:
    return d


def retired(tag: str, into: str, at: int, last: int = 1) -> Callable[[Upcaster], Upcaster]:
    """Register `fn` as the step from `tag` (a type that is gone; its last version `last`)
    to `into`'s shape of version `at`."""

    def register(fn: Upcaster) -> Upcaster:
        if tag in RETIRED or tag in _CURRENT:
            raise ValueError(f"{tag} already has upcasters")
        RETIRED[tag] = (last, into, at, fn)
        return fn

    return register


def retired_command(tag: str) -> Callable[[Upcaster], Upcaster]:
    """Register `fn` as the step from the retired command `tag` to the command replacing it."""

    def register(fn: Upcaster) -> Upcaster:
        if tag in RETIRED_COMMANDS:
            raise ValueError(f"command {tag} already has an upcaster")
        RETIRED_COMMANDS[tag] = fn
        return fn

    return register


def upcast_command(data: dict[str, Any]) -> dict[str, Any] | None:
    """A stored command of a retired type in the shape of its replacement (None: not one)."""
    step = RETIRED_COMMANDS.get(data.get("type", ""))
    return None if step is None else step(dict(data))


def version_of(tag: str) -> int:
    """The current schema version of events tagged `tag`."""
    return _CURRENT.get(tag, 1)


def has_upcasters() -> bool:
    return bool(_CURRENT) or bool(RETIRED)


def upcast(tag: str, version: int, data: dict[str, Any]) -> dict[str, Any]:
    """`data` (an event of `tag` at schema `version`) brought to the current version (of the
    tag it now is, `data["type"]`: a retired tag's event becomes another type)."""
    hop = RETIRED.get(tag)
    if hop is not None:
        last, into, at, step = hop
        if version != last:
            raise ValueError(f"{tag} was retired at v{last}; a log says v{version}")
        data = step(data)
        data["type"] = into
        return upcast(into, at, data)
    current = version_of(tag)
    if version > current:
        raise ValueError(f"{tag} v{version} is newer than this build knows (v{current})")
    for v in range(version, current):
        data = UPCASTERS[(tag, v)](data)
        data["type"] = data.get("type", tag)
    return data
