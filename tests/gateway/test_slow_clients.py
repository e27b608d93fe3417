"""Clients that hold connections without finishing a request, as a slowloris does, against a
real gateway with a 2 s read timeout: hundreds of sockets sending half a request line, a
request dribbled a byte at a time, a body that never comes, a connection that sends nothing,
too many connections from one address, headers past the size limit. Each is answered (408,
429, 431) or closed within the timeout, while a game played through the gateway keeps moving
and /health stays fast."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from urllib.parse import urlsplit

import pytest
from helpers import outsider
from witness import witnessed

TIMEOUT_S = 2.0
SLACK_S = 3.0  # a loaded 2-core machine: the timer, the answer and the close
HALF_LINE = b"GET /v1/tab"


@pytest.fixture
def slow_gateway(start_gateway: Callable[..., str]) -> str:
    return start_gateway("--trust", "127.0.0.1", "--limit", f"read_timeout_s={TIMEOUT_S:g}",
                         "--limit", "connections_per_address=64")


async def connect(base: str, source: str, first: bytes = b""
                  ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    url = urlsplit(base)
    reader, writer = await asyncio.open_connection(url.hostname, url.port,
                                                   local_addr=(source, 0))
    if first:
        writer.write(first)
        await writer.drain()
    return reader, writer


async def answer(reader: asyncio.StreamReader, within: float) -> tuple[bytes, float]:
    """What the server says until it closes the connection, and when it closed (monotonic);
    an AssertionError if it keeps the connection open past `within` seconds."""
    try:
        said = await asyncio.wait_for(reader.read(), within)
    except TimeoutError:
        raise AssertionError(f"the connection was held open past {within}s") from None
    return said, time.monotonic()


async def test_hundreds_of_half_request_lines_are_cut_off(slow_gateway: str) -> None:
    async with witnessed(slow_gateway) as witness:
        opened = time.monotonic()
        # 600 sockets from 12 addresses (50 each: under the per-address cap)
        held = await asyncio.gather(*(connect(slow_gateway, outsider(i % 12), HALF_LINE)
                                      for i in range(600)))
        await witness.moved()  # the game moves while they are held
        said = await asyncio.gather(*(answer(reader, TIMEOUT_S + SLACK_S)
                                      for reader, _ in held))
        for text, closed in said:
            assert text.startswith(b"HTTP/1.1 408 "), text[:100]
            assert text.endswith(b'{"error":"headers: not received within 2 s"}'), text
            assert TIMEOUT_S - 0.5 <= closed - opened <= TIMEOUT_S + SLACK_S
        for _, writer in held:
            writer.close()
        await witness.moved()
    witness.assert_healthy()


async def test_a_request_dribbled_a_byte_at_a_time_is_cut_off(slow_gateway: str) -> None:
    """The deadline is for the whole head, not between bytes."""
    async with witnessed(slow_gateway) as witness:
        reader, writer = await connect(slow_gateway, outsider(1))
        began = time.monotonic()
        request = b"GET /v1/tables HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100
        first = b""
        for byte in request:  # a byte every 0.1 s, until the server speaks (or closes)
            try:
                first = await asyncio.wait_for(reader.read(65536), 0.1)
                break
            except TimeoutError:
                pass
            writer.write(bytes([byte]))
            await writer.drain()
        else:
            raise AssertionError("the whole request was read, a byte every 0.1 s")
        rest, closed = await answer(reader, TIMEOUT_S + SLACK_S)
        text = first + rest
        assert text.startswith(b"HTTP/1.1 408 "), text[:100]
        assert closed - began <= TIMEOUT_S + SLACK_S
        writer.close()
        await witness.moved()
    witness.assert_healthy()


async def test_a_body_that_never_comes_and_a_silent_connection(slow_gateway: str) -> None:
    async with witnessed(slow_gateway) as witness:
        head = (b"POST /v1/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Content-Length: 100\r\n\r\n{\"seats\": ")
        slow_body = await connect(slow_gateway, outsider(2), head)
        silent = await connect(slow_gateway, outsider(3))
        began = time.monotonic()
        text, closed = await answer(slow_body[0], TIMEOUT_S + SLACK_S)
        assert text.startswith(b"HTTP/1.1 408 "), text[:100]
        assert text.endswith(b'{"error":"body: not received within 2 s"}'), text
        assert closed - began <= TIMEOUT_S + SLACK_S
        text, closed = await answer(silent[0], TIMEOUT_S + SLACK_S)
        assert text == b""  # nothing asked: closed without an answer
        for _, writer in (slow_body, silent):
            writer.close()
        await witness.moved()
    witness.assert_healthy()


async def test_one_address_holds_a_bounded_number_of_connections(slow_gateway: str) -> None:
    attacker, other = outsider(4), outsider(5)
    async with witnessed(slow_gateway) as witness:
        held = [await connect(slow_gateway, attacker, HALF_LINE) for _ in range(64)]
        refused = [await connect(slow_gateway, attacker, HALF_LINE) for _ in range(20)]
        for reader, _ in refused:
            text, _ = await answer(reader, 1.0)  # at once, not at the timeout
            assert text.startswith(b"HTTP/1.1 429 "), text[:100]
            assert b"retry-after: 5" in text.lower()
            assert text.endswith(b'{"error":"connections: an address may have 64 open at '
                                 b'once"}'), text
        another = await connect(slow_gateway, other, b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        text = await asyncio.wait_for(another[0].readuntil(b'"ok"'), 5)
        assert text.startswith(b"HTTP/1.1 200 ")
        await witness.moved()
        for reader, writer in held:  # cut off at the timeout: the address may connect again
            await answer(reader, TIMEOUT_S + SLACK_S)
            writer.close()
        await asyncio.sleep(0.5)
        again = await connect(slow_gateway, attacker, b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        text = await asyncio.wait_for(again[0].readuntil(b'"ok"'), 5)
        assert text.startswith(b"HTTP/1.1 200 ")
        for _, writer in (*refused, another, again):
            writer.close()
    witness.assert_healthy()


async def test_headers_past_the_size_limit_are_refused(slow_gateway: str) -> None:
    async with witnessed(slow_gateway) as witness:
        reader, writer = await connect(slow_gateway, outsider(6))
        writer.write(b"GET /v1/tables HTTP/1.1\r\nHost: x\r\n")
        for _ in range(40):  # 40 KB of headers, never ending
            if writer.is_closing():
                break
            try:
                writer.write(b"X-Junk: " + b"j" * 1000 + b"\r\n")
                await writer.drain()
            except ConnectionError:
                break
        text, _ = await answer(reader, 5)
        assert text.startswith(b"HTTP/1.1 431 "), text[:100]
        assert text.endswith(b'{"error":"headers: a request\'s line and headers are at most '
                             b'16384 bytes"}'), text
        writer.close()
        await witness.moved()
    witness.assert_healthy()
