"""The gateway as an application and a server: the routes (routes.py) with their error mapping
(errors.py) on Litestar, served by uvicorn with the connection's limits (transport.py).

`build_app(redis_url, limits)` is the ASGI app; `run(...)` serves it until SIGTERM/SIGINT.
"""

from __future__ import annotations

import sys
import time
from typing import Any

import structlog
import uvicorn
from litestar import Litestar
from litestar.config.cors import CORSConfig
from litestar.openapi import OpenAPIConfig

from services import metrics
from services.gateway.errors import HANDLERS, bounded_nesting
from services.gateway.ladder_desk import LadderDesk
from services.gateway.ladder_routes import LADDER_ROUTES
from services.gateway.limits import MAX_BODY_BYTES, GatewayLimits
from services.gateway.listening import listening_line
from services.gateway.routes import ROUTES
from services.gateway.service import Gateway
from services.store.connect import connect

log = structlog.get_logger("hexlog.gateway")

VERSION = "1"
DESCRIPTION = (
    "Play hexlog over HTTP: the lobby, seats' commands, NDJSON and SSE game streams "
    "(docs/protocol.md §11). Every lobby answer is an object with the table under `table` "
    "(the listing: `tables`) beside the route's own fields. A route that needs a token "
    "answers 401 without one, before it reads the body. "
    "Every error is one line, `{\"error\": \"<field>: <why>\"}`. "
    "Limits: bodies of 16 KiB (commands) and 8 KiB (lobby), JSON nested at most 32 deep; "
    "a request's line and headers, then its body, within the read timeout (10 s; 408); "
    "per address 64 connections, 8 open streams, 3 open tables and one seat per table; per "
    "token 4 open streams; rates per address and per seat token (429 with Retry-After).")


def build_app(redis_url: str, limits: GatewayLimits | None = None) -> Litestar:
    async def startup(app: Litestar) -> None:
        redis = connect(redis_url, max_connections=4096)  # a server or a cluster URL
        app.state.gateway = Gateway(redis, limits or GatewayLimits())
        app.state.ladder = LadderDesk(app.state.gateway)  # the bot ladder (docs/ladder.md)
        app.state.ladder.start()
        app.state.started = time.time()

    async def shutdown(app: Litestar) -> None:
        gw: Gateway = app.state.gateway
        await app.state.ladder.stop()
        await gw.watches.close()
        await gw.redis.aclose()

    return Litestar(
        route_handlers=[*ROUTES, *LADDER_ROUTES],
        on_startup=[startup],
        on_shutdown=[shutdown],
        before_request=bounded_nesting,
        exception_handlers=HANDLERS,
        openapi_config=OpenAPIConfig(title="hexlog gateway", version=VERSION, path="/v1/openapi",
                                     description=DESCRIPTION),
        cors_config=CORSConfig(allow_origins=["*"], allow_headers=["authorization",
                                                                   "content-type"]),
        request_max_body_size=MAX_BODY_BYTES,
        logging_config=None,
    )


LIMIT_STATUSES = {408, 413, 429, 431}


def metered(app: Litestar) -> Any:
    """`app`, counting each HTTP request by its route template and status (services/metrics.py;
    the template, not the path: a table id is no label)."""

    async def wrapped(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        status = 500

        async def sending(message: Any) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await app(scope, receive, sending)
        finally:
            metrics.HTTP_REQUESTS.labels(scope.get("path_template") or "unmatched",
                                         str(status)).inc()
            if status in LIMIT_STATUSES:
                metrics.HTTP_LIMITED.labels(str(status)).inc()

    return wrapped


class AnnouncingServer(uvicorn.Server):
    """uvicorn's server, saying `listening_line` on stderr once its socket is bound."""

    async def startup(self, sockets: list[Any] | None = None) -> None:
        await super().startup(sockets)
        if self.started and self.servers:  # bound (a failed bind has exited already)
            port = int(self.servers[0].sockets[0].getsockname()[1])  # the real one, for port 0
            print(f"hexlog: {listening_line(self.config.host, port)}", file=sys.stderr,
                  flush=True)


def run(redis_url: str, host: str = "127.0.0.1", port: int = 8080,
        limits: GatewayLimits | None = None) -> None:
    """Serve the gateway (uvicorn, with the connection's limits) until SIGTERM/SIGINT."""
    from services.gateway.transport import guarded_protocol

    limits = limits or GatewayLimits()
    config = uvicorn.Config(metered(build_app(redis_url, limits)), host=host, port=port,
                            log_level="warning", access_log=False, lifespan="on",
                            timeout_graceful_shutdown=3, http=guarded_protocol(limits),
                            ws="none")  # no WebSocket route: no upgrade to take
    log.info("gateway serving", host=host, port=port, trusted=list(limits.trusted))
    AnnouncingServer(config).run()
