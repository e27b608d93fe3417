"""The ladder's HTTP API (docs/ladder.md), beside the lobby's on the same gateway.

| route | who | what |
|---|---|---|
| `POST /v1/ladder/bots` | anyone | register a bot → `{"bot", "token"}` (10 a day per address) |
| `GET /v1/ladder/bots/{id}` | anyone | the bot, its ratings and games |
| `POST /v1/ladder/bots/{id}/ready` | the bot | matched from now on (after an absence too) → `{"bot", "ready"}` |
| `DELETE /v1/ladder/bots/{id}/ready` | the bot | no new games (those running go on) |
| `POST /v1/ladder/bots/{id}/token` | the bot | a new token; the old one stops → `{"bot", "token"}` |
| `DELETE /v1/ladder/bots/{id}/token` | the bot | revoke: the bot retires → `{"bot"}` |
| `GET /v1/ladder/bots/{id}/stream` | the bot | its games' lines, NDJSON (ladder_streams.py) |
| `GET /v1/ladder/bots/{id}/events` | the bot | the same as Server-Sent Events (`?token=`) |
| `POST /v1/ladder/games/{id}/commands` | a bot of the game | an answer for its seat (the seat protocol: docs/protocol.md §11) |
| `GET /v1/ladder/games/{id}/refusals` | a bot of the game | why its answers were refused |
| `GET /v1/ladder` | anyone | the ladder: its settings, boards, live games, latest results |
| `GET /v1/ladder/games/{id}` | anyone | a game: seats, status, result, links |
| `GET /v1/ladder/games/{id}/stream`, `…/events` | anyone | the game as a spectator sees it (NDJSON, SSE) |
| `GET /v1/ladder/games/{id}/live.html`, `…/steps` | anyone | the game live in the browser, and its SSE feed |
| `GET /v1/ladder/games/{id}/replay.html` | anyone | its replay page (spectator) |
| `GET /ladder.html`, `GET /ladder/bots/{id}` | anyone | the public pages |

A duplicate set's games share their dice: none of them is shown to spectators until all of
them are over (409 meanwhile).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import msgspec
from litestar import Request, Response, delete, get, post
from litestar.params import FromPath, FromQuery, JSONBody
from litestar.response import ServerSentEvent, Stream
from litestar.response.sse import ServerSentEventMessage

from services.gateway.errors import Problem, responses
from services.gateway.ladder_desk import LadderDesk
from services.gateway.ladder_messages import (
    BotReady,
    BotRevoked,
    Refusal,
    Refusals,
    RegisterBot,
    Registered,
    TokenRotated,
)
from services.gateway.ladder_streams import SeatLines, public
from services.gateway.limits import MAX_BODY_BYTES, MAX_LOBBY_BODY_BYTES
from services.gateway.messages import CommandRequest, CommandResult
from services.gateway.routes import command_answer, ndjson, sse, token_needed
from services.gateway.service import Gateway
from services.gateway.streams import Line
from services.ladder.keys import is_bot_id
from services.ladder.live_page import live_page, steps
from services.ladder.pages import bot_page, ladder_page
from services.ladder.records import LadderGame

BOT_TOKEN = {"token": "the bot's token"}


def desk_of(request: Request[Any, Any, Any]) -> LadderDesk:
    desk: LadderDesk = request.app.state.ladder
    return desk


def read(request: Request[Any, Any, Any], kind: str = "reads") -> LadderDesk:
    """The desk, once the request is within its address's rate."""
    desk = desk_of(request)
    gw: Gateway = desk.gateway
    gw.limit(kind, gw.client_of(request))
    return desk


async def the_bot(request: Request[Any, Any, Any], bot_id: str, kind: str = "lobby",
                  query_token: str = "") -> tuple[LadderDesk, Any, str]:
    desk = read(request, kind)
    token = Gateway.token_of(request, query_token)
    if not token:
        raise Problem(401, "authorization: the bot's token is needed "
                           "(`Authorization: Bearer <token>`)")
    return desk, await desk.caller(token, bot_id), token


@post("/v1/ladder/bots", summary="Register a bot", request_max_body_size=MAX_LOBBY_BODY_BYTES,
      description="Returns the bot and its token (shown this once). Names are taken for good.",
      responses=responses(400, 408, 409, 413, 422, 429, 503))
async def register_bot(request: Request[Any, Any, Any], data: JSONBody[RegisterBot]) -> Registered:
    desk = read(request, "lobby")
    bot, token = await desk.register(data.name, data.owner, data.rulesets,
                                     desk.gateway.client_of(request))
    return Registered(bot=bot.public(), token=token)


@get("/v1/ladder/bots/{bot_id:str}", summary="A bot: its ratings and games",
     responses=responses(404, 429))
async def one_bot(request: Request[Any, Any, Any], bot_id: FromPath[str]) -> dict[str, Any]:
    return await bot_data(request, bot_id)


async def bot_data(request: Request[Any, Any, Any], bot_id: str) -> dict[str, Any]:
    desk = read(request)
    found = await desk.public.bot(bot_id, await desk.config()) if is_bot_id(bot_id) else None
    if found is None:
        raise Problem(404, "bot: no such bot")
    return found


@post("/v1/ladder/bots/{bot_id:str}/ready", summary="Say the bot is ready for games",
      status_code=200, responses=responses(401, 403, 404, 409, 429),
      guards=[token_needed], opt=BOT_TOKEN)
async def bot_ready(request: Request[Any, Any, Any], bot_id: FromPath[str]) -> BotReady:
    desk, bot, _ = await the_bot(request, bot_id)
    return BotReady(bot=(await desk.ready(bot, True)).public(), ready=True)


@delete("/v1/ladder/bots/{bot_id:str}/ready", summary="No new games for the bot",
        status_code=200, responses=responses(401, 403, 404, 409, 429),
        guards=[token_needed], opt=BOT_TOKEN)
async def bot_not_ready(request: Request[Any, Any, Any], bot_id: FromPath[str]) -> BotReady:
    desk, bot, _ = await the_bot(request, bot_id)
    return BotReady(bot=(await desk.ready(bot, False)).public(), ready=False)


@post("/v1/ladder/bots/{bot_id:str}/token", summary="Rotate the bot's token", status_code=200,
      responses=responses(401, 403, 404, 429), guards=[token_needed], opt=BOT_TOKEN)
async def rotate_token(request: Request[Any, Any, Any], bot_id: FromPath[str]) -> TokenRotated:
    desk, bot, token = await the_bot(request, bot_id)
    record, fresh = await desk.rotate(bot, token)
    return TokenRotated(bot=record.public(), token=fresh)


@delete("/v1/ladder/bots/{bot_id:str}/token", summary="Revoke the token: the bot retires",
        status_code=200, responses=responses(401, 403, 404, 429), guards=[token_needed],
        opt=BOT_TOKEN)
async def revoke_token(request: Request[Any, Any, Any], bot_id: FromPath[str]) -> BotRevoked:
    desk, bot, token = await the_bot(request, bot_id)
    return BotRevoked(bot=(await desk.revoke(bot, token)).public())


STREAM = ("Every game the bot plays: gameStart, prompt (with the seat's view unless "
          "`views=false`), missed, gameFinish, absent, revoked; every event too with "
          "`events=true`. An empty line every 7 s of silence. At most 4 open per token.")


@get("/v1/ladder/bots/{bot_id:str}/stream", summary="The bot's games, as NDJSON",
     media_type="application/x-ndjson", description=STREAM,
     responses=responses(401, 403, 404, 429), guards=[token_needed], opt=BOT_TOKEN)
async def bot_stream(request: Request[Any, Any, Any], bot_id: FromPath[str],
                     views: FromQuery[bool] = True, events: FromQuery[bool] = False) -> Stream:
    lines = await open_bot_stream(request, bot_id, "", views, events)

    async def body() -> AsyncIterator[bytes]:
        async for batch in lines:
            yield ndjson(batch)

    return Stream(body(), media_type="application/x-ndjson")


@get("/v1/ladder/bots/{bot_id:str}/events", summary="The same lines as Server-Sent Events",
     description=STREAM, responses=responses(401, 403, 404, 429))
async def bot_events(request: Request[Any, Any, Any], bot_id: FromPath[str],
                     views: FromQuery[bool] = True, events: FromQuery[bool] = False,
                     token: FromQuery[str] = "") -> ServerSentEvent:
    lines = await open_bot_stream(request, bot_id, token, views, events)

    async def body() -> AsyncIterator[ServerSentEventMessage]:
        async for batch in lines:
            if not batch:
                yield sse(None)
            for line in batch:
                yield ServerSentEventMessage(data=msgspec.json.encode(line).decode(),
                                             event=line["type"])

    return ServerSentEvent(body())


async def open_bot_stream(request: Request[Any, Any, Any], bot_id: str, query_token: str,
                          views: bool, events: bool) -> AsyncIterator[list[Line]]:
    desk, bot, token = await the_bot(request, bot_id, "streams", query_token)
    lease = desk.gateway.open_stream(token, desk.gateway.client_of(request))
    return desk.bot_stream(bot, token, lease, views=views, events=events)


@post("/v1/ladder/games/{game_id:str}/commands", summary="Answer a prompt for your seat",
      status_code=200, request_max_body_size=MAX_BODY_BYTES,
      description="The gateway's seat protocol: 200 accepted, 202 pending (after 10 s, or at "
                  "once with `wait=false`), 422 rejected with its rule.",
      responses=responses(400, 401, 403, 404, 408, 409, 413, 429, 503),
      guards=[token_needed], opt=BOT_TOKEN)
async def send_answer(request: Request[Any, Any, Any], game_id: FromPath[str],
                      data: JSONBody[CommandRequest],
                      wait: FromQuery[bool] = True) -> Response[CommandResult]:
    desk = desk_of(request)
    return command_answer(await desk.command(game_id, Gateway.token_of(request), data, wait))


@get("/v1/ladder/games/{game_id:str}/refusals", summary="Why your answers were refused",
     responses=responses(401, 403, 404, 409, 429), guards=[token_needed], opt=BOT_TOKEN)
async def refusals(request: Request[Any, Any, Any], game_id: FromPath[str],
                   count: FromQuery[int] = 50) -> Refusals:
    desk = read(request)
    bot = await desk.caller(Gateway.token_of(request))
    found = await desk.refusals(game_id, bot, max(1, min(count, 500)))
    return Refusals(refusals=[Refusal(**r) for r in found])


@get("/v1/ladder", summary="The ladder: settings, boards, live games, latest results",
     responses=responses(429, 503))
async def ladder(request: Request[Any, Any, Any]) -> dict[str, Any]:
    return await read(request).overview()


@get("/ladder.html", summary="The ladder's page", media_type="text/html",
     responses=responses(429, 503))
async def ladder_html(request: Request[Any, Any, Any]) -> Response[bytes]:
    page = ladder_page(await read(request).overview())
    return Response(page.encode(), media_type="text/html")


@get("/ladder/bots/{bot_id:str}", summary="A bot's page", media_type="text/html",
     responses=responses(404, 429))
async def bot_html(request: Request[Any, Any, Any], bot_id: FromPath[str]) -> Response[bytes]:
    data = await bot_data(request, bot_id)
    return Response(bot_page(data).encode(), media_type="text/html")


@get("/v1/ladder/games/{game_id:str}", summary="A ladder game", responses=responses(404, 429))
async def one_game(request: Request[Any, Any, Any], game_id: FromPath[str]) -> dict[str, Any]:
    desk = read(request)
    return await desk.public.summary(await desk.game(game_id))


async def watched(request: Request[Any, Any, Any], game_id: str) -> tuple[LadderDesk,
                                                                           LadderGame]:
    """A game a spectator may watch (409 for a duplicate set not over: its games share
    their dice)."""
    desk = read(request)
    game = await desk.game(game_id)
    if game.status == "pending":
        raise Problem(409, "game: not started yet")
    await desk.check_shown(game)
    return desk, game


def last_event_id(request: Request[Any, Any, Any], after: int | None) -> int | None:
    last = request.headers.get("last-event-id", "")
    return int(last) if after is None and last.isdigit() and len(last) < 10 else after


@get("/v1/ladder/games/{game_id:str}/stream", summary="A ladder game as a spectator sees it",
     media_type="application/x-ndjson", responses=responses(404, 409, 429))
async def game_stream(request: Request[Any, Any, Any], game_id: FromPath[str],
                      after: FromQuery[int | None] = None) -> Stream:
    lines = await spectator_lines(request, game_id, after)

    async def body() -> AsyncIterator[bytes]:
        async for batch in lines:
            yield ndjson([public(line) for line in batch])

    return Stream(body(), media_type="application/x-ndjson")


@get("/v1/ladder/games/{game_id:str}/events", summary="The same lines as Server-Sent Events",
     responses=responses(404, 409, 429))
async def game_events(request: Request[Any, Any, Any], game_id: FromPath[str],
                      after: FromQuery[int | None] = None) -> ServerSentEvent:
    lines = await spectator_lines(request, game_id, last_event_id(request, after))

    async def body() -> AsyncIterator[ServerSentEventMessage]:
        async for batch in lines:
            if not batch:
                yield sse(None)
            for line in batch:
                yield sse(public(line))

    return ServerSentEvent(body())


async def spectator_lines(request: Request[Any, Any, Any], game_id: str,
                          after: int | None) -> AsyncIterator[list[Line]]:
    desk, game = await watched(request, game_id)
    gw = desk.gateway
    lease = gw.open_stream("", gw.client_of(request))
    return desk.spectate(game, lease, after)


@get("/v1/ladder/games/{game_id:str}/steps", summary="The live page's feed (SSE)",
     responses=responses(404, 409, 429))
async def game_steps(request: Request[Any, Any, Any], game_id: FromPath[str]) -> ServerSentEvent:
    desk, game = await watched(request, game_id)
    gw = desk.gateway
    lease = gw.open_stream("", gw.client_of(request))
    folding = SeatLines(desk.redis, gw.watches, game, None,
                        after=last_event_id(request, None), prompt_views=False)

    async def body() -> AsyncIterator[ServerSentEventMessage]:
        try:
            async for step in steps(folding):
                if step is None:
                    yield sse(None)
                else:
                    yield ServerSentEventMessage(data=msgspec.json.encode(step).decode(),
                                                 event="step", id=step["v"])
        finally:
            lease.release()

    return ServerSentEvent(body())


@get("/v1/ladder/games/{game_id:str}/live.html", summary="Watch the game live",
     media_type="text/html", responses=responses(404, 409, 429))
async def game_live(request: Request[Any, Any, Any], game_id: FromPath[str]) -> Response[bytes]:
    _, game = await watched(request, game_id)
    return Response(live_page(game.id).encode(), media_type="text/html")


@get("/v1/ladder/games/{game_id:str}/replay.html", summary="The game's replay page",
     media_type="text/html", responses=responses(404, 409, 429))
async def game_replay(request: Request[Any, Any, Any], game_id: FromPath[str]) -> Response[bytes]:
    desk, game = await watched(request, game_id)
    return Response(await desk.replay(game), media_type="text/html")


LADDER_ROUTES = [register_bot, one_bot, bot_ready, bot_not_ready, rotate_token, revoke_token,
                 bot_stream, bot_events, send_answer, refusals, ladder, ladder_html, bot_html,
                 one_game, game_stream, game_events, game_steps, game_live, game_replay]
