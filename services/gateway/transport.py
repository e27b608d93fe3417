"""Limits on the connection itself, below the HTTP framework: uvicorn's protocol (httptools)
with a read deadline and a cap on open connections per address.

uvicorn bounds only the idle time between two requests of a keep-alive connection; a client
that sends half a request line, or a header a minute, or a body a byte at a time, holds its
connection (and a file descriptor) for as long as it likes. Here each request must arrive
within `read_timeout_s`: its line and headers from the connection's start (or the request's
first byte on a kept-alive connection), then its body from the end of its headers. Past that
the gateway answers 408 and closes the connection. A request's line and headers are at most
MAX_HEAD_BYTES (431 past that), and one address may hold `connections_per_address` connections
at once (429 for the next one). Trusted networks have no cap on connections; the deadline and
the size bind everyone.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from services import metrics
from services.gateway.limits import MAX_HEAD_BYTES, GatewayLimits, client_key

LINGER_S = 1.0  # how long a refused connection's last bytes are read before it closes
REASONS = {408: b"Request Timeout", 429: b"Too Many Requests",
           431: b"Request Header Fields Too Large"}


def refusal(status: int, text: str, retry_after: int = 0) -> bytes:
    """A whole HTTP response that closes the connection: the one-line error of errors.py."""
    body = b'{"error":"' + text.encode() + b'"}'
    head = [b"HTTP/1.1 %d %s" % (status, REASONS[status]), b"content-type: application/json",
            b"content-length: %d" % len(body), b"connection: close"]
    if retry_after:
        head.append(b"retry-after: %d" % retry_after)
    return b"\r\n".join(head) + b"\r\n\r\n" + body


def guarded_protocol(limits: GatewayLimits) -> type[HttpToolsProtocol]:
    """uvicorn's httptools protocol with `limits` on each connection (one class per server:
    it holds that server's count of connections by address)."""
    open_by_client: Counter[str] = Counter()

    class GuardedProtocol(HttpToolsProtocol):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.deadline: asyncio.TimerHandle | None = None
            self.counted = ""  # the client this connection counts against
            self.reading = "head"  # what the deadline waits for: "head", "body" or ""
            self.head_bytes = 0
            self.began = False  # a byte of the current request has arrived
            self.refused = False

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            host = self.client[0] if self.client else ""
            if host and not limits.is_trusted(host):
                client = client_key(host)
                if open_by_client[client] >= limits.connections_per_address:
                    self.refuse(429, f"connections: an address may have "
                                     f"{limits.connections_per_address} open at once", 5)
                    return
                open_by_client[client] += 1
                self.counted = client
            self.arm("head")

        def connection_lost(self, exc: Exception | None) -> None:
            self.disarm()
            if self.counted:
                open_by_client[self.counted] -= 1
                if open_by_client[self.counted] <= 0:
                    del open_by_client[self.counted]
                self.counted = ""
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if self.refused:
                return  # read and dropped until the connection closes
            super().data_received(data)
            if self.reading == "head" and self.began:  # the data ended inside a request's head
                self.head_bytes += len(data)
                if self.head_bytes > MAX_HEAD_BYTES:
                    self.refuse(431, f"headers: a request's line and headers are at most "
                                     f"{MAX_HEAD_BYTES} bytes")

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self.began = True
            self.head_bytes = 0
            if self.reading != "head":  # a kept-alive connection's next request: its own
                self.arm("head")  # deadline, from its first byte

        def on_headers_complete(self) -> None:
            self.arm("body")
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            self.disarm()
            self.began = False
            super().on_message_complete()

        def arm(self, reading: str) -> None:
            self.disarm()
            self.reading = reading
            self.deadline = self.loop.call_later(limits.read_timeout_s, self.expired)

        def disarm(self) -> None:
            if self.deadline is not None:
                self.deadline.cancel()
                self.deadline = None
            self.reading = ""

        def expired(self) -> None:
            """The deadline passed: 408 for a request that began and is not answered yet."""
            self.deadline = None
            cycle = self.cycle
            answering = cycle is not None and cycle.response_started
            if self.reading == "head":
                busy = answering and not cycle.response_complete  # the previous response
                if self.began and not busy:
                    self.refuse(408, f"headers: not received within {limits.read_timeout_s:g} s")
                else:  # nothing asked (or a response under way): nothing to answer
                    self.transport.close()
            elif not answering:
                self.refuse(408, f"body: not received within {limits.read_timeout_s:g} s")
            else:  # answered before its body came: stop waiting for it
                self.transport.close()

        def refuse(self, status: int, text: str, retry_after: int = 0) -> None:
            """Answer, then close gently: what the client still sends for a moment is read
            and dropped (closing on unread data resets the connection, and the client may
            lose the answer with it)."""
            self.disarm()
            if self.refused or self.transport.is_closing():
                return
            self.refused = True
            self.transport.write(refusal(status, text, retry_after))
            metrics.HTTP_LIMITED.labels(str(status)).inc()
            if self.transport.can_write_eof():
                self.transport.write_eof()
            self.loop.call_later(LINGER_S, self.transport.close)

    return GuardedProtocol
