"""Hostile bodies and paths, sent as an attacker would, from an outside address of a real
gateway: JSON nested 8,000 deep in a command and in the lobby's bodies, the gateway's own keys
named as table ids, bodies past the size limits. Each gets a 4xx with a one-line error (no 500), while a game played
through the gateway keeps moving and /health stays fast."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from urllib.parse import urlsplit

import httpx
from helpers import call, error, from_address, new_table, outsider, start
from witness import witnessed

ATTACKER = outsider(1)
DEEP = 8000


def raw_post(base: str, path: str, body: bytes, token: str = "") -> httpx.Response:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    transport = httpx.HTTPTransport(local_address=ATTACKER)
    with httpx.Client(transport=transport, timeout=30) as client:
        return client.post(base + path, content=body, headers=headers)


def nested(depth: int, inside: bytes = b"1") -> bytes:
    return b"[" * depth + inside + b"]" * depth


async def test_json_nested_8000_deep_is_refused_before_it_is_decoded(gateway: str) -> None:
    async with witnessed(gateway) as witness:
        table, owner = new_table(gateway, ATTACKER, seats=2, deadline_ms=60_000)
        joined = call(gateway, "POST", f"/v1/tables/{table}/join", {"name": "mallory"},
                      source=ATTACKER).json()
        start(gateway, table, owner)
        move = b'{"command": {"type": "RollDice", "seat": %d, "x": %s}, "expected_version": 1}'
        attacks = {
            # balanced, 16 KB: within the commands' size limit
            f"/v1/tables/{table}/commands": (move % (joined["seat"], nested(DEEP)),
                                             joined["token"]),
            # only openers: 8,000 of them fit the lobby's 8 KiB, and a decoder recurses
            # into them before it finds the body cut short
            "/v1/tables": (b'{"modules": [{"name": "victory-points", "params": {"target": '
                           + b"[" * DEEP, ""),
            f"/v1/tables/{table}/join": (b'{"name": ' + b'{"a": ' * 1300, ""),
            f"/v1/tables/{table}/start": (b'{"fill": ' + b"[" * DEEP, owner),
        }
        for path, (body, token) in attacks.items():
            r = raw_post(gateway, path, body, token)
            assert r.status_code == 400, (path, r.status_code, r.text[:300])
            assert error(r) == "body: nested deeper than 32", path
        await witness.moved()
    witness.assert_healthy()


def test_the_bound_is_32_and_strings_do_not_count(gateway: str) -> None:
    """33 levels are refused by the scan; 32 reach the decoder (which names the field it
    cannot take); brackets inside strings are text."""
    def create(depth: int) -> httpx.Response:
        params = b'{"target": %s}' % nested(depth - 4)  # the body, modules, item, params: 4
        return raw_post(gateway, "/v1/tables",
                        b'{"modules": [{"name": "victory-points", "params": %s}]}' % params)

    refused = create(33)
    assert refused.status_code == 400, refused.text
    assert error(refused) == "body: nested deeper than 32"
    decoded = create(32)
    assert decoded.status_code == 400, decoded.text
    assert error(decoded).startswith("modules[0].params"), error(decoded)
    table, _ = new_table(gateway, outsider(2), seats=2)
    r = raw_post(gateway, f"/v1/tables/{table}/join",
                 b'{"name": "%s\\"]}{[%s"}' % (b"[" * 16, b"{" * 16))
    assert r.status_code == 201, r.text
    assert r.json()["seat"] == 0


async def test_the_gateways_own_keys_are_no_tables(gateway: str) -> None:
    """`<id>:secret` is where a table's credentials live: as a table id it is a 404, never a
    key read (the gateway once decoded it as a table: a 500). So is any id the gateway does
    not issue."""
    async with witnessed(gateway) as witness:
        table, owner = new_table(gateway, ATTACKER, seats=2, deadline_ms=60_000)
        start(gateway, table, owner)
        for n, bad in enumerate((f"{table}:secret", f"{table}%3Asecret", f"{table}:secret:x",
                                 "tables", f"{table[:-1]}", f"{table}0", "t-" + "a" * 5000)):
            source = outsider(10 + n)  # an address each: the lobby's rate is not tested here
            for method, path in (("GET", ""), ("GET", "/board.png"), ("GET", "/board.svg"),
                                 ("GET", "/replay.html"), ("GET", "/stream"),
                                 ("GET", "/events"), ("POST", "/join"), ("POST", "/start"),
                                 ("POST", "/leave"), ("DELETE", "/seats/0")):
                body = {"name": "x"} if path == "/join" else None
                r = call(gateway, method, f"/v1/tables/{bad}{path}", body, owner,
                         source=source)
                assert r.status_code == 404, (bad, path, r.status_code, r.text[:200])
                assert error(r) == "table: no such table", (bad, path)
        async with from_address(gateway, ATTACKER) as http:
            r = await http.post(f"/v1/tables/{table}:secret/commands",
                                json={"command": {"type": "RollDice", "seat": 0},
                                      "expected_version": 1},
                                headers={"Authorization": f"Bearer {owner}"})
        assert r.status_code == 404, r.text
        assert error(r) == "table: no such table"
        r = call(gateway, "GET", "/v1/no-such-route", source=ATTACKER)
        assert (r.status_code, error(r)) == (404, "path: no such route")
        await witness.moved()
    witness.assert_healthy()


async def test_bodies_past_the_size_limits_are_refused(gateway: str) -> None:
    """A megabyte, a length announced and never sent, and chunks without end: 413 each."""
    async with witnessed(gateway) as witness:
        table, _ = new_table(gateway, ATTACKER, seats=2)
        big = b'{"name": "' + b"x" * 1_000_000 + b'"}'
        r = raw_post(gateway, f"/v1/tables/{table}/join", big)
        assert r.status_code == 413, r.text[:200]
        assert error(r).startswith("body: larger than the limit")

        def chunks() -> Iterator[bytes]:
            yield b'{"name": "'
            for _ in range(200):
                yield b"x" * 1000

        transport = httpx.HTTPTransport(local_address=ATTACKER)
        with httpx.Client(transport=transport, timeout=30) as client:
            r = client.post(f"{gateway}/v1/tables", content=chunks(),
                            headers={"Content-Type": "application/json"})
        assert r.status_code == 413, r.text[:200]
        assert error(r).startswith("body: larger than the limit")
        url = urlsplit(gateway)  # a gigabyte announced: refused before it is read
        reader, writer = await asyncio.open_connection(url.hostname, url.port,
                                                       local_addr=(ATTACKER, 0))
        writer.write(f"POST /v1/tables/{table}/join HTTP/1.1\r\nHost: x\r\n"
                     "Content-Type: application/json\r\nContent-Length: 1000000000\r\n\r\n{"
                     .encode())
        status = await asyncio.wait_for(reader.readline(), 10)
        writer.close()
        assert status.startswith(b"HTTP/1.1 413 "), status
        await witness.moved()
    witness.assert_healthy()
