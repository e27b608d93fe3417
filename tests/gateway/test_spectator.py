"""A spectator's stream (NDJSON and SSE) never carries hidden information.

A whole game of bots is watched as a spectator, on both stream kinds, from the first line to
`GameFinished`. Against the referee's record of the same game: no hand, development card or
hidden VP in any view; every stolen card and bought development card redacted; no prompt; no
seat credential, turn key or the seed before the game reveals it. The game had such secrets to
hide (the check is not vacuous). A seat's own stream, by contrast, shows that seat its hand.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from helpers import call, new_table, start, wait_finished
from redis.asyncio import Redis

from events.events import CardStolen, DevelopmentCardBought, GameFinished
from services.client import Client
from services.gateway.tables import Lobby

HIDDEN_EVENTS = {"CardStolen": "resource", "DevelopmentCardBought": "card"}


async def read_ndjson(base: str, table: str, token: str = "",
                      after: int | None = None) -> list[dict[str, Any]]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    params = {} if after is None else {"after": after}
    out: list[dict[str, Any]] = []
    async with httpx.AsyncClient(timeout=120) as client, client.stream(
            "GET", f"{base}/v1/tables/{table}/stream", headers=headers, params=params) as resp:
        assert resp.status_code == 200
        assert resp.headers["content-type"].startswith("application/x-ndjson")
        async for text in resp.aiter_lines():
            if text.strip():
                out.append(json.loads(text))
    return out


async def read_sse(base: str, table: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    async with httpx.AsyncClient(timeout=120) as client, client.stream(
            "GET", f"{base}/v1/tables/{table}/events") as resp:
        assert resp.headers["content-type"].startswith("text/event-stream")
        async for text in resp.aiter_lines():
            if text.startswith("data:") and text[5:].strip():
                out.append(json.loads(text[5:].strip()))
    return out


def assert_nothing_hidden(lines: list[dict[str, Any]], secrets: list[str], seed: str) -> None:
    assert lines[0]["type"] == "gameFull"
    assert lines[0]["seat"] is None
    assert all(line["type"] != "prompt" for line in lines)
    for player in lines[0]["view"]["players"]:
        assert (player["hand"], player["dev_hand"], player["vp"]) == (None, None, None)
    for line in lines:
        text = json.dumps(line)
        assert not any(s in text for s in secrets), "a credential in a spectator's line"
        assert '"mac"' not in text
        assert '"key"' not in text
        if line["type"] == "event":
            event = line["event"]
            if event["type"] in HIDDEN_EVENTS:
                assert event[HIDDEN_EVENTS[event["type"]]] is None, event
            if event["type"] != "GameFinished":
                assert seed not in text, "the seed before the game revealed it"


async def test_a_spectator_sees_nothing_hidden_on_either_stream(
        gateway: str, redis_client: Redis) -> None:
    table, owner = new_table(gateway, seats=4, deadline_ms=5_000)
    watching = asyncio.gather(read_ndjson(gateway, table), read_sse(gateway, table))
    await asyncio.sleep(0.5)  # the streams wait for the table to start
    start(gateway, table, owner, fill="heuristic")
    ndjson, sse = await asyncio.wait_for(watching, 300)
    await wait_finished(redis_client, table, 30)

    log = await Client(redis_client).events(table)
    finished = log[-1].event
    assert isinstance(finished, GameFinished)
    hidden = [e.event for e in log if isinstance(e.event, CardStolen | DevelopmentCardBought)]
    assert any(getattr(e, "resource", None) or getattr(e, "card", None) for e in hidden), \
        "the game hid nothing: the test would prove nothing"
    found = await Lobby(redis_client).secrets(table)
    assert found is not None
    for lines in (ndjson, sse):
        assert_nothing_hidden(lines, [*found.seats, found.referee], finished.seed)
        events = [line for line in lines if line["type"] == "event"]
        assert events[-1]["event"]["type"] == "GameFinished"
        assert events[-1]["version"] == len(log)
    assert [line for line in ndjson if line["type"] == "event"] == \
        [line for line in sse if line["type"] == "event"]


async def test_a_seat_sees_its_own_hand_and_only_its_own(gateway: str) -> None:
    table, owner = new_table(gateway, seats=3, deadline_ms=60_000)
    joined = call(gateway, "POST", f"/v1/tables/{table}/join", {"name": "ann", "seat": 1}).json()
    start(gateway, table, owner)
    await asyncio.sleep(1.0)
    full = await first_line(gateway, table, joined["token"])
    players = full["view"]["players"]
    assert players[1]["hand"] is not None
    assert players[0]["hand"] is None
    assert players[2]["hand"] is None


async def first_line(base: str, table: str, token: str, after: int | None = None,
                     count: int = 1) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"}
    params = {} if after is None else {"after": after}
    async with httpx.AsyncClient(timeout=30) as client, client.stream(
            "GET", f"{base}/v1/tables/{table}/stream", headers=headers, params=params) as resp:
        async for text in resp.aiter_lines():
            if text.strip():
                line: dict[str, Any] = json.loads(text)
                return line
    raise AssertionError("the stream ended without a line")


async def test_a_stream_resumes_after_a_version(gateway: str) -> None:
    """`after=V`: the full line, then every event after V (already in the view)."""
    table, owner = new_table(gateway, seats=2, deadline_ms=60_000)
    start(gateway, table, owner, fill="heuristic")
    lines = await read_ndjson(gateway, table)
    last = [x for x in lines if x["type"] == "event"][-1]
    resumed = await read_ndjson(gateway, table, after=last["version"] - 5)
    assert resumed[0]["type"] == "gameFull"
    assert resumed[0]["version"] == last["version"]
    assert [x["version"] for x in resumed[1:]] == list(range(last["version"] - 4,
                                                             last["version"] + 1))
    # SSE resumes from the id of the last event seen, as a browser's EventSource does.
    async with httpx.AsyncClient(timeout=60) as client, client.stream(
            "GET", f"{gateway}/v1/tables/{table}/events",
            headers={"Last-Event-ID": str(last["version"] - 3)}) as resp:
        ids = [int(text[3:].strip()) async for text in resp.aiter_lines()
               if text.startswith("id:")]
    assert ids == list(range(last["version"] - 2, last["version"] + 1))
    assert call(gateway, "GET", f"/v1/tables/{table}").json()["table"]["status"] == "finished"
