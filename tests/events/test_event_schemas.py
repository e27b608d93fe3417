"""Event shapes are a contract with every stored log (docs/design.md "Schema versions and upcasters").

tests/events/event_schemas.json holds, per event type and schema version, the JSON Schema of
its shape (msgspec's, without titles and docstrings). A change of shape without a new version
fails here: an old log would no longer decode, or decode into something else.

What to do when this fails for your event type:
* the type is in logs somewhere (the corpus, a live game): register an upcaster from the current
  version next to the event (events/schema.py explains how), which bumps the version; then run
  `python tests/events/test_event_schemas.py` to record the new version's shape (old versions
  stay recorded);
* a new event type: run the same command to record it at version 1;
* a type still in development that no stored log has used: `... --accept TAG` re-records its
  current version.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import msgspec

from events.codec import codec
from events.schema import RETIRED, version_of

SNAPSHOT = Path(__file__).resolve().parent / "event_schemas.json"


def strip(schema: Any) -> Any:
    """The shape only: titles and descriptions (docstrings) are not part of it."""
    if isinstance(schema, dict):
        return {k: strip(v) for k, v in schema.items() if k not in ("title", "description")}
    if isinstance(schema, list):
        return [strip(v) for v in schema]
    return schema


def current() -> dict[str, tuple[int, Any]]:
    out = {}
    for cls in codec().event_types:
        tag = cls.__struct_config__.tag
        as_json = json.loads(json.dumps(msgspec.json.schema(cls)))  # tuples as lists, as stored
        out[tag] = (version_of(tag), strip(as_json))
    return out


def stored() -> dict[str, dict[str, Any]]:
    data: dict[str, dict[str, Any]] = json.loads(SNAPSHOT.read_text())
    return data


def test_every_event_type_has_the_shape_recorded_for_its_schema_version() -> None:
    known = stored()
    problems = []
    for tag, (version, schema) in sorted(current().items()):
        versions = known.get(tag)
        if versions is None:
            problems.append(f"{tag}: a new event type; record it: python {__file__}")
        elif str(version) not in versions:
            problems.append(f"{tag}: schema v{version} is not recorded; record it: python {__file__}")
        elif versions[str(version)] != schema:
            problems.append(
                f"{tag}: its shape changed but its schema version is still {version}. Old logs "
                f"hold the old shape: register an upcaster {tag} v{version} -> v{version + 1} "
                f"(events/schema.py) and record the new shape: python {__file__}"
            )
    assert not problems, "\n".join(problems)


def test_no_event_type_that_logs_may_hold_disappears() -> None:
    """A type that is gone is retired: its upcaster turns it into another (events.schema)."""
    gone = sorted(set(stored()) - set(current()) - set(RETIRED))
    assert not gone, (f"event types {gone} are gone, but stored logs may hold them: keep the "
                      "types, or upcast them into others (`retired`)")


def test_a_retired_type_becomes_a_current_one_at_a_recorded_version() -> None:
    known = stored()
    for tag, (last, into, at, _) in sorted(RETIRED.items()):
        assert str(last) in known[tag], f"{tag} v{last} was never recorded"
        assert into in current(), f"{tag} -> {into}: no such type"
        assert str(at) in known[into], f"{tag} -> {into} v{at}: not recorded"


def record(accept: tuple[str, ...] = ()) -> None:
    known = stored() if SNAPSHOT.exists() else {}
    for tag, (version, schema) in sorted(current().items()):
        versions = known.setdefault(tag, {})
        old = versions.get(str(version))
        if old is not None and old != schema and tag not in accept:
            print(f"{tag} v{version} changed shape: add an upcaster (or --accept {tag})", file=sys.stderr)
            continue
        versions[str(version)] = schema
    SNAPSHOT.write_text(json.dumps(known, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    args = sys.argv[1:]
    record(tuple(args[args.index("--accept") + 1:]) if "--accept" in args else ())
