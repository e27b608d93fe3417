"""`hexlog replay`, and where the game commands find a game: in Redis or in an archive file
(docs/archive-format.md); `hexlog audit`, `export` and `import` are in archives.py.

A source is a game id (read from Redis: `$REDIS_URL`, or the embedded Valkey of the data dir,
attached to if `hexlog up` or another command runs it) or a `.jsonl` archive. Hidden
information follows the game's visibility rules: during a game a seat's private view needs
that seat's credential, the referee's view, an export and an audit need the referee credential
(`--credential`, `$HEXLOG_CREDENTIAL`, or the ones `hexlog play` kept in the data dir); after
the game everything is public.

Exit codes: 0 fine; 1 an audit divergence (or an archive that does not hold together, for
import); 2 bad input (no such game, unreadable file, a seat the game does not have, missing
credential); 3 an audit that holds so far but could not check everything (no seed).
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
from services.cli.errors import UsageError
from services.cli.options import add_server_options, at_least
from services.cli.registry import COMMANDS

if TYPE_CHECKING:  # the service stack is imported by the handlers, not to build the parser
    from redis.asyncio import Redis

T = TypeVar("T")


def run_async(coro: Coroutine[Any, Any, T]) -> T:
    import asyncio

    return asyncio.run(coro)


CliError = UsageError  # bad input for these commands: exit 2

# --- where games come from ------------------------------------------------------------------


def is_archive(source: str) -> bool:
    return source.endswith(".jsonl") or source == "-" or os.path.isfile(source)


@contextmanager
def redis_url(args: argparse.Namespace, command: str, existing: bool = True) -> Iterator[str]:
    """`$REDIS_URL`, the embedded Valkey another command runs on the data dir, or one started
    on it; a data dir where nothing ever ran is refused, not filled (these commands read
    games: a new, empty server holds none). Where it looked is kept for `no_game`."""
    from services.cli.server import server_for

    with server_for(args, command, existing=existing) as server:
        args.looked_in = server.where()
        yield server.url


def no_game(game_id: str, args: argparse.Namespace, games: int) -> CliError:
    """A game that is not there, said with where we looked and how to look elsewhere."""
    where = getattr(args, "looked_in", "this server")
    return CliError(f"no game {game_id!r} {where} ({games} game{'s' * (games != 1)} there: "
                    f"`hexlog games` lists them); another server: {ELSEWHERE}")


ELSEWHERE = "--data-dir DIR, HEXLOG_DATA_DIR=DIR or REDIS_URL=URL"


@asynccontextmanager
async def connect(url: str) -> AsyncIterator[Redis]:
    from services.store.connect import connect as open_client


    redis = open_client(url)
    try:
        yield redis
    finally:
        await redis.aclose()


async def load_game(redis: Redis, game_id: str,
                    args: argparse.Namespace) -> tuple[Any, dict[str, str]]:
    from services.rules.record import load_record
    from services.store import EventStore
    from services.store.keys import GAMES_INDEX

    store = EventStore(redis)
    meta = await store.meta(game_id)
    if meta is None:
        raise no_game(game_id, args, int(await redis.zcard(GAMES_INDEX)))
    return await load_record(store, game_id), meta


def read_archive(source: str) -> tuple[dict[str, Any], Any]:
    """(header, record) of an archive file (`-`: stdin)."""
    from services.audit.archive import ArchiveError, read_file, read_lines

    try:
        head, record = read_lines(sys.stdin.buffer) if source == "-" else read_file(source)
    except (OSError, ArchiveError) as exc:
        raise CliError(f"{source}: {exc}") from exc
    if not record.events:
        raise CliError(f"{source}: the archive holds no events")
    return head, record


def finished(record: Any) -> bool:
    return bool(record.events) and isinstance(record.events[-1].event, GameFinished)


def credential(args: argparse.Namespace, seat: int | None = None, referee: bool = False) -> str:
    """`--credential`, `$HEXLOG_CREDENTIAL`, or the one `hexlog play` kept for this game."""
    from services.cli import credentials
    from services.cli.options import data_dir

    given = args.credential or os.environ.get("HEXLOG_CREDENTIAL", "")
    if given or getattr(args, "data_dir", "absent") == "absent":
        return str(given)
    game = getattr(args, "source", None) or getattr(args, "game", "")
    return credentials.lookup(data_dir(args), str(game), seat, referee)


def check_seat(record: Any, who: Any) -> None:
    """`--as 7` on a 4-seat game is bad input, not an empty view."""
    seats = record.created.seats
    if who.seat is not None and not 0 <= who.seat < seats:
        raise CliError(f"--as {who.seat}: game {record.game_id} has seats 0 to {seats - 1}")


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


def record_for(args: argparse.Namespace, who: Any, command: str) -> Any:
    """The game's record, once the viewer may see it (archive or Redis)."""
    if is_archive(args.source):
        _, record = read_archive(args.source)
        check_seat(record, who)
        return record

    async def load(url: str) -> Any:
        async with connect(url) as redis:
            record, meta = await load_game(redis, args.source, args)
            check_seat(record, who)
            if who.private and not finished(record):
                check_access(meta, who.seat, who.referee, credential(args, who.seat, who.referee))
            return record

    with redis_url(args, command) as url:
        return run_async(load(url))


def viewer(args: argparse.Namespace) -> Any:
    from services.render.replay import Viewer

    try:
        return Viewer.parse(args.as_)
    except ValueError as exc:
        raise CliError(str(exc)) from None


def write_page(args: argparse.Namespace, who: Any) -> None:
    """`hexlog replay SOURCE --html FILE`: the one-file replay page for `who`."""
    from services.cli.server import say
    from services.render.page import replay_page

    record = record_for(args, who, "replay")
    html = replay_page(record, who)
    Path(args.html).write_text(html, encoding="utf-8")
    say(f"wrote {args.html}: {record.version} versions of {record.game_id} as {who} "
        f"({len(html) // 1024} KiB; open it in a browser, no server needed)")




def cmd_replay(args: argparse.Namespace) -> int:
    from services.render.replay import Viewer

    try:
        who = Viewer.parse(args.as_)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    if args.board and not args.follow:
        raise CliError("--board redraws the board as a followed game goes on: add --follow")
    if args.html:
        if args.follow:
            raise CliError("--html writes a finished picture of the game; leave out --follow")
        write_page(args, who)
        return 0
    if is_archive(args.source):
        if args.follow:
            raise CliError("--follow needs a live game id, not an archive")
        head, record = read_archive(args.source)
        check_seat(record, who)
        warn_header(head, record)
        print(render(record, args, who))
        return 0
    with redis_url(args, "replay") as url:
        run_async(replay_live(url, args, who))
    return 0


def warn_header(head: dict[str, Any], record: Any) -> None:
    from services.audit.archive import header_problems
    from services.cli.server import say

    for problem in header_problems(head, record):
        say(f"warning: {problem} (`hexlog audit` checks the whole archive)")


def render(record: Any, args: argparse.Namespace, who: Any) -> str:
    from services.render.replay import render as render_replay

    try:
        return render_replay(record, args.at, who, tail=args.tail)
    except ValueError as exc:  # --at outside the log
        raise CliError(f"--at: {exc}") from None


async def replay_live(url: str, args: argparse.Namespace, who: Any) -> None:
    from services.client import Client
    from services.render.follow import Follower

    async with connect(url) as redis:
        if args.follow:
            await wait_for_game(redis, args.source)
        record, meta = await load_game(redis, args.source, args)
        check_seat(record, who)
        if who.private and not finished(record):
            check_access(meta, who.seat, who.referee, credential(args, who.seat, who.referee))
        print(render(record, args, who), flush=True)
        if not args.follow or finished(record):
            return
        follower = Follower(record.state_at(record.version), who, sys.stdout, board=args.board)
        print("-- following; Ctrl-C stops --", flush=True)
        async for env in Client(redis).follow(args.source, after=record.version):
            follower.show(env.event, env.version)
            if isinstance(env.event, GameFinished):
                return


async def wait_for_game(redis: Redis, game_id: str) -> None:
    """`--follow` a game that does not exist yet: wait for it (start watching, then play)."""
    import asyncio

    from services.cli.server import say
    from services.store import EventStore

    store = EventStore(redis)
    if await store.version(game_id):
        return
    say(f"waiting for game {game_id} to start (`hexlog play --game-id {game_id}`); Ctrl-C stops")
    while not await store.version(game_id):
        await asyncio.sleep(0.2)


# --- wiring ---------------------------------------------------------------------------------


def source_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--credential", default="",
                   help="a seat's or the referee's credential (default $HEXLOG_CREDENTIAL, else "
                        "the ones `hexlog play` kept in the data dir)")
    add_server_options(p, log_level=False)


def register(sub: Any) -> None:
    p = sub.add_parser("replay", help="a game's board, hands and events at any version")
    p.add_argument("source", metavar="GAME|FILE.jsonl",
                   help="a game id (in Redis) or an archive file (`hexlog export`)")
    p.add_argument("--at", type=at_least(1), default=None, metavar="VERSION",
                   help="show the game after this event (default: the last)")
    p.add_argument("--as", dest="as_", default="spectator", metavar="SEAT|spectator|referee",
                   help="whose view: a seat's private one, a spectator's, or the referee's")
    p.add_argument("--follow", action="store_true",
                   help="then show each new event of a live game as it is played, to its end "
                        "(waits for a game that has not started yet)")
    p.add_argument("--board", action="store_true",
                   help="with --follow: draw the board and the players again after every turn "
                        "(on a terminal the screen is cleared first; elsewhere they follow a "
                        "separator line)")
    p.add_argument("--tail", type=at_least(0), default=0, metavar="N",
                   help="list only the last N events (0: all)")
    p.add_argument("--html", default="", metavar="FILE.html",
                   help="write the game as one self-contained replay page (step, play, slider, "
                        "narration, dice, rulings) for this viewer, instead of printing it")
    source_options(p)
    p.set_defaults(func=cmd_replay)


COMMANDS.append(register)
