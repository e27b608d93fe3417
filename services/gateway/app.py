"""The gateway's HTTP API (Litestar: msgspec-native, so the wire types of events/ are its
request and response types without a second model layer; OpenAPI at /v1/openapi).

| route | who | what |
|---|---|---|
| `GET /v1/tables` | anyone | the latest tables |
| `POST /v1/tables` | anyone | create a table → its owner token |
| `GET /v1/tables/{id}` | anyone | one table |
| `POST /v1/tables/{id}/join` | anyone | take an open seat → a seat token |
| `POST /v1/tables/{id}/leave` | a seat | give the seat back (before the start) or forfeit it |
| `POST /v1/tables/{id}/start` | the owner | fill open seats with bots, start the game |
| `POST /v1/tables/{id}/commands` | a seat | a command, signed by the gateway for that seat only |
| `GET /v1/tables/{id}/stream` | a seat, or anyone as a spectator | NDJSON lines (streams.py) |
| `GET /v1/tables/{id}/events` | the same | the same lines as Server-Sent Events |
| `GET /v1/tables/{id}/board.png`, `board.svg` | anyone | the board as a spectator sees it |
| `GET /v1/tables/{id}/replay.html` | anyone | the spectator's replay page |
| `GET /health`, `GET /ready` | anyone | the process answers; Redis and the rules service too |

A token is sent as `Authorization: Bearer <token>` (or `?token=` on the SSE route, which a
browser's EventSource cannot give headers). Every error is one line, `{"error": "<field>:
<why>"}`, with the HTTP status that fits.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections import OrderedDict
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

import msgspec
import structlog
from litestar import Litestar, Request, Response, get, post
from litestar.config.cors import CORSConfig
from litestar.exceptions import HTTPException, ValidationException
from litestar.openapi import OpenAPIConfig
from litestar.response import ServerSentEvent, Stream
from litestar.response.sse import ServerSentEventMessage
from redis.asyncio import Redis

from events.codec import CodecError, codec
from events.envelope import CommandEnvelope
from events.events import ModuleSpec
from events.requests import CreateGame
from services.client import Client, ServiceError, new_id
from services.gateway.limits import (
    MAX_BODY_BYTES,
    MAX_LOBBY_BODY_BYTES,
    Buckets,
    GatewayLimits,
    StreamCount,
)
from services.gateway.streams import Line, ViewerStream, Watches
from services.gateway.tables import OWNER, Lobby, LobbyError, Name, Pool, Seat, Secrets, Table
from services.rules.engine import RulesetError
from services.rules.engine.modules import MODULES, check_combination
from services.rules.protocol import is_alive, pool_key
from services.store.connect import connect
from services.store.keys import GATEWAY, check_id, seat_scope

log = structlog.get_logger("hexlog.gateway")

VERSION = "1"
COMMAND_WAIT_S = 10.0
PICTURE_CACHE = 64
LIVE_CACHE = 10_000

CommandId = Annotated[str, msgspec.Meta(min_length=1, max_length=200, pattern=r"^[!-~]+$")]


# --- wire types -----------------------------------------------------------------------------


class CreateTable(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    seats: Annotated[int, msgspec.Meta(ge=2, le=4)] = 4
    modules: Annotated[list[ModuleSpec], msgspec.Meta(max_length=16)] = []
    bots: Annotated[dict[int, Pool], msgspec.Meta(max_length=4)] = {}  # seat -> bot pool
    deadline_ms: Annotated[int, msgspec.Meta(ge=0, le=86_400_000)] = 0  # 0: the service's
    turn_limit: Annotated[int, msgspec.Meta(ge=0, le=1000)] = 0  # 0: the service's


class TableCreated(msgspec.Struct, kw_only=True):
    table: Table
    owner_token: str


class JoinTable(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    name: Name
    seat: Annotated[int, msgspec.Meta(ge=0, le=3)] | None = None


class Joined(msgspec.Struct, kw_only=True):
    table: str
    seat: int
    token: str


class StartTable(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    fill: Pool = "heuristic"  # the bot pool that takes every open seat


class CommandRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    command: dict[str, Any]  # a Command (docs/schemas/command.schema.json), `seat` = yours
    expected_version: Annotated[int, msgspec.Meta(ge=0)]
    command_id: CommandId | None = None  # default: a new id; give one to retry safely


class CommandResult(msgspec.Struct, kw_only=True, omit_defaults=True):
    status: Literal["accepted", "rejected", "pending"]
    command_id: str
    version: int = 0  # accepted: the game's version after it; rejected: the version judged
    rule_id: str = ""
    message: str = ""


class Left(msgspec.Struct, kw_only=True):
    table: str
    seat: int
    forfeited: bool


class Health(msgspec.Struct, kw_only=True):
    status: Literal["ok", "unavailable"]
    redis: bool = True
    rules: bool = True


class Problem(Exception):
    """One-line error for the client: `{"error": text}` with `status`."""

    def __init__(self, status: int, text: str, retry_after: float = 0.0) -> None:
        super().__init__(text)
        self.status = status
        self.retry_after = retry_after


# --- the gateway ----------------------------------------------------------------------------


@dataclass
class Gateway:
    redis: Redis
    limits: GatewayLimits = field(default_factory=GatewayLimits)

    def __post_init__(self) -> None:
        self.lobby = Lobby(self.redis)
        self.client = Client(self.redis, source=GATEWAY)  # its own command streams
        self.watches = Watches(self.redis)
        self.buckets = Buckets(self.limits)
        self.streams = StreamCount(self.limits)
        self.pictures: OrderedDict[tuple[str, int, str], bytes] = OrderedDict()
        # A started table's game id and credentials never change: kept after the first
        # command, so a command costs one round trip (its XADD) besides its token's lookup.
        self.live: OrderedDict[str, tuple[str, Secrets]] = OrderedDict()

    def limit(self, kind: str, who: str) -> None:
        wait = self.buckets.take(kind, who)
        if wait:
            raise Problem(429, f"rate: too many {kind} requests; retry in {wait:.1f}s", wait)

    async def who(self, request: Request[Any, Any, Any], table_id: str, *,
                  required: bool, query_token: str = "") -> tuple[str, int | None]:
        """(token, seat) of the request's token for `table_id`; ("", None) for none."""
        header = request.headers.get("authorization", "")
        token = header[7:].strip() if header.lower().startswith("bearer ") else query_token
        if not token:
            if required:
                raise Problem(401, "authorization: a seat token is needed (Bearer)")
            return "", None
        found = await self.lobby.seat_of(token)
        if found is None:
            raise Problem(401, "authorization: unknown or expired token")
        table, seat = found
        if table != table_id:
            raise Problem(403, "authorization: this token is for another table")
        return token, seat

    async def table(self, table_id: str) -> Table:
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

    async def create(self, data: CreateTable) -> TableCreated:
        problem = modules_problem(data.modules, data.seats)
        if problem:
            raise Problem(422, problem)
        seats = [Seat() for _ in range(data.seats)]
        for seat, pool in data.bots.items():
            if not 0 <= seat < data.seats:
                raise Problem(422, f"bots: seat {seat} is not a seat (0..{data.seats - 1})")
            await self.check_pool(pool, "bots")
            seats[seat] = Seat(kind="bot", name=f"{pool}{seat}", pool=pool)
        table = Table(id=new_id("t"), seats=seats, modules=tuple(data.modules),
                      deadline_ms=data.deadline_ms, turn_limit=data.turn_limit)
        owner = await self.lobby.create(table)
        log.info("table created", table=table.id, seats=data.seats,
                 modules=[m.name for m in data.modules])
        return TableCreated(table=table, owner_token=owner)

    async def check_pool(self, pool: str, name: str) -> None:
        if not await self.redis.exists(pool_key(f"bot:{pool}")):
            raise Problem(422, f"{name}: no bot worker serves pool {pool!r}")

    async def start(self, table_id: str, fill: str) -> Table:
        if (await self.table(table_id)).open_seats():
            await self.check_pool(fill, "fill")

        async def create_game(table: Table) -> Secrets:
            request = CreateGame(
                command_id=new_id("create"), game_id=table.game_id, seats=len(table.seats),
                modules=table.modules, names=tuple(s.name for s in table.seats),
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
        log.info("table started", table=table_id,
                 controllers=[s.controller() for s in table.seats])
        return table

    async def leave(self, table_id: str, token: str, seat: int) -> Left:
        table = await self.table(table_id)
        if table.status == "open":
            await self.lobby.leave_open(table_id, seat, token)
            return Left(table=table_id, seat=seat, forfeited=False)
        if table.status == "finished":
            await self.lobby.forget_token(token)
            return Left(table=table_id, seat=seat, forfeited=False)
        found = await self.lobby.secrets(table_id)
        if found is None:
            raise Problem(503, "table: its credentials are missing")
        await self.client.forfeit(table.game_id, seat, found.referee, "left the table",
                                  new_id("leave"))
        await self.lobby.forget_token(token)
        log.info("seat left", table=table_id, seat=seat)
        return Left(table=table_id, seat=seat, forfeited=True)

    # -- commands --------------------------------------------------------------------------

    async def command(self, table_id: str, seat: int, data: CommandRequest,
                      wait: bool) -> CommandResult:
        game_id, found = await self.live_table(table_id)
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
        env = CommandEnvelope(command_id=command_id, game_id=game_id,
                              expected_version=data.expected_version, command=command)
        await self.client.send(env, found.seats[seat])
        if not wait:
            return CommandResult(status="pending", command_id=command_id)
        try:
            outcome = await self.client.outcome(command_id, game_id, COMMAND_WAIT_S,
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

    async def live_table(self, table_id: str) -> tuple[str, Secrets]:
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
        self.live[table_id] = (table.game_id, found)
        while len(self.live) > LIVE_CACHE:
            self.live.popitem(last=False)
        return table.game_id, found

    # -- streams ---------------------------------------------------------------------------

    async def lines(self, table_id: str, token: str, seat: int | None,
                    after: int | None, views: bool = False) -> AsyncIterator[list[Line]]:
        """A viewer's lines; keep-alives while the table waits for its players. The caller
        has counted the stream (`open_stream`); it is uncounted when the lines end."""
        try:
            table = await self.table(table_id)
            if table.status in ("open", "starting") and after is None:
                after = 1  # opened before the start: every event from the first on
            while table.status in ("open", "starting"):
                yield []
                await asyncio.sleep(0.25)
                table = await self.table(table_id)
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
            self.streams.close(token)

    def open_stream(self, token: str) -> None:
        why = self.streams.open(token)
        if why:
            raise Problem(429, f"stream: {why}", 5.0)

    # -- pictures --------------------------------------------------------------------------

    async def picture(self, table_id: str, kind: str) -> bytes:
        from services.audit.replay import Viewer
        from services.render.page import replay_page
        from services.render.picture import picture, to_png
        from services.rules.record import load_record

        table = await self.table(table_id)
        if table.status in ("open", "starting"):
            raise Problem(409, "table: not started yet")
        version = await self.client.store.version(table.game_id)
        cached = self.pictures.get((table_id, version, kind))
        if cached is not None:
            return cached
        record = await load_record(self.client.store, table.game_id)

        def draw() -> bytes:
            if kind == "html":
                return replay_page(record, Viewer()).encode()
            svg = picture(record, record.version, Viewer())
            return svg.encode() if kind == "svg" else to_png(svg)

        body = await asyncio.to_thread(draw)
        self.pictures[(table_id, version, kind)] = body
        while len(self.pictures) > PICTURE_CACHE:
            self.pictures.popitem(last=False)
        return body


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


def ndjson(batch: list[Line]) -> bytes:
    """Lines as NDJSON; an empty batch is a keep-alive, an empty line."""
    return b"".join(msgspec.json.encode(line) + b"\n" for line in batch) or b"\n"


def sse(line: Line | None) -> ServerSentEventMessage:
    if line is None:
        return ServerSentEventMessage(data=None, comment="keep-alive")
    version = line.get("version")
    return ServerSentEventMessage(data=msgspec.json.encode(line).decode(), event=line["type"],
                                  id=version if line["type"] == "event" else None)


def client_of(request: Request[Any, Any, Any]) -> str:
    return request.client.host if request.client is not None else "?"


# --- routes ---------------------------------------------------------------------------------


def gateway_of(request: Request[Any, Any, Any]) -> Gateway:
    gw: Gateway = request.app.state.gateway
    return gw


@get("/v1/tables", summary="The latest tables")
async def list_tables(request: Request[Any, Any, Any]) -> list[Table]:
    gw = gateway_of(request)
    gw.limit("reads", client_of(request))
    return await gw.lobby.list()


@post("/v1/tables", summary="Create a table", request_max_body_size=MAX_LOBBY_BODY_BYTES)
async def create_table(request: Request[Any, Any, Any], data: CreateTable) -> TableCreated:
    gw = gateway_of(request)
    gw.limit("lobby", client_of(request))
    return await gw.create(data)


@get("/v1/tables/{table_id:str}", summary="One table")
async def one_table(request: Request[Any, Any, Any], table_id: str) -> Table:
    gw = gateway_of(request)
    gw.limit("reads", client_of(request))
    return await gw.table(table_id)


@post("/v1/tables/{table_id:str}/join", summary="Take an open seat",
      request_max_body_size=MAX_LOBBY_BODY_BYTES)
async def join_table(request: Request[Any, Any, Any], table_id: str, data: JoinTable) -> Joined:
    gw = gateway_of(request)
    gw.limit("lobby", client_of(request))
    try:
        seat, token = await gw.lobby.join(table_id, data.name, data.seat)
    except LobbyError as exc:
        raise Problem(exc.status, str(exc)) from None
    log.info("seat joined", table=table_id, seat=seat)
    return Joined(table=table_id, seat=seat, token=token)


@post("/v1/tables/{table_id:str}/leave", summary="Leave (before the start) or forfeit a seat",
      status_code=200)
async def leave_table(request: Request[Any, Any, Any], table_id: str) -> Left:
    gw = gateway_of(request)
    gw.limit("lobby", client_of(request))
    token, seat = await gw.who(request, table_id, required=True)
    if seat is None or seat == OWNER:
        raise Problem(403, "authorization: an owner token holds no seat")
    return await gw.leave(table_id, token, seat)


@post("/v1/tables/{table_id:str}/start", summary="Fill open seats with bots and start",
      status_code=200, request_max_body_size=MAX_LOBBY_BODY_BYTES)
async def start_table(request: Request[Any, Any, Any], table_id: str,
                      data: StartTable | None = None) -> Table:
    gw = gateway_of(request)
    gw.limit("lobby", client_of(request))
    _, seat = await gw.who(request, table_id, required=True)
    if seat != OWNER:
        raise Problem(403, "authorization: only the table's owner token starts it")
    return await gw.start(table_id, (data or StartTable()).fill)


@post("/v1/tables/{table_id:str}/commands", summary="Send a command for your seat",
      status_code=200, request_max_body_size=MAX_BODY_BYTES)
async def send_command(request: Request[Any, Any, Any], table_id: str, data: CommandRequest,
                       wait: bool = True) -> Response[CommandResult]:
    gw = gateway_of(request)
    token, seat = await gw.who(request, table_id, required=True)
    gw.limit("commands", token)
    if seat is None or seat == OWNER:
        raise Problem(403, "authorization: an owner token holds no seat")
    result = await gw.command(table_id, seat, data, wait)
    status = {"accepted": 200, "pending": 202, "rejected": 422}[result.status]
    return Response(result, status_code=status)


@get("/v1/tables/{table_id:str}/stream", summary="A seat's (or a spectator's) game as NDJSON",
     media_type="application/x-ndjson")
async def ndjson_stream(request: Request[Any, Any, Any], table_id: str,
                        after: int | None = None, views: bool = False) -> Stream:
    gw = gateway_of(request)
    gw.limit("streams", client_of(request))
    token, seat = await gw.who(request, table_id, required=False)
    await gw.table(table_id)
    gw.open_stream(token)
    lines = gw.lines(table_id, token, None if seat == OWNER else seat, after, views)

    async def body() -> AsyncIterator[bytes]:
        async for batch in lines:
            yield ndjson(batch)

    return Stream(body(), media_type="application/x-ndjson")


@get("/v1/tables/{table_id:str}/events", summary="The same lines as Server-Sent Events")
async def sse_stream(request: Request[Any, Any, Any], table_id: str, after: int | None = None,
                     token: str = "") -> ServerSentEvent:
    gw = gateway_of(request)
    gw.limit("streams", client_of(request))
    found, seat = await gw.who(request, table_id, required=False, query_token=token)
    await gw.table(table_id)
    last = request.headers.get("last-event-id", "")
    if after is None and last.isdigit():
        after = int(last)
    gw.open_stream(found)
    lines = gw.lines(table_id, found, None if seat == OWNER else seat, after)

    async def body() -> AsyncIterator[ServerSentEventMessage]:
        async for batch in lines:
            if not batch:
                yield sse(None)
            for line in batch:
                yield sse(line)

    return ServerSentEvent(body())


@get("/v1/tables/{table_id:str}/board.png", summary="The board (spectator)",
     media_type="image/png")
async def board_png(request: Request[Any, Any, Any], table_id: str) -> Response[bytes]:
    gw = gateway_of(request)
    gw.limit("reads", client_of(request))
    return Response(await gw.picture(table_id, "png"), media_type="image/png")


@get("/v1/tables/{table_id:str}/board.svg", summary="The board (spectator)",
     media_type="image/svg+xml")
async def board_svg(request: Request[Any, Any, Any], table_id: str) -> Response[bytes]:
    gw = gateway_of(request)
    gw.limit("reads", client_of(request))
    return Response(await gw.picture(table_id, "svg"), media_type="image/svg+xml")


@get("/v1/tables/{table_id:str}/replay.html", summary="The replay page (spectator)",
     media_type="text/html")
async def replay_html(request: Request[Any, Any, Any], table_id: str) -> Response[bytes]:
    gw = gateway_of(request)
    gw.limit("reads", client_of(request))
    return Response(await gw.picture(table_id, "html"), media_type="text/html")


@get("/health", summary="The process answers")
async def health() -> Health:
    return Health(status="ok")


@get("/ready", summary="Redis and the rules service answer")
async def ready(request: Request[Any, Any, Any]) -> Response[Health]:
    gw = gateway_of(request)
    try:
        await gw.redis.ping()
        rules = await is_alive(gw.redis, "rules")
    except Exception:
        return Response(Health(status="unavailable", redis=False, rules=False), status_code=503)
    return Response(Health(status="ok" if rules else "unavailable", rules=rules),
                    status_code=200 if rules else 503)


# --- errors ---------------------------------------------------------------------------------


def problem_response(_: Request[Any, Any, Any], exc: Problem) -> Response[dict[str, str]]:
    headers = {"Retry-After": str(max(1, round(exc.retry_after)))} if exc.retry_after else {}
    return Response({"error": str(exc)}, status_code=exc.status, headers=headers)


def validation_response(_: Request[Any, Any, Any],
                        exc: ValidationException) -> Response[dict[str, str]]:
    """Litestar's validation errors as one line naming the field."""
    extra = exc.extra if isinstance(exc.extra, list) else []
    if extra and isinstance(extra[0], dict):
        first = extra[0]
        key = str(first.get("key") or first.get("source") or "body")
        text = f"{key}: {first.get('message', exc.detail)}"
    else:
        text = f"body: {exc.detail}"
    return Response({"error": text[:300]}, status_code=400)


def http_response(_: Request[Any, Any, Any], exc: HTTPException) -> Response[dict[str, str]]:
    text = exc.detail if exc.status_code != 413 else f"body: larger than the limit ({exc.detail})"
    return Response({"error": str(text)[:300]}, status_code=exc.status_code,
                    headers=exc.headers or {})


def build_app(redis_url: str, limits: GatewayLimits | None = None) -> Litestar:
    async def startup(app: Litestar) -> None:
        redis = connect(redis_url, max_connections=4096)  # a server or a cluster URL
        app.state.gateway = Gateway(redis, limits or GatewayLimits())
        app.state.started = time.time()

    async def shutdown(app: Litestar) -> None:
        gw: Gateway = app.state.gateway
        await gw.watches.close()
        await gw.redis.aclose()

    return Litestar(
        route_handlers=[list_tables, create_table, one_table, join_table, leave_table,
                        start_table, send_command, ndjson_stream, sse_stream, board_png,
                        board_svg, replay_html, health, ready],
        on_startup=[startup],
        on_shutdown=[shutdown],
        exception_handlers={Problem: problem_response, ValidationException: validation_response,
                            HTTPException: http_response},
        openapi_config=OpenAPIConfig(title="hexlog gateway", version=VERSION, path="/v1/openapi",
                                     description="Play hexlog over HTTP: the lobby, seats' "
                                                 "commands, NDJSON and SSE game streams "
                                                 "(docs/protocol.md §11)."),
        cors_config=CORSConfig(allow_origins=["*"], allow_headers=["authorization",
                                                                   "content-type"]),
        request_max_body_size=MAX_BODY_BYTES,
        logging_config=None,
    )


def run(redis_url: str, host: str = "127.0.0.1", port: int = 8080,
        limits: GatewayLimits | None = None) -> None:
    """Serve the gateway (uvicorn) until SIGTERM/SIGINT."""
    import uvicorn

    config = uvicorn.Config(build_app(redis_url, limits), host=host, port=port, log_level="warning",
                            access_log=False, lifespan="on", timeout_graceful_shutdown=3)
    log.info("gateway serving", host=host, port=port)
    uvicorn.Server(config).run()
