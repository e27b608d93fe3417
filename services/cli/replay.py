"""`hexlog replay`, `hexlog audit`, `hexlog export`, `hexlog import`: games from Redis or from
archive files (docs/archive-format.md).

A source is a game id (read from Redis: `$REDIS_URL`, or the embedded Valkey in `--data-dir`,
attached to if `hexlog up` already runs it) or a `.jsonl` archive. Hidden information follows
the game's visibility rules: during a game a seat's private view needs that seat's credential,
the referee's view, an export and an audit need the referee credential (`--credential`, or
`$HEXLOG_CREDENTIAL`); after the game everything is public.

Exit codes: 0 fine; 1 an audit divergence; 2 bad input (no such game, unreadable file,
missing credential); 3 an audit that holds so far but could not check everything (no seed).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import AsyncIterator, Coroutine, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from events.events import GameFinished
from services.cli.registry import COMMANDS

if TYPE_CHECKING:  # the service stack is imported by the handlers, not to build the parser
    from redis.asyncio import Redis

T = TypeVar("T")


def run_async(coro: Coroutine[Any, Any, T]) -> T:
    import asyncio

    return asyncio.run(coro)


class CliError(Exception):
    """Bad input for these commands: printed, exit 2."""


# --- where games come from ------------------------------------------------------------------


def is_archive(source: str) -> bool:
    return source.endswith(".jsonl") or source == "-" or os.path.isfile(source)


@contextmanager
def redis_url(data_dir: Path) -> Iterator[str]:
    """`$REDIS_URL`, the embedded Valkey already serving `data_dir`, or a new one."""
    from services.runtime.valkey import (
        URLFILE_NAME,
        DataDirInUseError,
        redis_url_from_env_or_embedded,
    )

    try:
        with redis_url_from_env_or_embedded(data_dir) as url:
            yield url
    except DataDirInUseError:
        path = data_dir / URLFILE_NAME
        if not path.is_file():
            raise
        yield path.read_text(encoding="utf-8").strip()


@asynccontextmanager
async def connect(url: str) -> AsyncIterator[Redis]:
    from redis.asyncio import Redis

    redis = Redis.from_url(url)
    try:
        yield redis
    finally:
        await redis.aclose()


async def load_game(redis: Redis, game_id: str) -> tuple[Any, dict[str, str]]:
    from services.rules.record import load_record
    from services.store import EventStore

    store = EventStore(redis)
    meta = await store.meta(game_id)
    if meta is None:
        raise CliError(f"no game {game_id!r} in this Redis")
    return await load_record(store, game_id), meta


def read_archive(source: str) -> Any:
    from services.audit.archive import ArchiveError, read_file, read_lines

    try:
        _, record = read_lines(sys.stdin.buffer) if source == "-" else read_file(source)
    except (OSError, ArchiveError) as exc:
        raise CliError(f"{source}: {exc}") from exc
    if not record.events:
        raise CliError(f"{source}: the archive holds no events")
    return record


def finished(record: Any) -> bool:
    return bool(record.events) and isinstance(record.events[-1].event, GameFinished)


def credential(args: argparse.Namespace) -> str:
    return str(args.credential or os.environ.get("HEXLOG_CREDENTIAL", ""))


def check_access(meta: dict[str, str], seat: int | None, referee: bool, given: str) -> None:
    """Raise CliError unless `given` is the credential of `seat` (or of the referee)."""
    from services.rules.repository import credential_hash

    digest = credential_hash(given) if given else ""
    if referee:
        ok = bool(digest) and digest == meta.get("referee_hash")
        whose = "the referee credential"
    else:
        hashes = json.loads(meta.get("cred_hashes", "[]"))
        ok = seat is not None and 0 <= seat < len(hashes) and digest == hashes[seat]
        whose = f"seat {seat}'s credential"
    if not ok:
        raise CliError(f"the game is live: this needs {whose} (--credential or $HEXLOG_CREDENTIAL)")


# --- replay ---------------------------------------------------------------------------------


def cmd_replay(args: argparse.Namespace) -> int:
    from services.audit.replay import Viewer

    try:
        who = Viewer.parse(args.as_)
        if is_archive(args.source):
            if args.follow:
                raise CliError("--follow needs a live game id, not an archive")
            print(render(read_archive(args.source), args, who))
            return 0
        with redis_url(args.data_dir) as url:
            run_async(replay_live(url, args, who))
        return 0
    except (CliError, ValueError) as exc:
        print(f"hexlog replay: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0


def render(record: Any, args: argparse.Namespace, who: Any) -> str:
    from services.audit.replay import render as render_replay

    return render_replay(record, args.at, who, tail=args.tail)


async def replay_live(url: str, args: argparse.Namespace, who: Any) -> None:
    from services.audit.replay import follow_line
    from services.client import Client

    async with connect(url) as redis:
        record, meta = await load_game(redis, args.source)
        if who.private and not finished(record):
            check_access(meta, who.seat, who.referee, credential(args))
        print(render(record, args, who), flush=True)
        if not args.follow or finished(record):
            return
        state = record.state_at(record.version)
        print("-- following; Ctrl-C stops --", flush=True)
        async for env in Client(redis).follow(args.source, after=record.version):
            print(follow_line(state, env.event, env.version, who), flush=True)
            if isinstance(env.event, GameFinished):
                return


# --- audit ----------------------------------------------------------------------------------


def cmd_audit(args: argparse.Namespace) -> int:
    from services.audit.audit import audit
    from services.audit.format import format_report

    try:
        seed = bytes.fromhex(args.seed) if args.seed else None
        if is_archive(args.source):
            record = read_archive(args.source)
        else:
            with redis_url(args.data_dir) as url:
                record, seed = run_async(live_for_audit(url, args, seed))
    except (CliError, ValueError) as exc:
        print(f"hexlog audit: {exc}", file=sys.stderr)
        return 2
    report = audit(record, seed)
    print(json.dumps(report.to_dict(), indent=2) if args.json else format_report(report, record))
    return report.exit_code


async def live_for_audit(url: str, args: argparse.Namespace,
                         seed: bytes | None) -> tuple[Any, bytes | None]:
    async with connect(url) as redis:
        record, meta = await load_game(redis, args.source)
        if not finished(record):
            check_access(meta, None, True, credential(args))
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

    try:
        with redis_url(args.data_dir) as url:
            record, meta = run_async(export_source(url, args))
    except (CliError, ValueError) as exc:
        print(f"hexlog export: {exc}", file=sys.stderr)
        return 2
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
        record, meta = await load_game(redis, args.game)
        if not finished(record):
            check_access(meta, None, True, credential(args))
        return record, meta


def cmd_import(args: argparse.Namespace) -> int:
    from services.audit.importer import import_record

    try:
        record = read_archive(args.file)
        with redis_url(args.data_dir) as url:
            n = run_async(run_import(url, record, import_record))
    except (CliError, ValueError) as exc:
        print(f"hexlog import: {exc}", file=sys.stderr)
        return 2
    print(f"imported game {record.game_id}: {record.version} events, {n} rulings "
          f"({'finished' if finished(record) else 'not finished'}; read-only)")
    return 0


async def run_import(url: str, record: Any, import_record: Any) -> int:
    async with connect(url) as redis:
        return int(await import_record(redis, record))


# --- wiring ---------------------------------------------------------------------------------


def _source_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--credential", default="",
                   help="a seat's or the referee's credential (default $HEXLOG_CREDENTIAL)")
    p.add_argument("--data-dir", type=Path, default=Path(".hexlog"),
                   help="embedded Valkey data (ignored with REDIS_URL)")


def register(sub: Any) -> None:
    p = sub.add_parser("replay", help="a game's board, hands and events at any version")
    p.add_argument("source", metavar="GAME|FILE.jsonl")
    p.add_argument("--at", type=int, default=None, metavar="VERSION", help="default: the last")
    p.add_argument("--as", dest="as_", default="spectator", metavar="SEAT|spectator|referee",
                   help="whose view: a seat's private one, a spectator's, or the referee's")
    p.add_argument("--follow", action="store_true", help="then stream new events of a live game")
    p.add_argument("--tail", type=int, default=0, metavar="N", help="list only the last N events")
    _source_options(p)
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("audit", help="re-run a game's commands, dice and rulings against the rules")
    p.add_argument("source", metavar="GAME|FILE.jsonl")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--seed", default="", help="the secret seed (hex), for an unfinished archive")
    _source_options(p)
    p.set_defaults(func=cmd_audit)

    p = sub.add_parser("export", help="write a game as a JSON-lines archive (stdout)")
    p.add_argument("game", metavar="GAME")
    p.add_argument("--out", default="", help="a file instead of stdout")
    _source_options(p)
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("import", help="load a JSON-lines archive into Redis (read-only game)")
    p.add_argument("file", metavar="FILE.jsonl")
    p.add_argument("--data-dir", type=Path, default=Path(".hexlog"),
                   help="embedded Valkey data (ignored with REDIS_URL)")
    p.set_defaults(func=cmd_import)


COMMANDS.append(register)
