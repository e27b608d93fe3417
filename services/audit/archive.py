"""The game archive: one JSON object per line, everything a replay or an audit needs, no Redis.

Written by `hexlog export GAME`, read by `hexlog replay/audit FILE.jsonl` and `hexlog import`.
The format is documented in docs/archive-format.md; in short:

    {"kind":"header","archive":"hexlog","format":1,"game_id":...,"events":N,"rulings":M,...}
    {"kind":"event","envelope":{...EventEnvelope as stored...},"command":{...}}   one per event
    {"kind":"ruling","ruling":{...rulings stream entry...}}                      after event `version`

Envelopes and commands are copied byte for byte from the store (an old event keeps its old
schema, upcast when read), so an export of an import is the same file.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import Any, Literal

import msgspec

from events.events import GameFinished
from services.rules.engine import RULES_VERSION
from services.rules.record import GameRecord, decode_entries, decode_rulings
from services.store.results import LogEntry

FORMAT = 1
MAGIC = "hexlog"


class ArchiveError(ValueError):
    """A file that is not a readable hexlog archive (the line number says where)."""


class _Line(msgspec.Struct, forbid_unknown_fields=False):
    kind: Literal["header", "event", "ruling"]
    envelope: msgspec.Raw = msgspec.Raw(b"")
    command: msgspec.Raw = msgspec.Raw(b"")  # absent: no command (not the batch's first event)
    ruling: dict[str, str] | None = None
    archive: str = ""
    format: int = 0
    game_id: str = ""


class _EnvelopeHead(msgspec.Struct):
    version: int
    command_id: str


def header(record: GameRecord, status: str) -> dict[str, Any]:
    last = record.events[-1].event if record.events else None
    return {
        "kind": "header",
        "archive": MAGIC,
        "format": FORMAT,
        "game_id": record.game_id,
        "exported_at": datetime.now(UTC).isoformat(),
        "exporter_rules_version": RULES_VERSION,
        "status": status,
        "finished": isinstance(last, GameFinished),
        "events": record.version,
        "rulings": len(record.rulings),
        "seed_sha256": record.created.seed_sha256 if record.events else "",
    }


def dump_lines(record: GameRecord, status: str = "") -> Iterator[bytes]:
    """The archive of `record`, line by line (each ends with a newline)."""
    enc = msgspec.json.encode
    yield enc(header(record, status or "exported")) + b"\n"
    by_version: dict[int, list[dict[str, str]]] = {}
    for r in record.rulings:
        by_version.setdefault(r.version, []).append(r.fields)
    for e in record.events:
        line = b'{"kind":"event","envelope":' + e.raw
        if e.command_raw:
            line += b',"command":' + e.command_raw
        yield line + b"}\n"
        for fields in by_version.pop(e.version, []):
            yield enc({"kind": "ruling", "ruling": fields}) + b"\n"
    for rest in by_version.values():  # rulings judged past the last event: kept, audit flags them
        for fields in rest:
            yield enc({"kind": "ruling", "ruling": fields}) + b"\n"


def read_lines(lines: Iterable[bytes | str]) -> tuple[dict[str, Any], GameRecord]:
    """(header, record) of an archive. Structure is checked as far as reading needs (a header,
    known line kinds); whether the log holds together is the audit's job, so a gap or a
    duplicate version is read as it is."""
    decoder = msgspec.json.Decoder(_Line)
    head: dict[str, Any] | None = None
    entries: list[LogEntry] = []
    rulings: list[dict[str, str]] = []
    for n, raw in enumerate(lines, 1):
        data = raw.encode() if isinstance(raw, str) else raw
        if not data.strip():
            continue
        try:
            line = decoder.decode(data)
        except msgspec.DecodeError as exc:
            raise ArchiveError(f"line {n}: {exc}") from exc
        if line.kind == "header":
            if head is not None or line.archive != MAGIC:
                raise ArchiveError(f"line {n}: not a hexlog archive header")
            if line.format > FORMAT:
                raise ArchiveError(f"line {n}: archive format {line.format} is newer than {FORMAT}")
            head = msgspec.json.decode(data)
        elif head is None:
            raise ArchiveError(f"line {n}: the header must come first")
        elif line.kind == "event":
            if not line.envelope:
                raise ArchiveError(f"line {n}: an event line needs its envelope")
            try:
                meta = msgspec.json.decode(line.envelope, type=_EnvelopeHead)
            except msgspec.DecodeError as exc:
                raise ArchiveError(f"line {n}: {exc}") from exc
            command = bytes(line.command) if line.command and bytes(line.command) != b"null" else None
            entries.append(LogEntry(meta.version, bytes(line.envelope), meta.command_id, command))
        elif line.ruling is not None:
            rulings.append(line.ruling)
    if head is None:
        raise ArchiveError("empty file: no archive header")
    game_id = str(head.get("game_id", ""))
    return head, GameRecord(game_id, decode_entries(game_id, entries), decode_rulings(rulings))


def header_problems(head: dict[str, Any], record: GameRecord) -> list[str]:
    """Where the archive disagrees with its own header: a file cut at a line boundary (or with
    lines added or removed) still reads, and only the header's counts can tell."""
    problems = []
    events, rulings = head.get("events"), head.get("rulings")
    if isinstance(events, int) and events != len(record.events):
        problems.append(f"the header says {events} events and the archive holds "
                        f"{len(record.events)}: lines were cut or added")
    if isinstance(rulings, int) and rulings != len(record.rulings):
        problems.append(f"the header says {rulings} rulings and the archive holds "
                        f"{len(record.rulings)}: lines were cut or added")
    done = bool(record.events) and isinstance(record.events[-1].event, GameFinished)
    if head.get("finished") is True and not done:
        problems.append("the header says the game finished and the archive does not end "
                        "with GameFinished: it was cut")
    commitment = head.get("seed_sha256")
    if commitment and record.events and commitment != record.created.seed_sha256:
        problems.append("the header's seed commitment is not GameCreated's")
    return problems


def read_file(path: str) -> tuple[dict[str, Any], GameRecord]:
    with open(path, "rb") as f:
        return read_lines(f)
