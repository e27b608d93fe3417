"""One client cannot take the gateway's streams: an address opening spectator streams as fast
as it may gets 8, a token 4 (from any addresses), then 429 with Retry-After and the limit named;
others still watch, a game played through the gateway keeps moving, /health stays fast, and
the streams count again once closed."""

from __future__ import annotations

import asyncio
import contextlib
import time

import httpx
from helpers import call, error, from_address, new_table, outsider
from witness import witnessed


async def hold(stack: contextlib.AsyncExitStack, http: httpx.AsyncClient, path: str,
               token: str = "") -> httpx.Response:
    """Open a stream and keep it open until the stack closes."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return await stack.enter_async_context(http.stream("GET", path, headers=headers,
                                                       timeout=30))


def capped(r: httpx.Response, text: str) -> None:
    assert r.status_code == 429, r.text
    assert int(r.headers["retry-after"]) >= 1
    assert error(r) == f"stream: {text}"


async def test_streams_are_capped_per_address_and_per_token(gateway: str) -> None:
    table, _ = new_table(gateway, seats=2)  # open: its streams wait for the start
    path = f"/v1/tables/{table}/stream"
    seat = call(gateway, "POST", f"/v1/tables/{table}/join", {"name": "ann"},
                source=outsider(21)).json()
    async with witnessed(gateway) as witness, contextlib.AsyncExitStack() as stack:
        attacker = await stack.enter_async_context(from_address(gateway, outsider(20)))
        opened = [await hold(stack, attacker, path) for _ in range(8)]
        assert [r.status_code for r in opened] == [200] * 8
        capped(await attacker.get(path), "an address may have 8 streams open at once")
        capped(await attacker.get(f"/v1/tables/{table}/events"),
               "an address may have 8 streams open at once")
        other = await stack.enter_async_context(from_address(gateway, outsider(22)))
        assert (await hold(stack, other, path)).status_code == 200  # others still watch
        # One token from two addresses: 4 streams, then the token's cap.
        first = await stack.enter_async_context(from_address(gateway, outsider(23)))
        second = await stack.enter_async_context(from_address(gateway, outsider(24)))
        for http in (first, first, second, second):
            assert (await hold(stack, http, path, seat["token"])).status_code == 200
        capped(await second.get(path, headers={"Authorization": f"Bearer {seat['token']}"}),
               "a token may have 4 streams open at once")
        await witness.moved()
    witness.assert_healthy()
    # Closed, they count no more (the gateway sees them gone at its next keep-alive line).
    until = time.monotonic() + 10
    while True:
        async with contextlib.AsyncExitStack() as stack:
            attacker = await stack.enter_async_context(from_address(gateway, outsider(20)))
            token = await stack.enter_async_context(from_address(gateway, outsider(25)))
            again = [(await hold(stack, attacker, path)).status_code for _ in range(8)]
            again += [(await hold(stack, token, path, seat["token"])).status_code
                      for _ in range(4)]
        if again == [200] * 12:
            break
        assert time.monotonic() < until, again
        await asyncio.sleep(0.5)
