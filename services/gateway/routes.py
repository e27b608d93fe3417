"""The gateway's HTTP API (Litestar: msgspec-native, so the wire types of events/ are its
request and response types without a second model layer; OpenAPI at /v1/openapi).

| route | who | what |
|---|---|---|
| `GET /v1/tables` | anyone | `{"tables"}`: the newest, at most 3 of each creator |
| `POST /v1/tables` | anyone | create a table → `{"table", "owner_token"}` (3 open tables per address; an unstarted table expires) |
| `GET /v1/tables/{id}` | anyone | `{"table"}` |
| `POST /v1/tables/{id}/join` | anyone | take an open seat → `{"table", "seat", "token"}` (one seat per address and table) |
| `DELETE /v1/tables/{id}/seats/{seat}` | the owner | free a seat before the start → `{"table"}`; its holder's token stops working |
| `POST /v1/tables/{id}/leave` | a seat | give the seat back (before the start) or forfeit it → `{"table", "seat", "forfeited"}` |
| `POST /v1/tables/{id}/start` | the owner | fill open seats with bots, start the game → `{"table"}` |
| `POST /v1/tables/{id}/commands` | a seat | a command, signed by the gateway for that seat only |
| `GET /v1/tables/{id}/stream` | a seat, or anyone as a spectator | NDJSON lines (streams.py) |
| `GET /v1/tables/{id}/events` | the same | the same lines as Server-Sent Events |
| `GET /v1/tables/{id}/board.png`, `board.svg` | anyone | the board as a spectator sees it |
| `GET /v1/tables/{id}/replay.html` | anyone | the spectator's replay page |
| `GET /health`, `GET /ready` | anyone | the process answers; Redis and the rules service too |

A token is sent as `Authorization: Bearer <token>` (or `?token=` on the SSE route, which a
browser's EventSource cannot give headers). A route that needs one refuses a request without it
(or with another kind of Authorization) with 401 before it reads the body (`token_needed`). Every error is one line, `{"error": "<field>:
<why>"}`, with the HTTP status that fits (errors.py); the limits are in limits.py, and the
ones on the connection itself (read timeout, connections per address) in transport.py.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import msgspec
from litestar import Request, Response, delete, get, post
from litestar.connection import ASGIConnection
from litestar.handlers import BaseRouteHandler
from litestar.params import FromPath, FromQuery, JSONBody
from litestar.response import ServerSentEvent, Stream
from litestar.response.sse import ServerSentEventMessage

from services.gateway.errors import Problem, responses
from services.gateway.examples import documented
from services.gateway.limits import MAX_BODY_BYTES, MAX_LOBBY_BODY_BYTES
from services.gateway.messages import (
    CommandRequest,
    CommandResult,
    CreateTable,
    Health,
    Joined,
    JoinTable,
    Left,
    StartTable,
    TableAnswer,
    TableCreated,
    TableList,
)
from services.gateway.service import Gateway
from services.gateway.streams import Line
from services.gateway.tables import OWNER
from services.protocol import is_alive


def gateway_of(request: Request[Any, Any, Any]) -> Gateway:
    gw: Gateway = request.app.state.gateway
    return gw


def token_needed(connection: ASGIConnection[Any, Any, Any, Any],
                 handler: BaseRouteHandler) -> None:
    """A guard: Litestar runs it before the body is read or decoded, so a request without a
    token is told so (401), not that its body is missing (400) or too large (413)."""
    if not Gateway.bearer(connection.headers):
        raise Problem(401, f"authorization: {handler.opt['token']} is needed "
                           "(`Authorization: Bearer <token>`)")


OWNER_TOKEN = {"token": "the table's owner token"}  # what token_needed names
SEAT_TOKEN = {"token": "a seat token"}


@get("/v1/tables", summary="The newest tables",
     description="At most 100, newest first, and at most 3 of each creator: one client's many "
                 "tables cannot push the others off the list. Refreshed once a second.",
     responses={**documented("list", 200, "the newest tables, newest first"),
                **responses(429)})
async def list_tables(request: Request[Any, Any, Any]) -> TableList:
    gw = gateway_of(request)
    gw.limit("reads", gw.client_of(request))
    return TableList(tables=await gw.tables())


@post("/v1/tables", summary="Create a table", request_max_body_size=MAX_LOBBY_BODY_BYTES,
      description="Returns the table and its owner token. An open table that is not started "
                  "within the table TTL (30 min by default) is removed (`expires_at`); an "
                  "address may hold 3 open tables at once (429 past that).",
      responses={**documented("create", 201, "the new table and its owner token"),
                 **responses(400, 408, 413, 422, 429)})
async def create_table(request: Request[Any, Any, Any],
                       data: JSONBody[CreateTable]) -> TableCreated:
    gw = gateway_of(request)
    client = gw.client_of(request)
    gw.limit("lobby", client)
    return await gw.create(data, client)


@get("/v1/tables/{table_id:str}", summary="One table",
     responses={**documented("get", 200, "the table"), **responses(400, 404, 429)})
async def one_table(request: Request[Any, Any, Any], table_id: FromPath[str]) -> TableAnswer:
    gw = gateway_of(request)
    gw.limit("reads", gw.client_of(request))
    return TableAnswer(table=(await gw.table(table_id)).public())


@post("/v1/tables/{table_id:str}/join", summary="Take an open seat",
      request_max_body_size=MAX_LOBBY_BODY_BYTES,
      description="Returns the table, the seat taken and its seat token. One seat per address "
                  "and table (409 for a second).",
      responses={**documented("join", 201, "the table, the seat taken and its seat token"),
                 **responses(400, 404, 408, 409, 413, 429)})
async def join_table(request: Request[Any, Any, Any], table_id: FromPath[str],
                     data: JSONBody[JoinTable]) -> Joined:
    gw = gateway_of(request)
    client = gw.client_of(request)
    gw.limit("lobby", client)
    return await gw.join(table_id, data, client)


@delete("/v1/tables/{table_id:str}/seats/{seat:int}", summary="Free a seat (the owner)",
        status_code=200,
        description="Before the start, with the owner token: the seat is open again and its "
                    "holder's token stops working (a squatter's, say). Returns the table.",
        responses={**documented("remove", 200, "the table with the seat open again"),
                   **responses(400, 401, 403, 404, 409, 429)},
        guards=[token_needed], opt=OWNER_TOKEN)
async def remove_seat(request: Request[Any, Any, Any], table_id: FromPath[str],
                      seat: FromPath[int]) -> TableAnswer:
    gw = gateway_of(request)
    gw.limit("lobby", gw.client_of(request))
    caller = await gw.caller(request, table_id, required=True)
    if caller.seat != OWNER:
        raise Problem(403, "authorization: only the table's owner token removes a seat")
    return TableAnswer(table=await gw.remove(table_id, seat))


@post("/v1/tables/{table_id:str}/leave", summary="Leave (before the start) or forfeit a seat",
      status_code=200,
      responses={**documented("leave", 200, "the table, the seat left and whether that "
                                              "forfeited it"),
                 **responses(400, 401, 403, 404, 409, 429)},
      guards=[token_needed], opt=SEAT_TOKEN)
async def leave_table(request: Request[Any, Any, Any], table_id: FromPath[str]) -> Left:
    gw = gateway_of(request)
    gw.limit("lobby", gw.client_of(request))
    caller = await gw.caller(request, table_id, required=True)
    if caller.seat is None or caller.seat == OWNER:
        raise Problem(403, "authorization: an owner token holds no seat")
    return await gw.leave(caller.table, caller.token, caller.seat)


@post("/v1/tables/{table_id:str}/start", summary="Fill open seats with bots and start",
      status_code=200, request_max_body_size=MAX_LOBBY_BODY_BYTES,
      responses={**documented("start", 200, "the table, live"),
                 **responses(400, 401, 403, 404, 408, 409, 413, 422, 429, 503)},
      guards=[token_needed], opt=OWNER_TOKEN)
async def start_table(request: Request[Any, Any, Any], table_id: FromPath[str],
                      data: JSONBody[StartTable | None] = None) -> TableAnswer:
    gw = gateway_of(request)
    gw.limit("lobby", gw.client_of(request))
    caller = await gw.caller(request, table_id, required=True)
    if caller.seat != OWNER:
        raise Problem(403, "authorization: only the table's owner token starts it")
    return TableAnswer(table=await gw.start(table_id, (data or StartTable()).fill))


@post("/v1/tables/{table_id:str}/commands", summary="Send a command for your seat",
      status_code=200, request_max_body_size=MAX_BODY_BYTES,
      description="200 accepted, 202 pending (after 10 s, or at once with `wait=false`), 422 "
                  "rejected with its rule.",
      responses=responses(400, 401, 403, 404, 408, 409, 413, 429, 503),
      guards=[token_needed], opt=SEAT_TOKEN)
async def send_command(request: Request[Any, Any, Any], table_id: FromPath[str],
                       data: JSONBody[CommandRequest],
                       wait: FromQuery[bool] = True) -> Response[CommandResult]:
    gw = gateway_of(request)
    return command_answer(await gw.command(table_id, gw.token_of(request), data, wait))


def command_answer(result: CommandResult) -> Response[CommandResult]:
    """A command's result with its HTTP status: 200 accepted, 202 pending, 422 rejected."""
    return Response(result, status_code={"accepted": 200, "pending": 202,
                                         "rejected": 422}[result.status])


STREAMS = ("At most 4 open at once per token and 8 per address (429 with Retry-After past "
           "either); the stream ends after `GameFinished`.")


@get("/v1/tables/{table_id:str}/stream", summary="A seat's (or a spectator's) game as NDJSON",
     media_type="application/x-ndjson", description=STREAMS,
     responses=responses(400, 401, 403, 404, 429))
async def ndjson_stream(request: Request[Any, Any, Any], table_id: FromPath[str],
                        after: FromQuery[int | None] = None,
                        views: FromQuery[bool] = False) -> Stream:
    gw = gateway_of(request)
    client = gw.client_of(request)
    gw.limit("streams", client)
    caller = await gw.caller(request, table_id, required=False)
    lease = gw.open_stream(caller.token, client)
    lines = gw.lines(table_id, lease, None if caller.seat == OWNER else caller.seat, after,
                     views)

    async def body() -> AsyncIterator[bytes]:
        async for batch in lines:
            yield ndjson(batch)

    return Stream(body(), media_type="application/x-ndjson")


@get("/v1/tables/{table_id:str}/events", summary="The same lines as Server-Sent Events",
     description=STREAMS, responses=responses(400, 401, 403, 404, 429))
async def sse_stream(request: Request[Any, Any, Any], table_id: FromPath[str],
                     after: FromQuery[int | None] = None,
                     token: FromQuery[str] = "") -> ServerSentEvent:
    gw = gateway_of(request)
    client = gw.client_of(request)
    gw.limit("streams", client)
    caller = await gw.caller(request, table_id, required=False, query_token=token)
    last = request.headers.get("last-event-id", "")
    if after is None and last.isdigit() and len(last) < 10:
        after = int(last)
    lease = gw.open_stream(caller.token, client)
    lines = gw.lines(table_id, lease, None if caller.seat == OWNER else caller.seat, after)

    async def body() -> AsyncIterator[ServerSentEventMessage]:
        async for batch in lines:
            if not batch:
                yield sse(None)
            for line in batch:
                yield sse(line)

    return ServerSentEvent(body())


async def _picture(request: Request[Any, Any, Any], table_id: str, kind: str,
                   media_type: str, mark: str = "") -> Response[bytes]:
    """The table's board or replay page, as a spectator sees it (counted as a read)."""
    gw = gateway_of(request)
    gw.limit("reads", gw.client_of(request))
    return Response(await gw.picture(table_id, kind, mark), media_type=media_type)


@get("/v1/tables/{table_id:str}/board.png", summary="The board (spectator)",
     description="`mark=vertex:12,edge:30,hex:4`: those places drawn with their labels (what a "
                 "prompt offers a player; docs/chat.md).",
     media_type="image/png", responses=responses(400, 404, 409, 429))
async def board_png(request: Request[Any, Any, Any], table_id: FromPath[str],
                    mark: FromQuery[str | None] = None) -> Response[bytes]:
    return await _picture(request, table_id, "png", "image/png", mark or "")


@get("/v1/tables/{table_id:str}/board.svg", summary="The board (spectator)",
     description="`mark=…`: as for board.png.",
     media_type="image/svg+xml", responses=responses(400, 404, 409, 429))
async def board_svg(request: Request[Any, Any, Any], table_id: FromPath[str],
                    mark: FromQuery[str | None] = None) -> Response[bytes]:
    return await _picture(request, table_id, "svg", "image/svg+xml", mark or "")


@get("/v1/tables/{table_id:str}/replay.html", summary="The replay page (spectator)",
     media_type="text/html", responses=responses(404, 409, 429))
async def replay_html(request: Request[Any, Any, Any], table_id: FromPath[str]) -> Response[bytes]:
    return await _picture(request, table_id, "html", "text/html")


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


ROUTES = [list_tables, create_table, one_table, join_table, remove_seat, leave_table,
          start_table, send_command, ndjson_stream, sse_stream, board_png, board_svg,
          replay_html, health, ready]


def ndjson(batch: list[Line]) -> bytes:
    """Lines as NDJSON; an empty batch is a keep-alive, an empty line."""
    return b"".join(msgspec.json.encode(line) + b"\n" for line in batch) or b"\n"


def sse(line: Line | None) -> ServerSentEventMessage:
    if line is None:
        return ServerSentEventMessage(data=None, comment="keep-alive")
    version = line.get("version")
    return ServerSentEventMessage(data=msgspec.json.encode(line).decode(), event=line["type"],
                                  id=version if line["type"] == "event" else None)
