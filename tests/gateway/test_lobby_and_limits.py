"""Every HTTP input is hostile: each bad one gets a one-line error naming the field, a seat
token acts for its own seat of its own table only, and rates and sizes are limited."""

from __future__ import annotations

import asyncio

import httpx
from helpers import call, new_table, start
from redis.asyncio import Redis

from events.events import SeatForfeited
from services.client import Client


def error(r: httpx.Response) -> str:
    text: str = r.json()["error"]
    assert "\n" not in text
    return text


def refused(r: httpx.Response, status: int, text: str, *, whole: bool = False,
            anywhere: bool = False) -> None:
    """`r` is refused with `status` and a one-line error starting with (or being, or
    holding) `text`."""
    assert r.status_code == status, r.text
    said = error(r)
    if whole:
        assert said == text
    elif anywhere:
        assert text in said
    else:
        assert said.startswith(text), said


def test_bad_lobby_requests_name_their_field(gateway: str) -> None:
    r = call(gateway, "POST", "/v1/tables", {"seats": 9})
    refused(r, 400, "seats:")
    r = call(gateway, "POST", "/v1/tables", {"modules": [{"name": "no-such-module"}]})
    refused(r, 422, "modules[0].name:")
    r = call(gateway, "POST", "/v1/tables", {"seats": 3, "colour": "red"})
    refused(r, 400, "colour", anywhere=True)
    r = call(gateway, "POST", "/v1/tables", {"bots": {"1": "nobody-runs-this"}})
    refused(r, 422, "bots:")
    r = call(gateway, "POST", "/v1/tables", {"seats": 2, "junk": "x" * 20_000})
    refused(r, 413, "body:")
    table, _ = new_table(gateway, seats=2)
    r = call(gateway, "POST", f"/v1/tables/{table}/join", {"name": "a\nb"})
    refused(r, 400, "name:")
    r = call(gateway, "POST", f"/v1/tables/{table}/join", {"name": "ann", "seat": 2})
    refused(r, 400, "seat:")
    r = call(gateway, "GET", "/v1/tables/t-nothing")
    refused(r, 404, "table: no such table", whole=True)
    r = call(gateway, "POST", f"/v1/tables/{table}/join")
    refused(r, 400, "body: a JSON body is needed", whole=True)


def test_a_token_acts_for_its_own_seat_of_its_own_table_only(gateway: str) -> None:
    table, owner = new_table(gateway, seats=2, deadline_ms=60_000)
    other, _ = new_table(gateway, seats=2)
    ann = call(gateway, "POST", f"/v1/tables/{table}/join", {"name": "ann"}).json()
    move = {"command": {"type": "RollDice", "seat": 0}, "expected_version": 1}
    r = call(gateway, "POST", f"/v1/tables/{table}/commands", move, ann["token"])
    refused(r, 409, "table: not started yet", whole=True)
    r = call(gateway, "POST", f"/v1/tables/{table}/start", {}, ann["token"])
    refused(r, 403, "owner", anywhere=True)
    start(gateway, table, owner)
    r = call(gateway, "POST", f"/v1/tables/{table}/join", {"name": "late"})
    assert r.status_code == 409
    r = call(gateway, "POST", f"/v1/tables/{table}/commands", move)
    refused(r, 401, "authorization:")
    r = call(gateway, "POST", f"/v1/tables/{table}/commands", move, "forged-token")
    assert r.status_code == 401
    r = call(gateway, "POST", f"/v1/tables/{other}/commands", move, ann["token"])
    refused(r, 403, "another table", anywhere=True)
    r = call(gateway, "POST", f"/v1/tables/{table}/commands", move, owner)
    assert r.status_code == 403
    theirs = {"command": {"type": "RollDice", "seat": 1}, "expected_version": 1}
    r = call(gateway, "POST", f"/v1/tables/{table}/commands", theirs, ann["token"])
    refused(r, 403, "command.seat:")
    r = call(gateway, "POST", f"/v1/tables/{table}/commands",
             {"command": {"type": "Teleport", "seat": 0}, "expected_version": 1}, ann["token"])
    refused(r, 400, "command:")
    r = call(gateway, "POST", f"/v1/tables/{table}/commands",
             {"command": {"type": "RollDice", "seat": 0}, "expected_version": "one"},
             ann["token"])
    refused(r, 400, "expected_version:")


def test_an_illegal_move_is_refused_with_its_rule(gateway: str) -> None:
    table, owner = new_table(gateway, seats=2, deadline_ms=60_000)
    ann = call(gateway, "POST", f"/v1/tables/{table}/join", {"name": "ann", "seat": 0}).json()
    start(gateway, table, owner)
    r = call(gateway, "POST", f"/v1/tables/{table}/commands",
             {"command": {"type": "RollDice", "seat": 0}, "expected_version": 1}, ann["token"])
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["status"] == "rejected"
    assert body["rule_id"]
    assert body["message"]


async def test_commands_are_rate_limited(gateway: str) -> None:
    table, owner = new_table(gateway, seats=2, deadline_ms=60_000)
    ann = call(gateway, "POST", f"/v1/tables/{table}/join", {"name": "ann", "seat": 0}).json()
    start(gateway, table, owner)
    theirs = {"command": {"type": "RollDice", "seat": 1}, "expected_version": 1}
    headers = {"Authorization": f"Bearer {ann['token']}"}
    codes: list[httpx.Response] = []
    async with httpx.AsyncClient(base_url=gateway, headers=headers, timeout=30) as client:
        for _ in range(5):  # waves of 100 at once, until the limit shows (a slow machine
            codes += await asyncio.gather(*(  # refills the bucket while a wave is served)
                client.post(f"/v1/tables/{table}/commands", json=theirs) for _ in range(100)))
            if any(r.status_code == 429 for r in codes):
                break
    limited = [r for r in codes if r.status_code == 429]
    assert limited, [r.status_code for r in codes]
    assert int(limited[0].headers["retry-after"]) >= 1
    assert error(limited[0]).startswith("rate:")


async def test_leaving_a_started_table_forfeits_the_seat(gateway: str, redis_client: Redis) -> None:
    table, owner = new_table(gateway, seats=2, deadline_ms=60_000)
    ann = call(gateway, "POST", f"/v1/tables/{table}/join", {"name": "ann", "seat": 1}).json()
    start(gateway, table, owner)
    r = call(gateway, "POST", f"/v1/tables/{table}/leave", None, ann["token"])
    assert r.status_code == 200
    assert r.json()["forfeited"] is True
    for _ in range(100):
        events = await Client(redis_client).events(table)
        if any(isinstance(e.event, SeatForfeited) and e.event.seat == 1 for e in events):
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError("no SeatForfeited")
    r = call(gateway, "GET", f"/v1/tables/{table}/stream", None, ann["token"])
    assert r.status_code == 401  # the token is gone with the seat


def test_the_gateway_serves_its_openapi_and_health(gateway: str) -> None:
    spec = call(gateway, "GET", "/v1/openapi/openapi.json").json()
    assert {"/v1/tables", "/v1/tables/{table_id}/commands", "/v1/tables/{table_id}/stream",
            "/v1/tables/{table_id}/seats/{seat}"} <= set(spec["paths"])
    remove = spec["paths"]["/v1/tables/{table_id}/seats/{seat}"]["delete"]["responses"]
    assert {"200", "401", "403", "404", "409", "429"} <= set(remove)
    assert {"400", "408", "413", "429"} <= set(
        spec["paths"]["/v1/tables/{table_id}/commands"]["post"]["responses"])
    assert call(gateway, "GET", "/health").json() == {"status": "ok", "redis": True,
                                                      "rules": True}
    assert call(gateway, "GET", "/ready").status_code == 200
