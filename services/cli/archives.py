"""`hexlog audit`, `hexlog export`, `hexlog import`: a game checked against the rules, written
to an archive, or loaded from one (docs/archive-format.md).

`import` audits an archive before it loads it: a tampered or cut archive (its header's counts
included) is refused with the audit's first finding, unless `--unchecked`. Where games come
from, and who may see a live one, is replay.py's.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from services.cli.errors import FAILURE
from services.cli.options import add_server_options
from services.cli.registry import COMMANDS
from services.cli.replay import (
    CliError,
    check_access,
    connect,
    credential,
    finished,
    is_archive,
    load_game,
    read_archive,
    redis_url,
    run_async,
    source_options,
)

# --- audit ----------------------------------------------------------------------------------


def cmd_audit(args: argparse.Namespace) -> int:
    from services.audit.archive import header_problems
    from services.audit.audit import audit
    from services.audit.format import format_report

    try:
        seed = bytes.fromhex(args.seed) if args.seed else None
    except ValueError:
        raise CliError(f"--seed is the seed in hex, not {args.seed!r}") from None
    problems: list[str] = []
    if is_archive(args.source):
        head, record = read_archive(args.source)
        problems = header_problems(head, record)
    else:
        with redis_url(args, "audit") as url:
            record, seed = run_async(live_for_audit(url, args, seed))
    report = audit(record, seed)
    for problem in problems:
        report.diverge(record.version, "structure", problem)
    print(json.dumps(report.to_dict(), indent=2) if args.json else format_report(report, record))
    return report.exit_code


async def live_for_audit(url: str, args: argparse.Namespace,
                         seed: bytes | None) -> tuple[Any, bytes | None]:
    async with connect(url) as redis:
        record, meta = await load_game(redis, args.source, args)
        if not finished(record):
            check_access(meta, None, True, credential(args, referee=True))
            # The referee audits a live game with its secret seed (read with the organiser's
            # Redis user; a bot's or a projection's user cannot read the secret hash).
            from services.store import EventStore

            secret = await EventStore(redis).secret(args.source)
            if secret and "seed" in secret:
                seed = bytes.fromhex(secret["seed"])
        return record, seed


# --- export / import ------------------------------------------------------------------------


def cmd_export(args: argparse.Namespace) -> int:
    from services.audit.archive import dump_lines

    with redis_url(args, "export") as url:
        record, meta = run_async(export_source(url, args))
    out = sys.stdout.buffer if args.out in ("", "-") else open(args.out, "wb")  # noqa: SIM115
    try:
        for line in dump_lines(record, meta.get("status", "")):
            out.write(line)
    finally:
        if out is not sys.stdout.buffer:
            out.close()
        else:
            out.flush()
    return 0


async def export_source(url: str, args: argparse.Namespace) -> tuple[Any, dict[str, str]]:
    async with connect(url) as redis:
        record, meta = await load_game(redis, args.game, args)
        if not finished(record):
            check_access(meta, None, True, credential(args, referee=True))
        return record, meta


def cmd_import(args: argparse.Namespace) -> int:
    from services.audit.importer import import_record
    from services.cli.server import say

    head, record = read_archive(args.file)
    checked = check_import(head, record, args.unchecked)
    with redis_url(args, "import", existing=False) as url:
        n = run_async(run_import(url, record, import_record))
    print(f"imported game {record.game_id}: {record.version} events, {n} rulings "
          f"({'finished' if finished(record) else 'not finished'}; read-only)")
    if checked:
        say(checked)
    return 0


def check_import(head: dict[str, Any], record: Any, unchecked: bool) -> str:
    """Refuse an archive that does not hold together (the audit's first finding), unless
    `--unchecked`; returns a note for what could not be checked."""
    from services.audit.archive import header_problems
    from services.audit.audit import audit

    report = audit(record)
    found = header_problems(head, record) + [
        f"version {d.version} ({d.kind}): {d.message}" for d in report.divergences]
    if found and not unchecked:
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        raise CliError(f"{record.game_id}: the archive does not hold together: {found[0]}{more}; "
                       "`hexlog audit FILE` lists everything, --unchecked imports it anyway",
                       code=FAILURE)
    if found:
        return f"imported unchecked: {len(found)} problem(s), e.g. {found[0]}"
    if report.skipped:
        return (f"note: {len(report.skipped)} check(s) need the seed, which this unfinished "
                "game has not revealed")
    return ""


async def run_import(url: str, record: Any, import_record: Any) -> int:
    from services.store.results import GameExistsError

    async with connect(url) as redis:
        try:
            return int(await import_record(redis, record))
        except GameExistsError:
            raise CliError(f"game {record.game_id} exists already in this Redis; import does "
                           "not overwrite a game") from None


def register(sub: Any) -> None:
    p = sub.add_parser("audit", help="re-run a game's commands, dice and rulings against the rules")
    p.add_argument("source", metavar="GAME|FILE.jsonl",
                   help="a game id (in Redis) or an archive file (`hexlog export`)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--seed", default="", help="the secret seed (hex), for an unfinished archive")
    source_options(p)
    p.set_defaults(func=cmd_audit)

    p = sub.add_parser("export", help="write a game as a JSON-lines archive (stdout)")
    p.add_argument("game", metavar="GAME", help="the game id")
    p.add_argument("--out", default="", help="a file instead of stdout")
    source_options(p)
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("import", help="load a JSON-lines archive into Redis (read-only game)",
                       description="Audit an archive and load it as a read-only game; an archive "
                                   "that does not hold together is refused.")
    p.add_argument("file", metavar="FILE.jsonl", help="the archive (`-`: standard input)")
    p.add_argument("--unchecked", action="store_true",
                   help="import even when the audit finds the archive does not hold together")
    add_server_options(p, log_level=False)
    p.set_defaults(func=cmd_import)



COMMANDS.append(register)
