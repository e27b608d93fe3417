"""What the gateway does for a request, once the route has read it: tokens checked against
their table, lobby changes, commands signed for their seat, viewers' streams counted, pictures
drawn. A client of the rules service like any bot: it never decides a move."""

from __future__ import annotations

import asyncio
import re
import time
import uuid
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import msgspec
import structlog
from litestar import Request
from litestar.datastructures import Headers
from redis.asyncio import Redis

from events.codec import CodecError, codec
from events.envelope import CommandEnvelope
from events.events import ModuleSpec
from events.requests import CreateGame
from services.client import Client, ServiceError, new_id
from services.gateway.errors import Problem
from services.gateway.limits import (
    Buckets,
    FirstAnswers,
    GatewayLimits,
    StreamCount,
    client_key,
    retry_text,
)
from services.gateway.messages import (
    CommandRequest,
    CommandResult,
    CreateTable,
    Joined,
    JoinTable,
    Left,
    TableCreated,
)
from services.gateway.streams import Line, ViewerStream, Watches
from services.gateway.tables import (
    OWNER,
    Lobby,
    LobbyError,
    Seat,
    Secrets,
    Table,
    TableRecord,
    is_table_id,
    new_table_id,
    token_hash,
)
from services.protocol import pool_key
from services.rules.engine import RulesetError
from services.rules.engine.modules import MODULES, check_combination
from services.store.keys import GATEWAY, check_id, partition, seat_scope

log = structlog.get_logger("hexlog.gateway")

COMMAND_WAIT_S = 10.0
PICTURE_CACHE = 64
LIVE_CACHE = 10_000
LISTING_CACHE_S = 1.0  # one listing a second per process, however many ask
COMMAND_RATE = "rate: too many commands for this seat"  # then `; retry in 0.4s`
BEARER = re.compile(r"[Bb][Ee][Aa][Rr][Ee][Rr] +([A-Za-z0-9._~+/=-]{1,512}) *")  # RFC 6750


@dataclass(frozen=True)
class Caller:
    """Who sent a request about a table: their token ('' : none) and its seat (None: no
    token; OWNER: the owner token), with the table as it is now."""

    token: str
    seat: int | None
    table: TableRecord


@dataclass(frozen=True)
class Live:
    """A started table's game, credentials and seat holders: fixed once it is live."""

    game_id: str
    secrets: Secrets
    holders: list[str]


class Lease:
    """One counted stream; released once, when its lines end or are dropped unread."""

    def __init__(self, count: StreamCount, token: str, client: str) -> None:
        self.count, self.token, self.client = count, token, client
        self.released = False

    def release(self) -> None:
        if not self.released:
            self.released = True
            self.count.close(self.token, self.client)


def holds(table: TableRecord, seat: int, token: str) -> bool:
    """Whether `token` is the one the table names for `seat` (tables stored before holders
    were kept name none: their token keys alone decide)."""
    if not table.holders:
        return True
    return 0 <= seat < len(table.holders) and table.holders[seat] == token_hash(token)


@dataclass
class Gateway:
    redis: Redis
    limits: GatewayLimits = field(default_factory=GatewayLimits)

    def __post_init__(self) -> None:
        self.lobby = Lobby(self.redis, self.limits.table_ttl_s,
                           self.limits.open_tables_per_address)
        self.client = Client(self.redis, source=GATEWAY)  # its own command streams
        self.watches = Watches(self.redis)
        self.buckets = Buckets(self.limits)
        self.answers = FirstAnswers(self.limits)
        self.streams = StreamCount(self.limits)
        self.pictures: OrderedDict[tuple[str, int, str], bytes] = OrderedDict()
        # A started table's game id, credentials and holders never change: kept after the
        # first command, so a command costs one round trip (its XADD) besides its token's.
        self.live: OrderedDict[str, Live] = OrderedDict()
        self.listing: tuple[float, list[Table]] = (0.0, [])

    # -- who asks --------------------------------------------------------------------------

    def client_of(self, request: Request[Any, Any, Any]) -> str:
        """The client a request counts against, '' for a trusted address."""
        host = request.client.host if request.client is not None else ""
        return "" if self.limits.is_trusted(host) else client_key(host or "?")

    def limit(self, kind: str, who: str) -> None:
        """Take a request of `kind` from `who`'s bucket ('' : trusted, no limit)."""
        if not who:
            return
        wait = self.buckets.take(kind, who)
        if wait:
            raise Problem(429, f"rate: too many {kind} requests; {retry_text(wait)}", wait)

    @staticmethod
    def bearer(headers: Headers) -> str:
        """The token of an `Authorization: Bearer <token>` header ('' : no header); another
        kind of Authorization is refused (401) rather than taken for none."""
        header = headers.get("authorization")
        if header is None:
            return ""
        found = BEARER.fullmatch(header.strip())
        if found is None:
            raise Problem(401, "authorization: not `Bearer <token>`")
        return found.group(1)

    @classmethod
    def token_of(cls, request: Request[Any, Any, Any], query_token: str = "") -> str:
        return cls.bearer(request.headers) or query_token

    async def caller(self, request: Request[Any, Any, Any], table_id: str, *,
                     required: bool, query_token: str = "") -> Caller:
        table = await self.table(table_id)
        token = self.token_of(request, query_token)
        if not token:
            if required:
                raise Problem(401, "authorization: a token is needed "
                                   "(`Authorization: Bearer <token>`)")
            return Caller("", None, table)
        seat = await self.seat_of(token, table_id)
        if seat != OWNER and not holds(table, seat, token):
            raise Problem(401, "authorization: unknown or expired token")
        return Caller(token, seat, table)

    async def seat_of(self, token: str, table_id: str) -> int:
        found = await self.lobby.seat_of(token)
        if found is None:
            raise Problem(401, "authorization: unknown or expired token")
        table, seat = found
        if table != table_id:
            raise Problem(403, "authorization: this token is for another table")
        return seat

    async def table(self, table_id: str) -> TableRecord:
        if not is_table_id(table_id):
            raise Problem(404, "table: no such table")
        try:
            table = await self.lobby.get(table_id)
        except LobbyError as exc:
            raise Problem(exc.status, str(exc)) from None
        if table.status == "live":
            meta = await self.client.meta(table.game_id)
            if meta is not None and meta.get("status") == "finished":
                await self.lobby.mark_finished(table_id)
                table.status = "finished"
        return table

    # -- lobby -----------------------------------------------------------------------------

    async def tables(self) -> list[Table]:
        at, listed = self.listing
        if time.monotonic() - at > LISTING_CACHE_S:
            listed = await self.lobby.list()
            self.listing = (time.monotonic(), listed)
        return listed

    def changed(self) -> None:
        self.listing = (0.0, [])

    async def create(self, data: CreateTable, client: str) -> TableCreated:
        problem = modules_problem(data.modules, data.seats)
        if problem:
            raise Problem(422, problem)
        seats = [Seat() for _ in range(data.seats)]
        for seat, pool in data.bots.items():
            if not 0 <= seat < data.seats:
                raise Problem(422, f"bots: seat {seat} is not a seat (0..{data.seats - 1})")
            await self.check_pool(pool, "bots")
            seats[seat] = Seat(kind="bot", name=f"{pool}{seat}", pool=pool)
        table = TableRecord(id=new_table_id(), seats=seats, modules=tuple(data.modules),
                            deadline_ms=data.deadline_ms, turn_limit=data.turn_limit)
        try:
            owner = await self.lobby.create(table, client)
        except LobbyError as exc:
            raise Problem(exc.status, str(exc), exc.retry_after) from None
        self.changed()
        log.info("table created", table=table.id, seats=data.seats, client=client,
                 modules=[m.name for m in data.modules])
        return TableCreated(table=table.public(), owner_token=owner)

    async def join(self, table_id: str, data: JoinTable, client: str) -> Joined:
        await self.table(table_id)  # a well-formed id of a table that exists
        try:
            seat, token, table = await self.lobby.join(table_id, data.name, data.seat, client)
        except LobbyError as exc:
            raise Problem(exc.status, str(exc)) from None
        self.changed()
        log.info("seat joined", table=table_id, seat=seat, client=client)
        return Joined(table=table, seat=seat, token=token)

    async def remove(self, table_id: str, seat: int) -> Table:
        try:
            table = await self.lobby.remove(table_id, seat)
        except LobbyError as exc:
            raise Problem(exc.status, str(exc)) from None
        self.changed()
        log.info("seat removed by the owner", table=table_id, seat=seat)
        return table

    async def check_pool(self, pool: str, name: str) -> None:
        if not await self.redis.exists(pool_key(f"bot:{pool}")):
            raise Problem(422, f"{name}: no bot worker serves pool {pool!r}")

    async def start(self, table_id: str, fill: str) -> Table:
        if (await self.table(table_id)).open_seats():
            await self.check_pool(fill, "fill")

        async def create_game(table: TableRecord) -> Secrets:
            request = CreateGame(
                command_id=new_id("create"), game_id=table.game_id,
                seats=len(table.seats), modules=table.modules,
                names=tuple(s.name for s in table.seats),
                controllers=tuple(s.controller() for s in table.seats),
                deadline_ms=table.deadline_ms, turn_limit=table.turn_limit)
            try:
                creds = await self.client.create_game(request)
            except ServiceError as exc:
                raise Problem(503, f"table: the rules service did not start it: {exc}") from None
            return Secrets(seats=creds.seats, referee=creds.referee)

        try:
            table = await self.lobby.start(table_id, fill, create_game)
        except LobbyError as exc:
            raise Problem(exc.status, str(exc)) from None
        self.changed()
        log.info("table started", table=table_id,
                 controllers=[s.controller() for s in table.seats])
        return table

    async def leave(self, table: TableRecord, token: str, seat: int) -> Left:
        if table.status == "open":
            try:
                now = await self.lobby.leave_open(table.id, seat, token)
            except LobbyError as exc:
                raise Problem(exc.status, str(exc)) from None
            self.changed()
            return Left(table=now, seat=seat, forfeited=False)
        if table.status == "finished":
            await self.lobby.forget_token(token)
            return Left(table=table.public(), seat=seat, forfeited=False)
        found = await self.lobby.secrets(table.id)
        if found is None:
            raise Problem(503, "table: its credentials are missing")
        await self.client.forfeit(table.game_id, seat, found.referee, "left the table",
                                  new_id("leave"))
        await self.lobby.forget_token(token)
        log.info("seat left", table=table.id, seat=seat)
        return Left(table=table.public(), seat=seat, forfeited=True)

    # -- commands --------------------------------------------------------------------------

    async def command(self, table_id: str, token: str, data: CommandRequest,
                      wait: bool) -> CommandResult:
        if not is_table_id(table_id):
            raise Problem(404, "table: no such table")
        seat = await self.seat_of(token, table_id)
        later = self.buckets.take("commands", token)  # seconds to wait, 0.0 within the rate
        if later and table_id not in self.live:  # no game known here: nothing it may answer
            raise Problem(429, f"{COMMAND_RATE}; {retry_text(later)}",
                          later)
        if seat == OWNER:
            raise Problem(403, "authorization: an owner token holds no seat")
        live = await self.live_table(table_id)
        if live.holders and (seat >= len(live.holders)
                             or live.holders[seat] != token_hash(token)):
            raise Problem(401, "authorization: unknown or expired token")
        if later and not await self.first_answer(token, live.game_id, data.expected_version):
            raise Problem(429, f"{COMMAND_RATE}; {retry_text(later)}",
                          later)
        try:
            command = codec().decode_command(msgspec.json.encode(data.command))
        except CodecError as exc:
            raise Problem(400, f"command: {exc}") from None
        if command.seat != seat:
            raise Problem(403, f"command.seat: this token plays seat {seat}, not {command.seat}")
        command_id = data.command_id or f"gw-{uuid.uuid4().hex}"
        try:
            check_id("command id", command_id)
        except ValueError:
            raise Problem(400, "command_id: printable, no spaces, at most 200 characters") from None
        env = CommandEnvelope(command_id=command_id, game_id=live.game_id,
                              expected_version=data.expected_version, command=command)
        await self.client.send(env, live.secrets.seats[seat])
        # The ids the rules service logs too: one command followed across the processes.
        log.info("command sent", table=table_id, game_id=live.game_id, command_id=command_id,
                 partition=partition(live.game_id), seat=seat)
        if not wait:
            return CommandResult(status="pending", command_id=command_id)
        try:
            outcome = await self.client.outcome(command_id, live.game_id, COMMAND_WAIT_S,
                                                scope=seat_scope(seat))
        except ServiceError:
            return CommandResult(status="pending", command_id=command_id)
        if outcome.get("status") == "accepted":
            return CommandResult(status="accepted", command_id=command_id,
                                 version=int(outcome.get("to", 0)))
        return CommandResult(status="rejected", command_id=command_id,
                             version=int(outcome.get("version") or 0),
                             rule_id=str(outcome.get("rule_id", "")),
                             message=str(outcome.get("message", "")))

    async def first_answer(self, token: str, game_id: str, version: int) -> bool:
        """Whether a command past its seat's rate is still let through: the seat's first at the
        game's version now. A game's pace is set by all its seats, and bots answer in
        milliseconds, so a client that answers each of its prompts at once may send faster
        than any fixed rate; it never sends twice at one version. A flood gets one command
        per version the game reaches, which only accepted moves advance."""
        if version != await self.client.store.version(game_id):
            return False
        return self.answers.first(token, version)

    async def live_table(self, table_id: str) -> Live:
        """A started table's game and credentials (409 for a table not started or over)."""
        known = self.live.get(table_id)
        if known is not None:
            return known
        table = await self.table(table_id)
        if table.status != "live":
            raise Problem(409, "table: not started yet" if table.status in ("open", "starting")
                          else "table: the game is over")
        found = await self.lobby.secrets(table_id)
        if found is None:
            raise Problem(503, "table: its credentials are missing")
        live = self.live[table_id] = Live(table.game_id, found, list(table.holders))
        while len(self.live) > LIVE_CACHE:
            self.live.popitem(last=False)
        return live

    # -- streams ---------------------------------------------------------------------------

    def open_stream(self, token: str, client: str) -> Lease:
        """Count a stream against its token, its address and the gateway (429 past a cap)."""
        why = self.streams.open(token, client)
        if why:
            raise Problem(429, f"stream: {why}", 5.0)
        return Lease(self.streams, token, client)

    def lines(self, table_id: str, lease: Lease, seat: int | None, after: int | None,
              views: bool = False) -> AsyncIterator[list[Line]]:
        """A viewer's lines; the lease is released when they end, or when they are dropped
        without being read (a client gone before its response started)."""
        lines = self._lines(table_id, lease, seat, after, views)
        weakref.finalize(lines, lease.release)
        return lines

    async def _lines(self, table_id: str, lease: Lease, seat: int | None, after: int | None,
                     views: bool) -> AsyncIterator[list[Line]]:
        try:
            table = await self.table(table_id)
            if table.status in ("open", "starting") and after is None:
                after = 1  # opened before the start: every event from the first on
            while table.status in ("open", "starting"):
                yield []
                await asyncio.sleep(0.25)
                try:
                    table = await self.table(table_id)
                except Problem as exc:
                    if exc.status == 404:  # expired unstarted: nothing more to show
                        return
                    raise
            meta = await self.client.meta(table.game_id) or {}
            deadline = int(meta.get("deadline_ms") or table.deadline_ms)
            viewer = ViewerStream(self.redis, self.watches, table.game_id, seat, after, deadline,
                                  views)
            for _ in range(100):  # the game's first event follows the start by a moment
                if await self.client.store.version(table.game_id):
                    break
                await asyncio.sleep(0.05)
            log.info("stream opened", table=table_id, seat=seat)
            async for batch in viewer.lines():
                yield batch
        finally:
            lease.release()

    # -- pictures --------------------------------------------------------------------------

    async def picture(self, table_id: str, kind: str, mark: str = "") -> bytes:
        from services.render.page import replay_page
        from services.render.picture import picture, to_png
        from services.render.replay import Viewer
        from services.render.svg import Target
        from services.rules.record import load_record

        marks = parse_marks(mark)
        table = await self.table(table_id)
        if table.status in ("open", "starting"):
            raise Problem(409, "table: not started yet")
        version = await self.client.store.version(table.game_id)
        cached = self.pictures.get((table_id, version, kind + mark))
        if cached is not None:
            return cached
        record = await load_record(self.client.store, table.game_id)

        def draw() -> bytes:
            if kind == "html":
                return replay_page(record, Viewer()).encode()
            state = record.state_at(record.version)
            for place, site in marks:
                if site >= {"vertex": state.board.n_vertices, "edge": state.board.n_edges,
                            "hex": len(state.board.topo.hexes)}[place]:
                    raise Problem(400, f"mark: no {place} {site} on this board")
            svg = picture(record, record.version, Viewer(),
                          targets=[Target(p, i) for p, i in marks])
            return svg.encode() if kind == "svg" else to_png(svg)

        body = await asyncio.to_thread(draw)
        self.pictures[(table_id, version, kind + mark)] = body
        while len(self.pictures) > PICTURE_CACHE:
            self.pictures.popitem(last=False)
        return body


def parse_marks(text: str) -> list[tuple[str, int]]:
    """`vertex:12,edge:30,hex:4` as places (Problem 400 naming `mark` if it is not that)."""
    out: list[tuple[str, int]] = []
    for item in filter(None, text.split(",")):
        place, _, site = item.partition(":")
        if place not in ("vertex", "edge", "hex") or not site.isdigit() or len(site) > 6:
            raise Problem(400, f"mark: {item[:40]!r} is not vertex:N, edge:N or hex:N")
        out.append((place, int(site)))
    if len(out) > 400:
        raise Problem(400, "mark: at most 400 places")
    return out


def modules_problem(specs: list[ModuleSpec], seats: int) -> str:
    """Why these modules cannot be played with `seats` seats ('' when they can)."""
    for i, spec in enumerate(specs):
        if spec.name not in MODULES:
            return f"modules[{i}].name: no module {spec.name[:40]!r} (see `hexlog rulesets`)"
        if len(spec.params) > 16:
            return f"modules[{i}].params: at most 16"
    try:
        check_combination(tuple(specs), seats)
    except RulesetError as exc:
        return f"modules: {exc}"
    for i, spec in enumerate(specs):
        try:
            MODULES[spec.name].params(spec)
        except (ValueError, TypeError) as exc:
            return f"modules[{i}].params: {exc}"
    return ""
