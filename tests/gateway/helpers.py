"""What the gateway tests share: plain HTTP calls and a game's record, audited."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
from redis.asyncio import Redis

from services.audit.audit import audit
from services.rules.record import load_record
from services.store import EventStore


def call(base: str, method: str, path: str, body: Any = None, token: str = "",
         source: str = "") -> httpx.Response:
    """One request; from the loopback address `source` when given (an outside client: the
    test gateways trust 127.0.0.1 only)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    transport = httpx.HTTPTransport(local_address=source) if source else None
    with httpx.Client(transport=transport, timeout=30) as client:
        return client.request(method, base + path, json=body, headers=headers)


def outsider(n: int) -> str:
    """The n-th outside client's address (127.0.1.1, 127.0.1.2, …; 127.0.0.1 is trusted)."""
    return f"127.0.{1 + n // 250}.{1 + n % 250}"


def from_address(base: str, source: str, **options: Any) -> httpx.AsyncClient:
    """An async client whose connections come from `source`."""
    return httpx.AsyncClient(base_url=base, timeout=30, **options,
                             transport=httpx.AsyncHTTPTransport(local_address=source))


def error(r: httpx.Response) -> str:
    """The response's one-line error."""
    text: str = r.json()["error"]
    assert "\n" not in text
    return text


def new_table(base: str, source: str = "", **spec: Any) -> tuple[str, str]:
    """(table id, owner token)."""
    r = call(base, "POST", "/v1/tables", spec, source=source)
    assert r.status_code == 201, r.text
    return r.json()["table"]["id"], r.json()["owner_token"]


def start(base: str, table: str, owner: str, fill: str = "heuristic") -> None:
    r = call(base, "POST", f"/v1/tables/{table}/start", {"fill": fill}, owner)
    assert r.status_code == 200, r.text


def wait_seated(base: str, table: str, humans: int, timeout: float = 30) -> None:
    until = time.monotonic() + timeout
    while time.monotonic() < until:
        seats = call(base, "GET", f"/v1/tables/{table}").json()["table"]["seats"]
        if sum(s["kind"] == "human" for s in seats) >= humans:
            return
        time.sleep(0.05)
    raise AssertionError(f"{humans} players did not join {table}")


async def wait_finished(redis: Redis, game: str, timeout: float) -> None:
    store = EventStore(redis)
    until = time.monotonic() + timeout
    while time.monotonic() < until:
        meta = await store.meta(game)
        if meta is not None and meta.get("status") == "finished":
            return
        await asyncio.sleep(0.2)
    raise AssertionError(f"game {game} did not finish in {timeout}s")


async def audited(redis: Redis, game: str) -> int:
    """`hexlog audit`'s verdict on the game's record (0: clean)."""
    report = audit(await load_record(EventStore(redis), game))
    assert report.exit_code == 0, report.to_dict()
    return report.exit_code
