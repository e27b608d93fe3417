"""The lobby cannot be squatted or flooded, as an attacker would try over HTTP: one address
takes one seat of a table, and the owner removes a squatter (whose token then works nowhere);
an address holds 3 open tables, which expire unstarted; a creator's flood of tables shows at
most 3 of them in the listing. Each refusal is a 4xx with a one-line error naming the limit,
while a game played through the gateway keeps moving and /health stays fast."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import httpx
import pytest
from helpers import call, error, new_table, outsider, start
from witness import witnessed

TTL_S = 3


def refused(r: httpx.Response, status: int, text: str) -> None:
    assert r.status_code == status, r.text
    assert error(r) == text


async def test_a_squatter_gets_one_seat_and_the_owner_removes_it(gateway: str) -> None:
    owner_at, squatter, friend = outsider(30), outsider(31), outsider(32)
    async with witnessed(gateway) as witness:
        table, owner = new_table(gateway, owner_at, seats=4, deadline_ms=60_000)
        join = f"/v1/tables/{table}/join"
        squat = call(gateway, "POST", join, {"name": "squat"}, source=squatter)
        assert squat.status_code == 201, squat.text
        seat, token = squat.json()["seat"], squat.json()["token"]
        for name in ("squat1", "squat2", "squat3"):
            r = call(gateway, "POST", join, {"name": name}, source=squatter)
            refused(r, 409, f"seat: this address holds seat {seat} of this table already "
                            "(one seat per address)")
        seats = call(gateway, "GET", f"/v1/tables/{table}").json()["table"]["seats"]
        assert [s["kind"] for s in seats].count("open") == 3
        # Only the owner removes a seat.
        remove = f"/v1/tables/{table}/seats/{seat}"
        refused(call(gateway, "DELETE", remove, source=squatter), 401,
                "authorization: the table's owner token is needed "
                "(`Authorization: Bearer <token>`)")
        refused(call(gateway, "DELETE", remove, token=token, source=squatter), 403,
                "authorization: only the table's owner token removes a seat")
        r = call(gateway, "DELETE", remove, token=owner, source=owner_at)
        assert r.status_code == 200, r.text
        assert r.json()["table"]["seats"][seat] == {"kind": "open", "name": "", "pool": ""}
        refused(call(gateway, "DELETE", remove, token=owner, source=owner_at), 409,
                f"seat: {seat} is open already")
        refused(call(gateway, "DELETE", f"/v1/tables/{table}/seats/7", token=owner,
                     source=owner_at), 404, "seat: 7 is not a seat of this table (0..3)")
        # The removed holder's token works nowhere.
        gone = "authorization: unknown or expired token"
        refused(call(gateway, "POST", f"/v1/tables/{table}/leave", token=token,
                     source=squatter), 401, gone)
        refused(call(gateway, "GET", f"/v1/tables/{table}/stream", token=token,
                     source=squatter), 401, gone)
        mine = call(gateway, "POST", join, {"name": "ann", "seat": seat}, source=friend)
        assert mine.status_code == 201, mine.text
        start(gateway, table, owner)
        refused(call(gateway, "POST", f"/v1/tables/{table}/commands",
                     {"command": {"type": "RollDice", "seat": seat}, "expected_version": 1},
                     token=token, source=squatter), 401, gone)
        refused(call(gateway, "DELETE", f"/v1/tables/{table}/seats/0", token=owner,
                     source=owner_at), 409,
                "table: started; seats are removed before the start only")
        # What anyone sees of the table names neither creators nor holders.
        shown = call(gateway, "GET", f"/v1/tables/{table}", source=friend).json()["table"]
        assert not {"creator", "holders", "clients"} & set(shown)
        await witness.moved()
    witness.assert_healthy()


@pytest.fixture
def short_lobby(start_gateway: Callable[..., str]) -> str:
    return start_gateway("--trust", "127.0.0.1", "--limit", f"table_ttl_s={TTL_S}")


async def test_open_tables_are_counted_and_expire(short_lobby: str) -> None:
    base, attacker = short_lobby, outsider(33)
    async with witnessed(base) as witness:
        made = [call(base, "POST", "/v1/tables", {"seats": 2}, source=attacker)
                for _ in range(3)]
        assert [r.status_code for r in made] == [201] * 3
        first = made[0].json()["table"]
        assert first["expires_at"] == pytest.approx(first["created_at"] + TTL_S)
        r = call(base, "POST", "/v1/tables", {"seats": 2}, source=attacker)
        refused(r, 429, "tables: an address may have 3 open tables at once; start or wait "
                        "for one")
        assert 1 <= int(r.headers["retry-after"]) <= TTL_S
        kept, owner = new_table(base, outsider(34), seats=2, deadline_ms=60_000)
        start(base, kept, owner)  # a started table does not expire
        await asyncio.sleep(TTL_S + 1.5)
        for r in made:
            table = r.json()["table"]["id"]
            refused(call(base, "GET", f"/v1/tables/{table}"), 404, "table: no such table")
            refused(call(base, "POST", f"/v1/tables/{table}/join", {"name": "late"},
                         source=outsider(35)), 404, "table: no such table")
        assert call(base, "GET", f"/v1/tables/{kept}").json()["table"]["status"] in (
            "live", "finished")
        listed = {t["id"] for t in call(base, "GET", "/v1/tables").json()["tables"]}
        assert kept in listed
        assert not listed & {r.json()["table"]["id"] for r in made}
        again = call(base, "POST", "/v1/tables", {"seats": 2}, source=attacker)
        assert again.status_code == 201, again.text  # its expired tables no longer count
        await witness.moved()
    witness.assert_healthy()


async def test_one_creator_cannot_flood_the_listing(gateway: str) -> None:
    victim, attacker = outsider(36), outsider(37)
    async with witnessed(gateway) as witness:
        theirs, _ = new_table(gateway, victim, seats=2)
        began = time.monotonic()
        flood = [call(gateway, "POST", "/v1/tables", {"seats": 2}, source=attacker)
                 for _ in range(100)]
        made = [r.json() for r in flood if r.status_code == 201]
        assert len(made) == 3, [r.status_code for r in flood]
        for r in flood:
            if r.status_code != 201:
                assert r.status_code == 429, r.text
                assert error(r).startswith(("tables: an address may have 3 open tables",
                                            "rate: too many lobby requests"))
        # Started tables leave the quota: more tables, still at most 3 listed.
        for m in made:
            start(gateway, m["table"]["id"], m["owner_token"], fill="random")
        await asyncio.sleep(2.0)  # the lobby's rate (2 a second) lets it ask again
        more = [call(gateway, "POST", "/v1/tables", {"seats": 2}, source=attacker)
                for _ in range(3)]
        assert [r.status_code for r in more] == [201] * 3, [r.text for r in more]
        await asyncio.sleep(1.1)  # the listing is made at most once a second
        listed = call(gateway, "GET", "/v1/tables", source=victim).json()["tables"]
        ids = [t["id"] for t in listed]
        assert theirs in ids
        attackers = {m["table"]["id"] for m in made} | {r.json()["table"]["id"] for r in more}
        assert len(set(ids) & attackers) == 3
        assert all(not {"creator", "holders", "clients"} & set(t) for t in listed)
        assert time.monotonic() - began < 60
        await witness.moved()
    witness.assert_healthy()
